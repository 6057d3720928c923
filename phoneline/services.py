"""Masked calls and texts: binding a Kindly number to a booking's pair, and what a call or text to
that number does (connect to the other side, record when, how long and which way; never content).

Who is joined: the booked helper's phone (her provider profile) and one family phone. When the
helper asks, the family phone is the care recipient's own (the person she visits), or the first
organizer's texting number when the recipient has none; when a circle member asks, it is their own
texting number (Settings, Texts). A caller's number leads to one person per Kindly number: a new
pair takes a number on which neither phone is joined yet.
"""

from __future__ import annotations

import datetime as dt
import re
import zlib
from dataclasses import dataclass

from django.contrib.auth.hashers import check_password, make_password
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from bookings.models import Booking
from bookings.selectors import booking_get
from bookings.services import booking_cancel_by_client
from bookings.services.base import day_text
from circles.models import CircleMember, CircleRole
from circles.selectors import is_organizer
from core.addresses import PART_NAMES
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.notices import phone as words
from core.notifications import notify
from notifications.models import Contact
from notifications.services import normalize_phone, text_to_number
from phoneline import selectors
from phoneline.models import (
    ContactKind,
    MenuCall,
    PhoneConfirmation,
    PhoneContact,
    PhoneLink,
    PhonePin,
    PhoneReminderChoice,
    ReminderBy,
    ReminderCall,
    StaffVoicemail,
)
from requests_app.models import ServiceRequest, still_cancellable
from requests_app.services import service_request_create


@dataclass(frozen=True)
class Line:
    """A booking's line as one party sees it: whether it works for them, what to say, the Kindly
    number once bound, whom it reaches, when it stops."""

    available: bool
    message: str
    set_up: bool = True
    confirmed_by_phone: bool = False
    number: str | None = None
    reaches: str = ""
    ends_at: dt.datetime | None = None


@dataclass(frozen=True)
class _Pair:
    helper_phone: str
    family_phone: str
    family_user: User | None
    family_name: str
    reaches: str


class _NoLine(Exception):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _e164(raw: str) -> str:
    try:
        return normalize_phone(raw) if raw else ""
    except InvalidInput:
        return ""


def _texting_number(user_id: object) -> str:
    contact = Contact.objects.filter(user_id=user_id).first()
    return contact.phone if contact and contact.phone else ""


def _family_phone_for_helper(booking: Booking) -> tuple[str, User | None, str]:
    """The family phone the helper's line reaches: the recipient's own, else the first organizer's."""
    recipient = booking.recipient
    own = _e164(recipient.phone)
    if own:
        return own, recipient.account, recipient.first_name
    organizers = CircleMember.objects.filter(recipient_id=recipient.pk, role=CircleRole.ORGANIZER).select_related(
        "user"
    )
    for member in organizers.order_by("created_at", "id"):
        phone = _texting_number(member.user_id)
        if phone:
            return phone, member.user, member.user.first_name
    raise _NoLine(words.FAMILY_HAS_NO_PHONE)


def _pair(user: User, booking: Booking) -> _Pair:
    """The two phones a line of `booking` joins for `user` (a circle member or its helper)."""
    if not selectors.booking_line_open(booking):
        raise _NoLine(words.LINE_ENDED)
    helper_phone = _e164(booking.provider.phone)
    in_circle = getattr(booking, "viewer_role", None) is not None
    if in_circle:
        family_phone = _texting_number(user.pk)
        if not family_phone:
            raise _NoLine(words.ADD_YOUR_PHONE)
        if not helper_phone:
            raise _NoLine(words.HELPER_HAS_NO_PHONE)
        return _Pair(helper_phone, family_phone, user, user.first_name, booking.provider.user.first_name)
    if not helper_phone:
        raise _NoLine(words.HELPER_HAS_NO_PHONE)
    family_phone, family_user, name = _family_phone_for_helper(booking)
    return _Pair(helper_phone, family_phone, family_user, name, name)


