"""The one-click unsubscribe page (/unsubscribe/<token>, no sign-in needed), and Twilio's inbound texts.

GET shows what the link does with one button (link checkers in mail systems only GET); POST
turns that kind of email off. Mail apps POST "List-Unsubscribe=One-Click" here by themselves
(RFC 8058), without a CSRF token: the signed token is the only credential needed.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST
from twilio.request_validator import RequestValidator

from accounts.models import User
from core.errors import PermissionDenied
from notifications import services
from notifications.kinds import Kind
from notifications.tokens import BadToken, read_unsubscribe_token


def _page(request: HttpRequest, *, status: int = 200, **context) -> HttpResponse:
    response = render(request, "notifications/unsubscribe.html", context, status=status)
    response["Cache-Control"] = "no-store"
    response["Referrer-Policy"] = "no-referrer"
    return response


@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    actor = request.user if request.user.is_authenticated else None
    try:
        if request.method == "POST":
            _user, kind = services.unsubscribe(token=token, actor=actor)
            return _page(request, done=True, kind_label=Kind(kind).label)
        user_id, kind = read_unsubscribe_token(token)
        if kind not in Kind.values or not User.objects.filter(pk=user_id).exists():
            raise BadToken("This unsubscribe link is not valid.")
        if actor is not None and actor.pk != user_id:
            raise PermissionDenied(
                gettext(
                    "This unsubscribe link was sent to another Kindly account. Sign out to use it, or change your "
                    "own choices in Settings."
                )
            )
        return _page(request, kind_label=Kind(kind).label)
    except BadToken as error:
        return _page(request, status=400, error=str(error))
    except PermissionDenied as error:
        return _page(request, status=403, error=error.message)


# Twilio's opt-out keywords (Advanced Opt-Out defaults) and the ones that opt back in.
STOP_WORDS = {"STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT", "REVOKE", "OPTOUT"}
START_WORDS = {"START", "UNSTOP", "YES", "OPTIN"}


@csrf_exempt  # Twilio signs the request (X-Twilio-Signature) instead; there is no session
@require_POST
def twilio_inbound(request: HttpRequest) -> HttpResponse:
    """POST /api/notifications/twilio/inbound: a text to our number. STOP (and the other opt-out
    words) means that number gets no more texts; START lets it have them again. Twilio itself also
    refuses to send to an opted-out number (error 21610, handled when sending)."""
    signature = request.headers.get("X-Twilio-Signature", "")
    validator = RequestValidator(settings.TWILIO_AUTH_TOKEN)
    if not settings.TWILIO_AUTH_TOKEN or not validator.validate(
        request.build_absolute_uri(), request.POST.dict(), signature
    ):
        return JsonResponse({"message": gettext("Invalid signature."), "errors": {}}, status=403)
    word = request.POST.get("Body", "").strip().upper()
    number = request.POST.get("From", "")
    if word in STOP_WORDS or word in START_WORDS:
        services.sms_opt_out(phone=number, stop=word in STOP_WORDS)
    return HttpResponse("<Response/>", content_type="text/xml")
