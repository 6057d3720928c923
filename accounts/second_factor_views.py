"""The staff second step's pages (/second-factor) and its passkey calls.

Server-rendered forms for the authenticator-app code and the recovery codes; the passkey buttons
are the small second-factor island, over django-otp-webauthn's JSON ceremony views (subclassed
here: staff only, Kindly's error shape and words). Rules and writes: accounts.second_factor.
"""

from __future__ import annotations

from base64 import b32encode
from binascii import unhexlify
from urllib.parse import urlencode

import segno
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST
from django_otp import login as otp_login
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn import exceptions as webauthn_errors
from django_otp_webauthn.views import (
    BeginCredentialAuthenticationView,
    BeginCredentialRegistrationView,
    CompleteCredentialAuthenticationView,
    CompleteCredentialRegistrationView,
)

from accounts import second_factor
from accounts.guards import login_required_page
from accounts.views import safe_next
from core.errors import DomainError

# Where a staff member goes after the step when nothing else was asked for.
DEFAULT_NEXT = "/admin"
# The authenticator key offered while setting up (not stored until a code confirms it), and the
# recovery codes made with the first factor until the page that shows them once has.
OFFERED_KEY = "second_factor_offered_key"
NEW_RECOVERY_CODES = "second_factor_new_recovery_codes"


def _next(request: HttpRequest) -> str:
    target = safe_next(request)
    return DEFAULT_NEXT if target == "/" else target


def _with_next(path: str, target: str) -> str:
    return f"{path}?" + urlencode({"next": target})


def _passed(request: HttpRequest, device) -> None:
    """The session passed the step with `device`: a new session key for the higher rights."""
    request.session.cycle_key()
    otp_login(request, device)


def _staff_only(view):
    """Signed out -> /login; not staff -> / (the step is for staff only); passed -> where they were going."""

    @login_required_page
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if not request.user.is_admin:
            return HttpResponseRedirect("/")
        return view(request, *args, **kwargs)

    wrapped.__name__ = view.__name__
    wrapped.__doc__ = view.__doc__
    return wrapped


def _grouped(text: str, size: int = 4) -> str:
    return " ".join(text[i : i + size] for i in range(0, len(text), size))


def _authenticator_offer(request: HttpRequest) -> dict[str, str]:
    """The key offered for an authenticator app (kept in the session until confirmed), its QR
    code and the key as people type it."""
    key = request.session.get(OFFERED_KEY)
    if not key:
        key = request.session[OFFERED_KEY] = second_factor.new_authenticator_key()
    secret = b32encode(unhexlify(key)).decode()
    url = TOTPDevice(user=request.user, key=key).config_url  # otpauth://totp/Kindly:<email>?secret=...
    qr = segno.make(url, error="m")
    svg = qr.svg_inline(scale=5, border=2, dark="#111", light="#fff", svgclass="qr-code", omitsize=False)
    return {
        "secret": _grouped(secret),
        # Built by segno from the key alone: no user input reaches the markup.
        "qr_svg": mark_safe(svg),  # noqa: S308
        "otpauth_url": url,
    }


def _page(request: HttpRequest, *, status: int = 200, error_form: str = "", error: str = "") -> HttpResponse:
    user = request.user
    target = _next(request)
    factors = second_factor.second_factors_of(user=user)
    context = {
        "next": target,
        "factors": factors,
        "set_up": not factors.set_up,
        "error_form": error_form,
        "error": error,
    }
    if factors.set_up:
        passkey_props = {
            "mode": "verify",
            "beginUrl": reverse("second-factor-passkey-verify-begin"),
            "completeUrl": reverse("second-factor-passkey-verify-complete"),
            "doneUrl": target,
        }
    else:
        context["offer"] = _authenticator_offer(request)
        passkey_props = {
            "mode": "register",
            "beginUrl": reverse("second-factor-passkey-register-begin"),
            "completeUrl": reverse("second-factor-passkey-register-complete"),
            "doneUrl": _with_next(reverse("second-factor-recovery-codes"), target),
        }
    context["passkey_props"] = passkey_props
    return render(request, "pages/second-factor.html", context, status=status)


@never_cache
@_staff_only
def second_factor_page(request: HttpRequest) -> HttpResponse:
    """GET /second-factor?next=: confirm it's you (passkey, authenticator code or recovery code),
    or, with no factor yet, set one up."""
    if second_factor.second_factor_passed(request.user):
        return HttpResponseRedirect(_next(request))
    return _page(request)


@never_cache
@require_POST
@_staff_only
def authenticator_code(request: HttpRequest) -> HttpResponse:
    """POST /second-factor/authenticator {code}: set up the offered authenticator app with its first
    code, or confirm it's you with the app's code. A wrong code changes nothing (400, the page again)."""
    user = request.user
    target = _next(request)
    if second_factor.second_factor_passed(user):
        return HttpResponseRedirect(target)
    code = request.POST.get("code", "")
    try:
        if second_factor.second_factors_of(user=user).set_up:
            device = second_factor.authenticator_verify(user=user, token=code)
            codes: list[str] = []
        else:
            key = request.session.get(OFFERED_KEY, "")
            if not key:
                return HttpResponseRedirect(_with_next(reverse("second-factor"), target))
            device, codes = second_factor.authenticator_enrol(user=user, key=key, token=code)
    except DomainError as exc:
        return _page(request, status=exc.status_code, error_form="authenticator", error=exc.message)
    _passed(request, device)
    request.session.pop(OFFERED_KEY, None)
    if codes:
        request.session[NEW_RECOVERY_CODES] = codes
        return HttpResponseRedirect(_with_next(reverse("second-factor-recovery-codes"), target))
    return HttpResponseRedirect(target)