def _party_booking(*, user: User, booking_id: int) -> Booking:
    """The booking, for its helper or a member of its recipient's circle: another's is 404
    (bookings.selectors.booking_get), staff who are neither 403."""
    booking = booking_get(user=user, pk=booking_id)
    is_helper = booking.provider.user_id == user.pk
    if getattr(booking, "viewer_role", None) is None and not is_helper:
        raise PermissionDenied(words.STAFF_ARE_NOT_A_PARTY)
    return booking


def _live_link(booking: Booking, pair: _Pair) -> PhoneLink | None:
    link = (
        PhoneLink.objects.filter(booking=booking, family_phone=pair.family_phone, helper_phone=pair.helper_phone)
        .select_related("booking")
        .first()
    )
    return link if link is not None and selectors.link_live(link) else None


def line_state(*, user: User, booking_id: int) -> Line:
    """GET /api/bookings/{id}/phone-line: whether "Call" and "Text" show, and the number once bound."""
    booking = _party_booking(user=user, booking_id=booking_id)
    if not selectors.phone_set_up():
        # No masked lines (make run): a visit confirmed on the phone menu still says so.
        return Line(
            available=False,
            message=words.NOT_SET_UP,
            set_up=False,
            confirmed_by_phone=selectors.confirmed_by_phone(booking.pk),
        )
    try:
        pair = _pair(user, booking)
    except _NoLine as no_line:
        return Line(
            available=False, message=no_line.message, confirmed_by_phone=selectors.confirmed_by_phone(booking.pk)
        )
    link = _live_link(booking, pair)
    return Line(
        confirmed_by_phone=selectors.confirmed_by_phone(booking.pk),
        available=True,
        message=words.line_ready(pair.reaches),
        number=link.number if link else None,
        reaches=pair.reaches,
        ends_at=selectors.link_ends_at(booking),
    )


# One lock for choosing numbers: two pairs sharing a phone never take the same number at once.
_POOL_LOCK = zlib.crc32(b"kindly.phoneline.pool")


def line_bind(*, user: User, booking_id: int) -> Line:
    """POST /api/bookings/{id}/phone-line: the Kindly number joining `user`'s side and the other
    for this booking (the same one on every ask while it lasts). 409 when the line cannot be
    (not set up, ended, a phone missing, every number busy for these phones)."""
    booking = _party_booking(user=user, booking_id=booking_id)
    if not selectors.phone_set_up():
        raise Conflict(words.NOT_SET_UP)
    try:
        pair = _pair(user, booking)
    except _NoLine as no_line:
        raise Conflict(no_line.message) from None
    ends_at = selectors.link_ends_at(booking)
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_POOL_LOCK])
        link = _live_link(booking, pair)
        if link is None:
            # A stale link of this pair (another helper since, or her number changed) is moved to its
            # new phones; its records stay with it.
            stale = PhoneLink.objects.filter(booking=booking, family_phone=pair.family_phone).first()
            busy = selectors.numbers_in_use(
                phones=[pair.helper_phone, pair.family_phone],
                now=timezone.now(),
                exclude_pk=stale.pk if stale else None,
            )
            free = [n for n in selectors.pool_numbers() if n not in busy]
            if not free:
                raise Conflict(words.ALL_LINES_BUSY)
            link, _ = PhoneLink.objects.update_or_create(
                booking=booking,
                family_phone=pair.family_phone,
                defaults={
                    "number": free[0],
                    "provider_id": booking.provider_id,
                    "helper_phone": pair.helper_phone,
                    "family_user": pair.family_user,
                    "family_name": pair.family_name,
                    "ends_at": ends_at,
                },
            )
        elif link.ends_at != ends_at:
            PhoneLink.objects.filter(pk=link.pk).update(ends_at=ends_at)
    return Line(
        available=True,
        message=words.line_ready(pair.reaches),
        number=link.number,
        reaches=pair.reaches,
        ends_at=ends_at,
    )


@dataclass(frozen=True)
class Connect:
    """What a call or text to a Kindly number does: reach `to` (None: the number joins the caller to
    nobody now), and whether Twilio sent this one before (a replay is not relayed twice)."""

    to: str | None
    replay: bool = False


