"""Staff who have passed the second step, for tests that are not about it (a pytest plugin, listed in
the root conftest).

Staff sessions reach nothing staff-only before the second step (accounts.second_factor). A test
that signs a staff member in to test something else gives them a verified factor explicitly:

    admin = with_verified_second_factor(AdminUserFactory())
    client.force_login(admin)             # or sign_in_browser(page, url, admin)

with_verified_second_factor() gives the user a confirmed authenticator-app device and marks this
user object with it; when a session is started for the marked object (Django's force_login, used
by sign_in_browser and the schemathesis helpers too), the receiver below records the device in
the session the way django_otp.login() does after a real code. The root fixture `admin_user` is
such a staff member. Tests of the step itself use AdminUserFactory() alone, and real codes
(totp_code) or a virtual passkey.
"""

from __future__ import annotations

import hmac
import struct
import time
from base64 import b32decode
from hashlib import sha1

from django.contrib.auth.signals import user_logged_in
from django.dispatch import receiver
from django_otp import DEVICE_ID_SESSION_KEY


def with_verified_second_factor(user):
    """`user` (staff) with an authenticator app set up; sessions started for this object have passed
    the second step with it."""
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=True)
    user.otp_device = device
    return user


@receiver(user_logged_in, dispatch_uid="kindly-tests-verified-second-factor")
def _carry_verified_second_factor(sender, request, user, **kwargs) -> None:
    device = getattr(user, "otp_device", None)
    if device is not None and device.user_id == user.pk and device.confirmed:
        request.session[DEVICE_ID_SESSION_KEY] = device.persistent_id


def totp_code(secret_base32: str, *, at: float | None = None, step: int = 30) -> str:
    """The 6-digit code an authenticator app shows for a base32 key (RFC 6238: HMAC-SHA1, 30 s),
    computed here from the key alone, independently of django-otp."""
    key = b32decode(secret_base32.replace(" ", "").upper())
    counter = int((time.time() if at is None else at) // step)
    digest = hmac.new(key, struct.pack(">Q", counter), sha1).digest()
    offset = digest[-1] & 0x0F
    value = struct.unpack(">I", digest[offset : offset + 4])[0] & 0x7FFFFFFF
    return f"{value % 1_000_000:06d}"
