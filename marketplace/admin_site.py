"""Kindly's Django admin site (/django-admin/), the default site (marketplace.apps.KindlyAdminConfig).

Staff sign in through the Firebase sign-in page (same session) and the second step
(accounts.second_factor): the admin opens to a staff member whose session passed it. The
second-step factors are not shown here: a staff member's authenticator key is theirs alone, and
removing factors goes through manage.py reset_second_factor, which is audited.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import admin
from django.http import HttpRequest, HttpResponseRedirect

from accounts.second_factor import needs_second_factor, second_factor_passed

HOME = "/django-admin/"


class KindlyAdminSite(admin.AdminSite):
    site_header = "Kindly staff admin"
    site_title = "Kindly admin"

    def has_permission(self, request: HttpRequest) -> bool:
        return super().has_permission(request) and second_factor_passed(request.user)

    def login(self, request: HttpRequest, extra_context=None) -> HttpResponseRedirect:
        """No form of its own: the Firebase sign-in page, then the second step, then back here."""
        target = request.GET.get("next") or HOME
        if not target.startswith("/") or target.startswith("//"):
            target = HOME
        user = request.user
        if needs_second_factor(user):
            return HttpResponseRedirect("/second-factor?" + urlencode({"next": target}))
        if user.is_authenticated and user.is_staff:
            return HttpResponseRedirect(target)
        return HttpResponseRedirect("/login?" + urlencode({"next": target}))


def hide_second_factor_models(site: admin.AdminSite) -> None:
    """django-otp and django-otp-webauthn register their devices in the admin; Kindly's does not show them."""
    from django_otp.plugins.otp_static.models import StaticDevice
    from django_otp.plugins.otp_totp.models import TOTPDevice
    from django_otp_webauthn.models import WebAuthnAttestation, WebAuthnCredential

    for model in (TOTPDevice, StaticDevice, WebAuthnCredential, WebAuthnAttestation):
        if site.is_registered(model):
            site.unregister(model)