def _record(*, number: str, caller: str, sid: str, kind: str) -> Connect:
    found = selectors.link_for(number=number, caller=caller)
    if found is None:
        return Connect(to=None)
    link, direction = found
    to = link.family_phone if caller == link.helper_phone else link.helper_phone
    try:
        with transaction.atomic():
            PhoneContact.objects.create(link=link, booking_id=link.booking_id, kind=kind, direction=direction, sid=sid)
    except IntegrityError:
        return Connect(to=to, replay=True)
    return Connect(to=to)


def call_arrived(*, number: str, caller: str, call_sid: str) -> Connect:
    """A call from `caller` to the Kindly `number`: whom to dial, the call recorded once."""
    return _record(number=number, caller=caller, sid=call_sid, kind=ContactKind.CALL)


def call_ended(*, call_sid: str, outcome: str, seconds: int | None) -> None:
    """The bridged call ended (Twilio's <Dial> action): its length and how it ended."""
    PhoneContact.objects.filter(sid=call_sid, kind=ContactKind.CALL).update(outcome=outcome[:16], seconds=seconds)


def text_arrived(*, number: str, caller: str, message_sid: str) -> Connect:
    """A text from `caller` to the Kindly `number`: whom to pass it on to, recorded once (never its words)."""
    return _record(number=number, caller=caller, sid=message_sid, kind=ContactKind.TEXT)


# ---------------------------------------------------------------- the phone menu (calling Kindly)
# The caller is known by caller ID (the care recipient's own phone) and a 4-digit PIN her family
# set. Each choice acts only on its last key press ("press 1 to cancel"): a caller who hangs up
# before it leaves everything as it was. What a call did is kept on its MenuCall, so a webhook
# Twilio sends twice does not act twice.

PIN_ATTEMPTS = 3
_SPOKEN_WINDOWS = {
    "morning": gettext_lazy("in the morning"),
    "afternoon": gettext_lazy("in the afternoon"),
    "evening": gettext_lazy("in the evening"),
    "flexible": gettext_lazy("at a time to be agreed"),
}


def pin_problem(pin: str) -> str:
    return "" if re.fullmatch(r"\d{4}", pin or "", flags=re.ASCII) else PIN_FORMAT


PIN_FORMAT = gettext_lazy("The PIN is 4 digits, like 2580.")


def pin_set(*, actor: User, recipient_id: int, pin: str) -> PhonePin:
    """An organizer sets (or resets, which unlocks) the recipient's phone PIN; kept hashed."""
    if not CircleMember.objects.filter(recipient_id=recipient_id, user_id=actor.pk).exists():
        raise NotFound(gettext("Care recipient not found."))
    if not is_organizer(user_id=actor.pk, recipient_id=recipient_id):
        raise PermissionDenied(gettext("Only the organizers of the care circle can set the phone PIN."))
    problem = pin_problem(pin)
    if problem:
        raise InvalidInput(problem, errors={"pin": [problem]})
    phone_pin, _ = PhonePin.objects.update_or_create(
        recipient_id=recipient_id,
        defaults={"pin_hash": make_password(pin), "failed_attempts": 0, "locked_at": None},
    )
    return phone_pin


def menu_call_start(*, call_sid: str, caller: str) -> tuple[MenuCall, PhonePin | None]:
    """A call to the menu: the care recipient whose own phone is calling (by caller ID), and her PIN."""
    recipient = selectors.recipient_calling(caller)
    call, _ = MenuCall.objects.get_or_create(call_sid=call_sid, defaults={"recipient": recipient})
    pin = PhonePin.objects.filter(recipient=recipient).first() if recipient else None
    return call, pin


