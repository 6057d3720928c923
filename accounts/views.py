"""Account pages: /login (the Firebase sign-in island). /settings: marketplace.account_lifecycle.views."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.utils import translation
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from accounts import services
from accounts.guards import login_required_page, queue_toast
from core.errors import InvalidInput
from core.languages import Language, site_language


def safe_next(request: HttpRequest) -> str:
    """The ?next= path when it stays on this site, else "/"."""
    target = request.GET.get("next", "")
    if (
        target.startswith("/")
        and not target.startswith("//")
        and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=False)
    ):
        return target
    return "/"


def firebase_web_config() -> dict[str, str]:
    """The Firebase web config the browser needs (public values), with the emulator host if any."""
    return {
        "apiKey": settings.FIREBASE_API_KEY,
        "authDomain": settings.FIREBASE_AUTH_DOMAIN,
        "projectId": settings.FIREBASE_PROJECT_ID,
        "appId": settings.FIREBASE_APP_ID,
        "emulatorHost": settings.FIREBASE_AUTH_EMULATOR_HOST,
    }


def _prefill_email(request: HttpRequest) -> str:
    """?email= fills in the card's email (a circle invitation's join link passes the invited one);
    anything that is not an email address is dropped."""
    email = request.GET.get("email", "").strip()
    try:
        validate_email(email)
    except ValidationError:
        return ""
    return email if len(email) <= 254 else ""


def login_page(request: HttpRequest) -> HttpResponse:
    """Sign in / sign up. A signed-in user is sent to /.

    ?mode=signup opens the sign-up card; ?next= (a path on this site) is where success lands,
    so "Become a Provider" leads through sign-up to /provider-signup; ?email= fills in the email.
    """
    if request.user.is_authenticated:
        return HttpResponseRedirect("/")
    props = {
        "firebase": firebase_web_config(),
        "next": safe_next(request),
        "mode": "sign-up" if request.GET.get("mode") == "signup" else "sign-in",
        "email": _prefill_email(request),
        "productName": "Kindly",
        # The sign-up card's language choice starts at the browser's (LocaleMiddleware's pick).
        "language": site_language(translation.get_language()),
        "languages": [{"value": value, "label": label} for value, label in Language.choices],
    }
    response = render(request, "pages/login.html", {"login_props": props})
    # The Google popup (another origin) reports back through window.opener, which Django's
    # default COOP "same-origin" would cut; SecurityMiddleware keeps a header a view has set.
    response["Cross-Origin-Opener-Policy"] = "same-origin-allow-popups"
    return response


@require_POST
@login_required_page
def language_set(request: HttpRequest) -> HttpResponse:
    """POST /settings/language (the form on /settings, no script needed): the language Kindly speaks
    to the person in; back to /settings, which says so in the new language. The language cookie is
    set too, so the sign-in page after a sign-out stays in it."""
    try:
        user = services.user_language_set(user=request.user, language=request.POST.get("language", ""))
    except InvalidInput as error:
        queue_toast(request, title=error.message, variant="destructive")
        return HttpResponseRedirect("/settings#language")
    translation.activate(user.language)
    queue_toast(request, title=gettext("Language saved"), description=gettext("Kindly now speaks to you in English."))
    response = HttpResponseRedirect("/settings#language")
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        user.language,
        max_age=365 * 24 * 60 * 60,
        samesite="Lax",
        secure=request.is_secure(),
    )
    return response
