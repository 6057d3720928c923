"""Twilio's webhooks for Kindly's phone menu (the Voice URL of TWILIO_FROM_NUMBER): a care
recipient calls, is known by caller ID and her PIN, and hears her visits, confirms or cancels one,
asks for the same helper next week, or leaves a message for staff. Every webhook is signed
(phoneline.views.twilio_signed: 403 otherwise) and answers TwiML in short plain sentences, said
slowly; 9 repeats the menu and 0 reaches staff from every choice."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import translation
from twilio.twiml.voice_response import Gather, VoiceResponse

from bookings.models import Booking
from bookings.services.base import day_text
from core.notices import phone as words
from phoneline import selectors, services
from phoneline.views import _twiml, spoken_voice, twilio_signed

# Slow speech: Amazon Polly voices through Twilio read SSML's prosody.
SLOW = "85%"
# What a caller may say instead of pressing a key (Twilio's speech recognition, SpeechResult), in
# English or Spanish (the <Gather> listens in the caller's language).
SPOKEN_CHOICES = [
    ("9", r"\b(repeat|menu|again please|say that again|repetir|repita|men[uú]|otra vez por favor)\b"),
    ("0", r"\b(staff|person|operator|message|somebody|someone|human|persona|operadora?|mensaje|alguien)\b"),
    ("1", r"\b(hear|when|next visits?|visits|schedule|escuchar|cu[aá]ndo|pr[oó]ximas visitas|visitas)\b"),
    ("2", r"\b(confirm|confirmed|confirmar|confirmo|confirmada)\b"),
    ("3", r"\b(cancel|cancelled|cancelar|cancelo|cancelada)\b"),
    ("4", r"\b(same helper|next week|again|book|misma ayudante|mismo ayudante|pr[oó]xima semana|otra vez|reservar)\b"),
]


def in_her_language(view: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """The view speaks (and listens) in the language of the person cared for: the menu call's
    (CallSid), the reminder's visit's (?booking=), or her phone's (the caller ID of a new call);
    English for a caller Kindly does not know."""

    @functools.wraps(view)
    def spoken(request: HttpRequest) -> HttpResponse:
        language = selectors.call_language(
            call_sid=request.POST.get("CallSid", ""),
            caller=request.POST.get("From", ""),
            booking_id=request.GET.get("booking", ""),
        )
        with translation.override(language):
            return view(request)

    return spoken


def say(node: VoiceResponse | Gather, text: str) -> None:
    spoken = node.say(**spoken_voice())
    spoken.prosody(str(text), rate=SLOW)


def _url(name: str, **query: object) -> str:
    path = reverse(name)
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


def _gather(response: VoiceResponse, action: str, *, digits: int = 1, speech: bool = True) -> Gather:
    options = (
        {"input": "dtmf speech", "speech_timeout": "auto", "language": spoken_voice()["language"]}
        if speech
        else {"input": "dtmf"}
    )
    return response.gather(
        action=action, method="POST", num_digits=digits, timeout=8, action_on_empty_result=False, **options
    )


def _goodbye(response: VoiceResponse, text: str | None = None) -> HttpResponse:
    say(response, str(text or words.GOODBYE))
    response.hangup()
    return _twiml(response)


def _to_menu(response: VoiceResponse) -> HttpResponse:
    response.redirect(reverse("phone-menu-main"), method="POST")
    return _twiml(response)


def choice_of(post) -> str:
    """The key pressed, or what was said matched to a key ("" when it matches nothing)."""
    digits = (post.get("Digits") or "").strip()
    if digits:
        return digits[:1]
    said = (post.get("SpeechResult") or "").lower()
    for key, pattern in SPOKEN_CHOICES:
        if re.search(pattern, said):
            return key
    return ""


@twilio_signed
@in_her_language
def start(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu: a call comes in. Known by caller ID: asked for the PIN."""
    call, pin = services.menu_call_start(call_sid=request.POST.get("CallSid", ""), caller=request.POST.get("From", ""))
    response = VoiceResponse()
    say(response, words.GREETING)
    if call.recipient_id is None:
        gather = _gather(response, reverse("phone-menu-choice"))
        say(gather, words.UNKNOWN_CALLER)
        return _goodbye(response)
    if pin is None:
        return _goodbye(response, words.NO_PIN_YET)
    if pin.locked_at is not None:
        return _goodbye(response, words.PIN_LOCKED)
    if call.verified_at is not None:
        return _to_menu(response)
    gather = _gather(response, reverse("phone-menu-pin"), digits=4, speech=False)
    say(gather, words.ASK_PIN)
    return _goodbye(response)


