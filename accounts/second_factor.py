"""The staff second step: reads and writes of the factors staff sign in with after Firebase.

Staff (userType admin) pass a second step before anything that needs staff rights answers: a
passkey (django-otp-webauthn), a code from an authenticator app (django-otp's TOTP device), or one
of their recovery codes (django-otp's static device; each works once). The session remembers the
step: django-otp's OTPMiddleware gives request.user.is_verified(), true once a confirmed device of
the user's was used in this session (django_otp.login). Everyone else signs in as before.

Enrolment: a staff member with no factor sets one up on first sign-in (a passkey, or an
authenticator app: the key is offered, and confirmed by a code from the app). The first factor
comes with recovery codes, shown once. Losing every factor: manage.py reset_second_factor
(adminpanel, audited) removes them, and the next sign-in sets one up again.

Who may reach what without the step: accounts.middleware (the gate), accounts.guards
(/admin), accounts.permissions.IsAdmin (the admin API) and marketplace.admin_site (the Django
admin) all ask needs_second_factor(); the websocket (messaging.consumers, which no middleware
sees) asks socket_needs_second_factor() of its session and closes with 4403.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext
from django_otp.models import Device, VerifyNotAllowed
from django_otp.oath import TOTP
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnCredential

from accounts.models import User
from core.errors import Conflict, InvalidInput, PermissionDenied

RECOVERY_CODE_COUNT = 10
AUTHENTICATOR_NAME = "Authenticator app"
RECOVERY_CODES_NAME = "Recovery codes"

# The 403 of the admin API and of every other staff-only answer to a session without the step.
SECOND_FACTOR_REQUIRED = gettext_lazy(
    "Please confirm it's you with your second step (your passkey or a code from your authenticator app) "
    "at /second-factor, then try again."
)
STAFF_TOKEN_REFUSED = gettext_lazy(
    "Staff accounts sign in through the browser, with their second step. A sign-in token alone is not "
    "accepted for a staff account."
)
STAFF_ONLY = gettext_lazy("The second step is for Kindly staff accounts.")
WRONG_CODE = gettext_lazy("That code did not work. Check the code and try again.")
WRONG_RECOVERY_CODE = gettext_lazy("That recovery code did not work. Each code works once; try another one.")
ALREADY_SET_UP = gettext_lazy("Your second step is already set up. Confirm it's you with it instead.")


def second_factor_passed(user) -> bool:
    """This request's session passed the second step: django-otp's own test (user.is_verified() is
    `user.otp_device is not None`; OTPMiddleware sets the device from the session, and
    django_otp.login() when a factor was just used). A user the middleware did not see (an API
    token's) has not."""
    return getattr(user, "otp_device", None) is not None


def session_passed_second_factor(user, session) -> bool:
    """A session (a websocket's scope["session"], which no OTPMiddleware saw) records a confirmed
    factor of this user's, as django_otp.login() writes it: the same test OTPMiddleware makes."""
    from django_otp import DEVICE_ID_SESSION_KEY

    persistent_id = session.get(DEVICE_ID_SESSION_KEY) if session is not None else None
    return bool(persistent_id) and device_of(user=user, persistent_id=persistent_id) is not None


def socket_needs_second_factor(user, session) -> bool:
    """needs_second_factor() for a websocket: a staff member whose session has not passed the step."""
    return bool(
        user is not None and user.is_authenticated and user.is_admin and not session_passed_second_factor(user, session)
    )


def needs_second_factor(user) -> bool:
    """A signed-in staff member whose session has not passed the second step: staff rights are
    held back until it has."""
    return bool(user is not None and user.is_authenticated and user.is_admin and not second_factor_passed(user))


@dataclass(frozen=True)
class SecondFactors:
    """The confirmed factors of one person."""

    passkeys: int
    authenticator: bool
    recovery_codes_left: int

    @property
    def set_up(self) -> bool:
        """A passkey or an authenticator app (recovery codes come with one of them)."""
        return self.passkeys > 0 or self.authenticator


def second_factors_of(*, user: User) -> SecondFactors:
    return SecondFactors(
        passkeys=WebAuthnCredential.objects.filter(user=user, confirmed=True).count(),
        authenticator=TOTPDevice.objects.filter(user=user, confirmed=True).exists(),
        recovery_codes_left=StaticToken.objects.filter(device__user=user, device__confirmed=True).count(),
    )


def second_factor_counts(*, user: User) -> dict[str, int]:
    """How many of each factor a person has (what a reset removes)."""
    return {
        "passkeys": WebAuthnCredential.objects.filter(user=user).count(),
        "authenticators": TOTPDevice.objects.filter(user=user, confirmed=True).count(),
        "recoveryCodes": StaticToken.objects.filter(device__user=user).count(),
    }


def check_staff(user: User) -> None:
    if not user.is_admin:
        raise PermissionDenied(STAFF_ONLY)


def _lock_user(user: User) -> None:
    """Serialise the factor changes of one person (two tabs setting up at once make one factor)."""
    User.objects.select_for_update().only("pk").get(pk=user.pk)


def new_authenticator_key() -> str:
    """A new authenticator-app key (hex, as django-otp stores it): offered, not stored, until a code
    from the app confirms it."""
    return secrets.token_hex(20)


def authenticator_enrol(*, user: User, key: str, token: str) -> tuple[TOTPDevice, list[str]]:
    """Set up the authenticator app whose key was offered: `token` must be its current code.

    Only for staff with no factor yet (someone who has one confirms it's them with it first, so a
    stolen password alone cannot add a factor). Returns the device and the recovery codes made
    with this first factor (shown once)."""
    check_staff(user)
    code = _digits(token)
    if not _totp_matches(key, code):
        raise InvalidInput(WRONG_CODE, errors={"code": [WRONG_CODE]})
    with transaction.atomic():
        _lock_user(user)
        if second_factors_of(user=user).set_up:
            raise Conflict(ALREADY_SET_UP)
        device = TOTPDevice(user=user, name=AUTHENTICATOR_NAME, key=key, confirmed=True)
        # The code just used may not be used again (django-otp keeps the last time step used).
        device.last_t = TOTP(device.bin_key, device.step, device.t0, device.digits).t()
        device.set_last_used_timestamp(commit=False)
        device.save()
        codes = _recovery_codes_replace(user=user)
    return device, codes


def passkey_enrolled(*, user: User) -> list[str]:
    """A passkey was just registered: the recovery codes that come with a first factor, made once
    (an empty list when the person already has some)."""
    with transaction.atomic():
        _lock_user(user)
        if StaticDevice.objects.filter(user=user, confirmed=True).exists():
            return []
        return _recovery_codes_replace(user=user)


def authenticator_verify(*, user: User, token: str) -> TOTPDevice:
    """The second step with a code from the authenticator app. Wrong codes slow the next tries
    down (django-otp's throttling: 1, 2, 4, ... seconds)."""
    check_staff(user)
    code = _digits(token)
    with transaction.atomic():
        device = TOTPDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
        if device is None:
            raise Conflict(gettext("You have no authenticator app set up. Use your passkey or a recovery code."))
        wait = _wait_seconds(device)
        verified = wait is None and code != "" and device.verify_token(code)
    # Raised after the commit: the failure count django-otp just saved must stay saved.
    if wait is not None:
        raise InvalidInput(_too_many(wait), errors={"code": [_too_many(wait)]})
    if not verified:
        raise InvalidInput(WRONG_CODE, errors={"code": [WRONG_CODE]})
    return device


def recovery_code_use(*, user: User, code: str) -> StaticDevice:
    """The second step with a recovery code: it works once, and is gone after."""
    check_staff(user)
    token = "".join(ch for ch in code.lower() if ch.isalnum())
    with transaction.atomic():
        device = StaticDevice.objects.select_for_update().filter(user=user, confirmed=True).first()
        if device is None:
            raise Conflict(gettext("You have no recovery codes. Use your passkey or authenticator app."))
        wait = _wait_seconds(device)
        verified = wait is None and token != "" and device.verify_token(token)
    if wait is not None:
        raise InvalidInput(_too_many(wait), errors={"code": [_too_many(wait)]})
    if not verified:
        raise InvalidInput(WRONG_RECOVERY_CODE, errors={"code": [WRONG_RECOVERY_CODE]})
    return device


def second_factor_reset(*, user: User) -> dict[str, int]:
    """Remove every factor of a person (a lost phone and passkey): the next sign-in sets one up
    again, and a session that passed the step with a removed factor no longer counts as passed
    (OTPMiddleware finds its device gone). Returns how many of each were removed. The caller
    records who asked for it (adminpanel.services.admin_second_factor_reset)."""
    with transaction.atomic():
        _lock_user(user)
        removed = second_factor_counts(user=user)
        WebAuthnCredential.objects.filter(user=user).delete()
        TOTPDevice.objects.filter(user=user).delete()
        StaticDevice.objects.filter(user=user).delete()
    return removed


def device_of(*, user: User, persistent_id: str) -> Device | None:
    device = Device.from_persistent_id(persistent_id)
    return device if device is not None and device.user_id == user.pk and device.confirmed else None


def _recovery_codes_replace(*, user: User) -> list[str]:
    """New recovery codes for a person (any old ones stop working). Caller holds the user's lock."""
    StaticDevice.objects.filter(user=user).delete()
    device = StaticDevice.objects.create(user=user, name=RECOVERY_CODES_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODE_COUNT)]
    StaticToken.objects.bulk_create(StaticToken(device=device, token=code) for code in codes)
    return codes


def _digits(token: str) -> str:
    """A code as typed: spaces and dashes dropped ("123 456"); anything else makes it no code."""
    code = "".join(ch for ch in (token or "") if ch not in " -")
    return code if code.isdigit() and len(code) == 6 else ""


def _totp_matches(key_hex: str, code: str) -> bool:
    if not code:
        return False
    device = TOTPDevice(key=key_hex)
    totp = TOTP(device.bin_key, device.step, device.t0, device.digits)
    return totp.verify(int(code), tolerance=device.tolerance)


def _wait_seconds(device: Device) -> int | None:
    """Seconds until django-otp's throttling lets this device be tried again (None: now)."""
    allowed, data = device.verify_is_allowed()
    if allowed:
        return None
    if data and data.get("reason") == VerifyNotAllowed.N_FAILED_ATTEMPTS and data.get("locked_until"):
        return max(1, int((data["locked_until"] - timezone.now()).total_seconds() + 0.999))
    return 1


def _too_many(wait: int) -> str:
    return ngettext(
        "Too many wrong codes. Please wait %(wait)s second and try again.",
        "Too many wrong codes. Please wait %(wait)s seconds and try again.",
        wait,
    ) % {"wait": wait}
