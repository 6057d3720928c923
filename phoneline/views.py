"""Twilio's webhooks for the Kindly numbers of masked calls and texts (Voice and Messaging URLs of
each pool number). Every one checks Twilio's signature (X-Twilio-Signature, the SDK's
RequestValidator) and answers TwiML; an unsigned or forged one is 403 and changes nothing."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from twilio.request_validator import RequestValidator
from twilio.twiml.messaging_response import MessagingResponse
from twilio.twiml.voice_response import VoiceResponse

from core.notices import phone as words
from phoneline import services

# How a Kindly line speaks: slowly, in a clear voice, in the language active for the call (the
# phone menu and reminders: the language of the person cared for). Amazon Polly voices through
# Twilio; `language` is also what <Gather> listens for.
VOICES = {
    "en": {"voice": "Polly.Joanna", "language": "en-US"},
    "es": {"voice": "Polly.Lupe", "language": "es-US"},
}


def spoken_voice() -> dict[str, str]:
    """The voice (and its language) for the active language."""
    return VOICES.get((translation.get_language() or "")[:2], VOICES["en"])


def twilio_signed(view: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Only what Twilio signed with our auth token reaches `view` (403 otherwise, nothing done)."""

    @csrf_exempt  # Twilio signs the request instead; there is no session
    @require_POST
    def checked(request: HttpRequest) -> HttpResponse:
        token = settings.TWILIO_AUTH_TOKEN
        signature = request.headers.get("X-Twilio-Signature", "")
        if not token or not RequestValidator(token).validate(
            request.build_absolute_uri(), request.POST.dict(), signature
        ):
            return JsonResponse({"message": gettext("Invalid signature."), "errors": {}}, status=403)
        return view(request)

    checked.__name__ = view.__name__
    checked.__doc__ = view.__doc__
    return checked


def _twiml(response: VoiceResponse | MessagingResponse) -> HttpResponse:
    return HttpResponse(str(response), content_type="text/xml")


@twilio_signed
def voice(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/twilio/voice: a call to a Kindly line. The caller is joined to the other side
    with the Kindly number as caller ID (<Dial>); from a number the line does not join, a short
    goodbye."""
    post = request.POST
    connect = services.call_arrived(
        number=post.get("To", ""), caller=post.get("From", ""), call_sid=post.get("CallSid", "")
    )
    response = VoiceResponse()
    if connect.to is None:
        response.say(str(words.SPOKEN_NOT_LINKED), **spoken_voice())
        response.hangup()
        return _twiml(response)
    response.say(str(words.SPOKEN_CONNECTING), **spoken_voice())
    dial = response.dial(caller_id=post.get("To", ""), action=reverse("phoneline-voice-done"), timeout=30)
    dial.number(connect.to)
    return _twiml(response)


@twilio_signed
def voice_done(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/twilio/voice/done: the bridged call ended (<Dial action>): its length."""
    post = request.POST
    seconds = post.get("DialCallDuration", "")
    services.call_ended(
        call_sid=post.get("CallSid", ""),
        outcome=post.get("DialCallStatus", ""),
        seconds=int(seconds) if seconds.isdigit() else None,
    )
    response = VoiceResponse()
    response.hangup()
    return _twiml(response)


@twilio_signed
def text(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/twilio/text: a text to a Kindly line, passed on to the other side from the
    same Kindly number (<Message to from>); its words are never kept. A replay is not sent twice."""
    post = request.POST
    number = post.get("To", "")
    connect = services.text_arrived(number=number, caller=post.get("From", ""), message_sid=post.get("MessageSid", ""))
    response = MessagingResponse()
    if connect.to is None:
        response.message(str(words.TEXT_NOT_LINKED))
    elif not connect.replay:
        response.message(post.get("Body", ""), to=connect.to, from_=number)
    return _twiml(response)
