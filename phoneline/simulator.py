"""The phone simulator (make run, DEBUG only, staff only): a page that plays Twilio for the phone
menu, so a newcomer can try it without a phone. It posts to the same webhooks, signed with the
auth token as Twilio signs them, carries out their TwiML (a <Gather> waits for the keys pressed on
the page, a <Redirect> is followed, a <Record> is "recorded" from words typed), and keeps the
call in the session."""

from __future__ import annotations

import datetime as dt
import itertools
import secrets
import xml.etree.ElementTree as ElementTree
from dataclasses import dataclass, field

from django.conf import settings
from django.http import HttpRequest
from django.test import RequestFactory
from django.urls import resolve, reverse
from django.utils.translation import gettext_lazy
from twilio.request_validator import RequestValidator

from circles.models import CareRecipient

SESSION_KEY = "phone_simulator"
_factory = RequestFactory()


@dataclass
class Step:
    said: list[str] = field(default_factory=list)
    gather: str = ""
    digits: int = 0
    record: dict[str, str] = field(default_factory=dict)
    ended: bool = False


def _read(xml: bytes) -> tuple[Step, str]:
    """What Twilio does with a TwiML answer: what is said, what waits, where it goes next."""
    root = ElementTree.fromstring(xml)  # noqa: S314 (our own webhooks' answer)
    step, redirect = Step(), ""
    for verb in root:
        if step.gather or step.record:
            break  # what follows a <Gather> or <Record> runs only if the caller does nothing
        if verb.tag == "Say":
            step.said.append("".join(verb.itertext()).strip())
        elif verb.tag == "Gather":
            step.gather, step.digits = verb.get("action", ""), int(verb.get("numDigits", "1") or 1)
            step.said += ["".join(say.itertext()).strip() for say in verb.iter("Say")]
        elif verb.tag == "Record":
            step.record = dict(verb.attrib)
        elif verb.tag == "Redirect":
            redirect = verb.text or ""
            break
        elif verb.tag == "Hangup":
            step.ended = True
    return step, redirect


def post_as_twilio(request: HttpRequest, path: str, params: dict[str, str]) -> bytes:
    """POST `params` to our webhook at `path` exactly as Twilio does (signed with the auth token)."""
    url = request.build_absolute_uri(path)
    signature = RequestValidator(settings.TWILIO_AUTH_TOKEN).compute_signature(url, params)
    inner = _factory.post(
        path,
        params,
        HTTP_HOST=request.get_host(),
        HTTP_X_TWILIO_SIGNATURE=signature,
        secure=request.is_secure(),
    )
    match = resolve(path.split("?", 1)[0])
    response = match.func(inner, *match.args, **match.kwargs)
    return response.content


def run(request: HttpRequest, path: str, extra: dict[str, str]) -> Step:
    """One turn of the call: post, follow redirects, stop where Kindly waits for the caller."""
    call = request.session[SESSION_KEY]
    params = {"AccountSid": settings.TWILIO_ACCOUNT_SID or "AC-simulator", "CallSid": call["sid"], **call["who"]}
    said: list[str] = []
    for _ in itertools.repeat(None, 10):
        step, redirect = _read(post_as_twilio(request, path, {**params, **extra}))
        said += step.said
        if not redirect:
            break
        path, extra = redirect, {}
    step.said = said
    call["heard"] = [*call["heard"], *said][-40:]
    call.update(
        gather=step.gather, digits=step.digits, record=step.record, ended=step.ended or not (step.gather or step.record)
    )
    request.session.modified = True
    return step


def start(request: HttpRequest, *, caller: str) -> Step:
    request.session[SESSION_KEY] = {
        "sid": "CAsim" + secrets.token_hex(14),
        "who": {"From": caller, "To": settings.TWILIO_FROM_NUMBER},
        "heard": [],
    }
    return run(request, "/api/phone/menu", {"CallStatus": "ringing"})


NO_REMINDER = (
    "{name}'s family has not chosen reminder calls: on /care-circle, under \"Reminder the evening "
    'before a visit", choose "A phone call from Kindly", then try again.'
)
NO_ONE = gettext_lazy("Choose whom Kindly calls.")
NO_VISIT = "{name} has no visit coming for Kindly to remind her of."


def ring_reminder(request: HttpRequest, *, recipient: CareRecipient) -> str:
    """Kindly's evening reminder call of her next visit, answered on this page: claimed as beat
    claims it at the start of the evening window before the visit (the simulator's clock), then
    played through the same signed webhooks. Returns why it cannot ring, or ""."""
    from phoneline import selectors, services
    from phoneline.models import ReminderBy

    if selectors.reminder_by(recipient.pk) != ReminderBy.CALL:
        return NO_REMINDER.format(name=recipient.first_name)
    for booking in selectors.next_visits(recipient_id=recipient.pk):
        evening = dt.datetime.combine(
            booking.scheduled_date - dt.timedelta(days=1), selectors.REMINDER_FROM, tzinfo=recipient.zone
        )
        reminder = services.reminder_claim(booking_id=booking.pk, now=evening)
        if reminder is None:
            continue  # reminded already (answered or tried twice)
        sid = "CAsim" + secrets.token_hex(14)
        services.reminder_call_placed(reminder=reminder, call_sid=sid)
        phone = selectors.e164_or_empty(recipient.phone)
        who = {"From": settings.TWILIO_FROM_NUMBER, "To": phone}
        request.session[SESSION_KEY] = {"sid": sid, "who": who, "heard": []}
        run(request, f"{reverse('phone-reminder')}?booking={booking.pk}", {"CallStatus": "in-progress"})
        return ""
    return NO_VISIT.format(name=recipient.first_name)


def press(request: HttpRequest, keys: str) -> Step | None:
    call = request.session.get(SESSION_KEY)
    if not call or not call.get("gather"):
        return None
    return run(request, call["gather"], {"Digits": keys})


def speak(request: HttpRequest, words: str) -> Step | None:
    """Words said to a menu step, or a message left after the tone (its "recording")."""
    call = request.session.get(SESSION_KEY)
    if not call:
        return None
    if call.get("record"):
        record = call["record"]
        recording = {"RecordingUrl": "https://api.twilio.com/simulated-recording", "RecordingDuration": "5"}
        step = run(request, record["action"], recording)
        if record.get("transcribeCallback"):
            post_as_twilio(
                request,
                record["transcribeCallback"],
                {"CallSid": call["sid"], **call["who"], "TranscriptionText": words, "TranscriptionStatus": "completed"},
            )
        return step
    if not call.get("gather"):
        return None
    return run(request, call["gather"], {"SpeechResult": words, "Confidence": "0.9"})