def menu_pin_check(*, call_sid: str, digits: str) -> str:
    """The PIN typed on a call: "ok", "wrong" (try again), "locked" (the third wrong one locks it and
    tells the organizers) or "unknown" (no such call or no PIN)."""
    with transaction.atomic():
        call = MenuCall.objects.select_for_update().filter(call_sid=call_sid).first()
        if call is None or call.recipient_id is None:
            return "unknown"
        if call.verified_at is not None:
            return "ok"
        pin = PhonePin.objects.select_for_update().filter(recipient_id=call.recipient_id).first()
        if pin is None:
            return "unknown"
        if pin.locked_at is not None:
            return "locked"
        if check_password(digits or "", pin.pin_hash):
            pin.failed_attempts = 0
            pin.save(update_fields=["failed_attempts", "updated_at"])
            call.verified_at = timezone.now()
            call.save(update_fields=["verified_at"])
            return "ok"
        pin.failed_attempts += 1
        if pin.failed_attempts >= PIN_ATTEMPTS:
            pin.locked_at = timezone.now()
            recipient = call.recipient
            notify(
                receivers=[m.user for m in CircleMember.objects.filter(recipient=recipient, role=CircleRole.ORGANIZER)],
                notice=words.InApp.PIN_LOCKED,
                facts={"name": recipient.first_name},
            )
        pin.save(update_fields=["failed_attempts", "locked_at", "updated_at"])
        return "locked" if pin.locked_at else "wrong"


def menu_caller(call_sid: str) -> MenuCall | None:
    """The call, once its PIN was right (every choice asks this first)."""
    return MenuCall.objects.filter(call_sid=call_sid, verified_at__isnull=False).select_related("recipient").first()


def spoken_window(window: str) -> str:
    return str(_SPOKEN_WINDOWS.get(window, ""))


def spoken_visit(booking: Booking) -> str:
    return words.visit_words(
        day=day_text(booking.scheduled_date),
        window=spoken_window(booking.scheduled_time),
        helper=booking.provider.user.first_name,
        title=booking.service_request.title,
    )


def _circle_and_helper(booking: Booking) -> list[User]:
    members = [m.user for m in CircleMember.objects.filter(recipient_id=booking.recipient_id).select_related("user")]
    return [booking.provider.user, *members]


def menu_confirm(*, call: MenuCall, booking_id: int) -> Booking:
    """The caller confirmed her next visit ("Confirmed by phone" for the helper; the circle told once)."""
    with transaction.atomic():
        booking = Booking.objects.select_related("provider__user").get(pk=booking_id, recipient_id=call.recipient_id)
        _, made = PhoneConfirmation.objects.get_or_create(booking=booking)
        if made:
            notify(
                receivers=_circle_and_helper(booking),
                notice=words.InApp.CONFIRMED_BY_PHONE,
                facts={"name": call.recipient.first_name, "day_on": booking.scheduled_date.isoformat()},
                booking=booking,
            )
        _done(call, "confirm", booking.pk)
    return booking


def menu_cancel(*, call: MenuCall, booking_id: int) -> str:
    """The caller cancels a visit, as its client would (bookings' cancel: the 48-hour rule, the
    refund, everyone told): "cancelled", "too_late", or "not_allowed" (the client who booked it
    no longer organizes her circle)."""
    if call.done.get("cancel") == booking_id:
        return "cancelled"
    booking = Booking.objects.select_related("client").get(pk=booking_id, recipient_id=call.recipient_id)
    if not still_cancellable(booking.starts_at, timezone.now()):
        return "too_late"
    try:
        booking_cancel_by_client(
            booking_id=booking.pk, actor=booking.client, reason=f"Cancelled by {call.recipient.first_name} by phone."
        )
    except PermissionDenied:
        return "not_allowed"
    except Conflict:
        return "too_late"
    _done(call, "cancel", booking.pk)
    return "cancelled"


