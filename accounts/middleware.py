"""The gate of the staff second step (accounts.second_factor).

A staff member signed in with Firebase whose session has not passed the second step reaches the
step itself, signing in and out, and the public files; every other page sends them to the step
(coming back afterwards), every other API answers 403 saying so. Staff rights reach far beyond
/admin (every booking, request and payment; support conversations), so the gate stands in front
of all of them rather than at each staff page. Everyone else passes untouched.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.utils import translation
from django.utils.deprecation import MiddlewareMixin

from accounts.second_factor import SECOND_FACTOR_REQUIRED, needs_second_factor

SECOND_FACTOR_PATH = "/second-factor"

# What a staff member may reach before the step: the step (its pages and passkey calls), the
# sign-in and sign-out, static files and the public texts and health checks.
OPEN_BEFORE_THE_STEP = (
    SECOND_FACTOR_PATH,
    "/login",
    "/api/login",
    "/api/auth/",
    "/static/",
    "/favicon.ico",
    "/healthz",
    "/readyz",
    "/privacy-policy",
    "/terms-of-service.html",
)


def second_factor_redirect(request: HttpRequest) -> HttpResponseRedirect:
    """To the step, coming back to the current path (with its query) afterwards."""
    return HttpResponseRedirect(f"{SECOND_FACTOR_PATH}?" + urlencode({"next": request.get_full_path()}))


def second_factor_required_response(request: HttpRequest) -> HttpResponse:
    """The API's 403 (its error shape), or the page's redirect to the step."""
    if request.path.startswith("/api/"):
        return JsonResponse({"message": SECOND_FACTOR_REQUIRED, "errors": {}}, status=403)
    return second_factor_redirect(request)


class StaffSecondFactorMiddleware(MiddlewareMixin):
    """After django-otp's OTPMiddleware (request.user.is_verified())."""

    def process_request(self, request: HttpRequest) -> HttpResponse | None:
        if request.path.startswith(OPEN_BEFORE_THE_STEP):
            return None
        if needs_second_factor(request.user):
            return second_factor_required_response(request)
        return None


class UserLanguageMiddleware(MiddlewareMixin):
    """A signed-in person reads Kindly in the language they chose (User.language), whatever their
    browser says; others get Django's LocaleMiddleware's pick (the cookie, then Accept-Language).
    After AuthenticationMiddleware; LocaleMiddleware's response step then names the language
    (Content-Language) and varies the response on Accept-Language."""

    def process_request(self, request: HttpRequest) -> None:
        user = getattr(request, "user", None)
        language = getattr(user, "language", "") if user is not None and user.is_authenticated else ""
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