@never_cache
@require_POST
@_staff_only
def recovery_code(request: HttpRequest) -> HttpResponse:
    """POST /second-factor/recovery-code {code}: confirm it's you with one of the recovery codes (it
    is used up)."""
    user = request.user
    target = _next(request)
    if second_factor.second_factor_passed(user):
        return HttpResponseRedirect(target)
    try:
        device = second_factor.recovery_code_use(user=user, code=request.POST.get("code", ""))
    except DomainError as exc:
        return _page(request, status=exc.status_code, error_form="recovery", error=exc.message)
    _passed(request, device)
    return HttpResponseRedirect(target)


@never_cache
@_staff_only
def recovery_codes_page(request: HttpRequest) -> HttpResponse:
    """GET /second-factor/recovery-codes?next=: the recovery codes made with the first factor, shown
    this once (they leave the session as the page is rendered); otherwise on to next."""
    target = _next(request)
    codes = request.session.pop(NEW_RECOVERY_CODES, None)
    if not codes or not second_factor.second_factor_passed(request.user):
        return HttpResponseRedirect(target)
    shown = [f"{code[:4]}-{code[4:]}" for code in codes]
    return render(request, "pages/second-factor-recovery-codes.html", {"codes": shown, "next": target})


# Passkeys: django-otp-webauthn's ceremony views, for staff, answering in Kindly's error shape.

PASSKEY_WORDS = {
    "not_authenticated": gettext_lazy("Please sign in again."),
    "user_not_verified": gettext_lazy("Confirm it's you with your second step before adding a passkey."),
    "invalid_state": gettext_lazy("That took too long or was interrupted. Please try again."),
    "credential_not_found": gettext_lazy(
        "Kindly does not know this passkey. Try another passkey, or use your authenticator app."
    ),
    "credential_user_mismatch": gettext_lazy("This passkey belongs to another account. Try another passkey."),
    "credential_disabled": gettext_lazy(
        "This passkey can no longer be used. Use your authenticator app or a recovery code."
    ),
    "user_disabled": gettext_lazy("This account can no longer sign in."),
    "passwordless_login_disabled": gettext_lazy("Please sign in first."),
}
PASSKEY_FAILED = gettext_lazy("Your passkey could not be checked. Please try again.")


class StaffOnly(webauthn_errors.OTPWebAuthnApiError):
    status_code = 403
    default_detail = second_factor.STAFF_ONLY
    default_code = "staff_only"


class _KindlyPasskeyView:
    """Errors as {"message", "errors"} in Kindly's words, like every other API; staff only."""

    def handle_exception(self, exc):
        if isinstance(exc, webauthn_errors.OTPWebAuthnApiError):
            message = PASSKEY_WORDS.get(exc.code) or (str(exc) if exc.status_code < 422 else PASSKEY_FAILED)
            return JsonResponse({"message": message, "errors": {}}, status=exc.status_code)
        return super().handle_exception(exc)

    def get_user(self):
        user = self.request.user
        if not user.is_authenticated:
            return None
        if not user.is_admin:
            raise StaffOnly()
        return user


class PasskeyRegisterBegin(_KindlyPasskeyView, BeginCredentialRegistrationView):
    """POST: the options for a new passkey (a staff member with no factor yet, or one who passed the step)."""


class PasskeyRegisterComplete(_KindlyPasskeyView, CompleteCredentialRegistrationView):
    """POST: store the new passkey; the session has passed the step, and a first factor brings the
    recovery codes (shown once, next)."""

    def post(self, *args, **kwargs):
        response = super().post(*args, **kwargs)
        codes = second_factor.passkey_enrolled(user=self.request.user)
        if codes:
            self.request.session[NEW_RECOVERY_CODES] = codes
        self.request.session.cycle_key()
        return response


class PasskeyVerifyBegin(_KindlyPasskeyView, BeginCredentialAuthenticationView):
    """POST: the challenge for the signed-in staff member's passkeys."""

    def check_can_authenticate(self):
        if self.get_user() is None:
            raise webauthn_errors.NotAuthenticated()
        super().check_can_authenticate()


class PasskeyVerifyComplete(_KindlyPasskeyView, CompleteCredentialAuthenticationView):
    """POST: check the passkey's answer; the session has passed the step (a new session key)."""

    def check_can_authenticate(self):
        if self.get_user() is None:
            raise webauthn_errors.NotAuthenticated()
        super().check_can_authenticate()

    def complete_auth(self, device):
        self.request.session.cycle_key()
        super().complete_auth(device)

    def get_success_url(self):
        return _next(self.request)