def menu_ask_again(*, call: MenuCall, booking_id: int) -> ServiceRequest:
    """The caller asks for the helper of her last visit again, the same day and time next week: a
    request sent to that helper directly (she is told), in the name of the client who booked the
    last one; the circle is told."""
    if call.done.get("again"):
        return ServiceRequest.objects.get(pk=call.done["again"])
    last = Booking.objects.select_related("service_request__category", "provider__user", "client").get(
        pk=booking_id, recipient_id=call.recipient_id
    )
    asked = last.service_request
    day = selectors.same_day_next_week(last)
    with transaction.atomic():
        service_request = service_request_create(
            client=last.client,
            category=asked.category,
            title=asked.title,
            description=asked.description,
            preferred_date=day,
            preferred_time=last.scheduled_time,
            urgency=asked.urgency,
            special_requirements=asked.special_requirements,
            estimated_duration=last.duration,
            max_budget=asked.max_budget,
            recipient=last.recipient,
            requested_provider_id=last.provider_id,
            address={name: getattr(asked, name) for name in PART_NAMES},
        )
        members = [m.user for m in CircleMember.objects.filter(recipient_id=last.recipient_id).select_related("user")]
        notify(
            receivers=members,
            notice=words.InApp.ASKED_AGAIN_BY_PHONE,
            facts={
                "name": call.recipient.first_name,
                "helper": last.provider.user.first_name,
                "day_on": day.isoformat(),
            },
        )
        _done(call, "again", service_request.pk)
    return service_request


def _done(call: MenuCall, what: str, value: int) -> None:
    MenuCall.objects.filter(pk=call.pk).update(done={**call.done, what: value})
    call.done = {**call.done, what: value}


def voicemail_saved(*, call_sid: str, recording_url: str, seconds: int) -> StaffVoicemail:
    """A message left for staff (menu option 0), once however often Twilio sends it."""
    call = MenuCall.objects.filter(call_sid=call_sid).first()
    voicemail, _ = StaffVoicemail.objects.get_or_create(
        call_sid=call_sid,
        defaults={
            "recording_url": recording_url,
            "seconds": seconds,
            "recipient_id": call.recipient_id if call and call.verified_at else None,
        },
    )
    return voicemail


def voicemail_transcribed(*, call_sid: str, text: str) -> None:
    StaffVoicemail.objects.filter(call_sid=call_sid).update(transcription=text[:5000])


# ---------------------------------------------------------------- reminder calls, the evening before


def reminder_choice_set(*, actor: User, recipient_id: int, by: str) -> PhoneReminderChoice:
    """An organizer chooses how the recipient hears of a visit the evening before (call, text, none)."""
    if not CircleMember.objects.filter(recipient_id=recipient_id, user_id=actor.pk).exists():
        raise NotFound(gettext("Care recipient not found."))
    if not is_organizer(user_id=actor.pk, recipient_id=recipient_id):
        raise PermissionDenied(gettext("Only the organizers of the care circle can choose the reminders."))
    if by not in ReminderBy.values:
        raise InvalidInput(
            gettext("Choose a call, a text or no reminder."), errors={"by": [gettext("Choose call, text or none.")]}
        )
    choice, _ = PhoneReminderChoice.objects.update_or_create(recipient_id=recipient_id, defaults={"by": by})
    return choice


def reminder_claim(*, booking_id: int, now: dt.datetime) -> ReminderCall | None:
    """Claim one try of a due reminder (a row lock: two beat runs never call twice)."""
    if booking_id not in selectors.reminders_due(now=now):
        return None
    with transaction.atomic():
        booking = Booking.objects.select_for_update().get(pk=booking_id)
        reminder, _ = ReminderCall.objects.select_for_update().get_or_create(
            booking=booking, defaults={"by": selectors.reminder_by(booking.recipient_id)}
        )
        if reminder.outcome or reminder.attempts >= selectors.REMINDER_TRIES:
            return None
        if reminder.last_try_at and reminder.last_try_at > now - selectors.REMINDER_RETRY_AFTER:
            return None
        reminder.attempts += 1
        reminder.last_try_at = now
        reminder.save(update_fields=["attempts", "last_try_at"])
    return reminder