@twilio_signed
@in_her_language
def pin(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/pin: the PIN typed. Three wrong ones lock it (the organizers are told)."""
    outcome = services.menu_pin_check(call_sid=request.POST.get("CallSid", ""), digits=request.POST.get("Digits", ""))
    response = VoiceResponse()
    if outcome == "ok":
        return _to_menu(response)
    if outcome == "wrong":
        say(response, words.WRONG_PIN)
        gather = _gather(response, reverse("phone-menu-pin"), digits=4, speech=False)
        say(gather, words.ASK_PIN)
        return _goodbye(response)
    return _goodbye(response, words.PIN_LOCKED if outcome == "locked" else words.GOODBYE)


@twilio_signed
@in_her_language
def main(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/main: the menu, for a caller whose PIN was right."""
    response = VoiceResponse()
    if services.menu_caller(request.POST.get("CallSid", "")) is None:
        return _goodbye(response)
    gather = _gather(response, reverse("phone-menu-choice"))
    say(gather, words.MENU)
    return _goodbye(response)


def _leave_message(response: VoiceResponse) -> HttpResponse:
    say(response, words.LEAVE_MESSAGE)
    response.record(
        action=reverse("phone-menu-recorded"),
        method="POST",
        max_length=120,
        finish_on_key="#",
        play_beep=True,
        transcribe=True,
        transcribe_callback=reverse("phone-menu-transcribed"),
    )
    return _goodbye(response, words.MESSAGE_SAVED)


@twilio_signed
@in_her_language
def choice(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/choice: a key pressed or a word said on the menu."""
    key = choice_of(request.POST)
    response = VoiceResponse()
    if key == "0":
        return _leave_message(response)
    call = services.menu_caller(request.POST.get("CallSid", ""))
    if call is None:
        return _goodbye(response)
    if key == "9":
        return _to_menu(response)
    if key == "1":
        visits = selectors.next_visits(recipient_id=call.recipient_id)
        say(response, " ".join(f"{services.spoken_visit(v)}." for v in visits) if visits else words.NO_VISITS)
        return _to_menu(response)
    if key in ("2", "3"):
        visits = selectors.next_visits(recipient_id=call.recipient_id, limit=1)
        if not visits:
            say(response, words.NO_VISITS)
            return _to_menu(response)
        visit = visits[0]
        spoken = services.spoken_visit(visit)
        if key == "3" and not services.still_cancellable(visit.starts_at, services.timezone.now()):
            gather = _gather(response, reverse("phone-menu-choice"))
            say(gather, words.CANCEL_TOO_LATE.format(visit=spoken))
            return _to_menu(response)
        name = "phone-menu-confirm" if key == "2" else "phone-menu-cancel"
        gather = _gather(response, _url(name, booking=visit.pk))
        say(gather, (words.CONFIRM_ASK if key == "2" else words.CANCEL_ASK).format(visit=spoken))
        return _to_menu(response)
    if key == "4":
        last = selectors.last_visit(recipient_id=call.recipient_id)
        if last is None:
            say(response, words.AGAIN_NONE)
            return _to_menu(response)
        gather = _gather(response, _url("phone-menu-again", booking=last.pk))
        say(
            gather,
            words.AGAIN_ASK.format(
                helper=last.provider.user.first_name,
                day=day_text(selectors.same_day_next_week(last)),
                window=services.spoken_window(last.scheduled_time),
            ),
        )
        return _to_menu(response)
    say(response, words.NOT_UNDERSTOOD)
    return _to_menu(response)


def _step(request: HttpRequest):
    """The caller and the visit of a "press 1 to ..." step, or None (then back to the menu)."""
    call = services.menu_caller(request.POST.get("CallSid", ""))
    booking_id = request.GET.get("booking", "")
    if call is None or not booking_id.isdigit():
        return None, None
    booking = Booking.objects.filter(pk=int(booking_id), recipient_id=call.recipient_id).first()
    return (call, booking) if booking else (None, None)


@twilio_signed
@in_her_language
def confirm(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/confirm?booking=: 1 confirms the visit (told to the helper and circle)."""
    response = VoiceResponse()
    call, booking = _step(request)
    if call is None:
        return _goodbye(response)
    key = choice_of(request.POST)
    if key == "0":
        return _leave_message(response)
    if key != "1":
        return _to_menu(response)
    services.menu_confirm(call=call, booking_id=booking.pk)
    say(response, words.CONFIRMED.format(helper=booking.provider.user.first_name))
    return _to_menu(response)


@twilio_signed
@in_her_language
def cancel(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/cancel?booking=: 1 cancels the visit (the 48-hour rule said plainly)."""
    response = VoiceResponse()
    call, booking = _step(request)
    if call is None:
        return _goodbye(response)
    key = choice_of(request.POST)
    if key == "0":
        return _leave_message(response)
    if key != "1":
        return _to_menu(response)
    outcome = services.menu_cancel(call=call, booking_id=booking.pk)
    if outcome == "cancelled":
        say(
            response,
            words.CANCELLED.format(day=day_text(booking.scheduled_date), helper=booking.provider.user.first_name),
        )
    elif outcome == "too_late":
        say(response, words.CANCEL_TOO_LATE.format(visit=services.spoken_visit(booking)))
    else:
        say(response, words.CANCEL_NOT_ALLOWED)
    return _to_menu(response)


@twilio_signed
@in_her_language
def again(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/again?booking=: 1 asks that visit's helper for the same time next week."""
    response = VoiceResponse()
    call, booking = _step(request)
    if call is None:
        return _goodbye(response)
    key = choice_of(request.POST)
    if key == "0":
        return _leave_message(response)
    if key != "1":
        return _to_menu(response)
    try:
        asked = services.menu_ask_again(call=call, booking_id=booking.pk)
    except services.DomainError:
        say(response, words.AGAIN_FAILED)
        return _to_menu(response)
    helper = booking.provider.user.first_name
    say(response, words.AGAIN_SENT.format(helper=helper, day=day_text(asked.preferred_date)))
    return _to_menu(response)


@twilio_signed
@in_her_language
def recorded(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/recorded: the message for staff was recorded (<Record action>)."""
    seconds = request.POST.get("RecordingDuration", "0")
    services.voicemail_saved(
        call_sid=request.POST.get("CallSid", ""),
        recording_url=request.POST.get("RecordingUrl", ""),
        seconds=int(seconds) if seconds.isdigit() else 0,
    )
    return _goodbye(VoiceResponse(), words.MESSAGE_SAVED)


@twilio_signed
@in_her_language
def transcribed(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/menu/transcribed: Twilio's transcription of a message for staff."""
    if request.POST.get("TranscriptionStatus", "completed") == "completed":
        services.voicemail_transcribed(
            call_sid=request.POST.get("CallSid", ""), text=request.POST.get("TranscriptionText", "")
        )
    return _twiml(VoiceResponse())


# ---------------------------------------------------------------- reminder calls (Kindly calls her)


def _reminder(request: HttpRequest):
    booking_id = request.GET.get("booking", "")
    if not booking_id.isdigit():
        return None
    return services.reminder_of_call(booking_id=int(booking_id), call_sid=request.POST.get("CallSid", ""))


@twilio_signed
@in_her_language
def reminder(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/reminder?booking=: she picked up Kindly's reminder call."""
    response = VoiceResponse()
    found = _reminder(request)
    if found is None:
        return _goodbye(response)
    booking = found.booking
    gather = _gather(response, _url("phone-reminder-answer", booking=booking.pk))
    say(gather, words.REMINDER_CALL.format(name=booking.recipient.first_name, visit=services.spoken_visit(booking)))
    return _goodbye(response)


@twilio_signed
@in_her_language
def reminder_answer(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/reminder/answer?booking=: 1 confirms the visit, 2 talks to Kindly."""
    from django.conf import settings

    response = VoiceResponse()
    found = _reminder(request)
    key = choice_of(request.POST)
    if found is None or key not in ("1", "2"):
        return _goodbye(response)
    services.reminder_answered(reminder=found, key=key)
    if key == "1":
        return _goodbye(response, words.CONFIRMED.format(helper=found.booking.provider.user.first_name))
    support = services.selectors.e164_or_empty(settings.SUPPORT_PHONE)
    if support:
        say(response, words.SPOKEN_CONNECTING)
        response.dial(caller_id=settings.TWILIO_FROM_NUMBER).number(support)
        return _twiml(response)
    return _leave_message(response)


@twilio_signed
@in_her_language
def reminder_status(request: HttpRequest) -> HttpResponse:
    """POST /api/phone/reminder/status?booking=: how the reminder call ended (Twilio's statusCallback)."""
    found = _reminder(request)
    if found is not None:
        services.reminder_call_ended(reminder=found, status=request.POST.get("CallStatus", ""))
    return _twiml(VoiceResponse())