def reminder_send(*, booking_id: int, now: dt.datetime, site: str) -> str:
    """Remind the recipient of tomorrow's visit as her family chose: a call ("press 1 to confirm,
    2 to talk to Kindly") or a text. The call to Twilio is made after the claim's commit."""
    from django.conf import settings

    from notifications.channels import twilio_client

    reminder = reminder_claim(booking_id=booking_id, now=now)
    if reminder is None:
        return "not_due"
    booking = Booking.objects.select_related("recipient", "provider__user", "service_request").get(pk=booking_id)
    phone = selectors.e164_or_empty(booking.recipient.phone)
    if reminder.by == ReminderBy.TEXT:
        # Through the notifications channel (quiet hours, STOP, a text's own words), in her language.
        with translation.override(booking.recipient.language or settings.LANGUAGE_CODE):
            sent = text_to_number(
                phone=phone,
                words=words.reminder_text(spoken_visit(booking)),
                time_zone=booking.recipient.zone,
                now=now,
            )
        outcome = "texted" if sent == "sent" else sent
        ReminderCall.objects.filter(pk=reminder.pk).update(outcome=outcome)
        return outcome
    query = f"?booking={booking.pk}"
    call = twilio_client().calls.create(
        to=phone,
        from_=settings.TWILIO_FROM_NUMBER,
        url=site + reverse("phone-reminder") + query,
        status_callback=site + reverse("phone-reminder-status") + query,
        status_callback_event=["completed"],
        timeout=30,
    )
    reminder_call_placed(reminder=reminder, call_sid=call.sid)
    return "called"


def reminder_call_placed(*, reminder: ReminderCall, call_sid: str) -> None:
    """Keep the sid of a reminder call placed: its webhooks answer only calls Kindly placed."""
    ReminderCall.objects.filter(pk=reminder.pk).update(sids=[*reminder.sids, call_sid])


def reminder_of_call(*, booking_id: int, call_sid: str) -> ReminderCall | None:
    """The reminder a call belongs to (Kindly placed it: its CallSid is kept), else None."""
    reminder = ReminderCall.objects.select_related("booking__recipient", "booking__provider__user").filter(
        booking_id=booking_id
    )
    found = reminder.first()
    return found if found is not None and call_sid in found.sids else None


def reminder_answered(*, reminder: ReminderCall, key: str) -> str:
    """The recipient's answer: 1 confirms (the helper and the circle told), 2 asks for Kindly."""
    with transaction.atomic():
        locked = ReminderCall.objects.select_for_update().get(pk=reminder.pk)
        if key == "1" and locked.outcome != "confirmed":
            booking = locked.booking
            _, made = PhoneConfirmation.objects.get_or_create(booking=booking)
            if made:
                notify(
                    receivers=_circle_and_helper(booking),
                    notice=words.InApp.CONFIRMED_BY_PHONE,
                    facts={"name": booking.recipient.first_name, "day_on": booking.scheduled_date.isoformat()},
                    booking=booking,
                )
            locked.outcome = "confirmed"
        elif key == "2" and not locked.outcome:
            locked.outcome = "talk"
        locked.save(update_fields=["outcome"])
    return locked.outcome


def reminder_call_ended(*, reminder: ReminderCall, status: str) -> None:
    """Twilio's status of a reminder call: not answered twice tells the organizers; picked up and
    hung up without a key still counts as answered."""
    with transaction.atomic():
        locked = ReminderCall.objects.select_for_update().select_related("booking__recipient").get(pk=reminder.pk)
        if locked.outcome:
            return
        if status == "completed":
            locked.outcome = "answered"
        elif status in ("no-answer", "busy", "failed", "canceled") and locked.attempts >= selectors.REMINDER_TRIES:
            locked.outcome = "no_answer"
            booking = locked.booking
            organizers = CircleMember.objects.filter(recipient_id=booking.recipient_id, role=CircleRole.ORGANIZER)
            notify(
                receivers=[m.user for m in organizers.select_related("user")],
                notice=words.InApp.REMINDER_UNANSWERED,
                facts={"name": booking.recipient.first_name, "day_on": booking.scheduled_date.isoformat()},
                booking=booking,
            )
        locked.save(update_fields=["outcome"])
