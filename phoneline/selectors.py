"""Reads of the phone lines: whether they are set up, which link a call or text to a Kindly number
belongs to, the records staff see."""

from __future__ import annotations

import datetime as dt
import re

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from bookings.models import Booking, BookingStatus
from circles.models import CareRecipient
from core.errors import InvalidInput
from phoneline.models import (
    Direction,
    MenuCall,
    PhoneConfirmation,
    PhoneContact,
    PhoneLink,
    PhonePin,
    StaffVoicemail,
)

# A booking's line stops this long after the visit's planned end.
LINK_AFTER_VISIT = dt.timedelta(hours=24)
# The booking states in which its line still connects (a completed visit: until LINK_AFTER_VISIT).
_LINE_STATES = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED, BookingStatus.COMPLETED)


def pool_numbers() -> list[str]:
    """The Kindly numbers masked calls and texts go through (TWILIO_PROXY_NUMBERS), in order."""
    return [n.strip() for n in settings.TWILIO_PROXY_NUMBERS if n.strip()]


def phone_set_up() -> bool:
    """Masked calls and texts work only with Twilio's account, its token and at least one number."""
    return bool(settings.TWILIO_ACCOUNT_SID and settings.TWILIO_AUTH_TOKEN and pool_numbers())


def link_ends_at(booking: Booking) -> dt.datetime:
    return booking.ends_at + LINK_AFTER_VISIT


def booking_line_open(booking: Booking, *, now: dt.datetime | None = None) -> bool:
    """Whether a booking's line may still connect: the visit is on, or ended under 24 hours ago."""
    return booking.status in _LINE_STATES and (now or timezone.now()) < link_ends_at(booking)


def link_live(link: PhoneLink, *, now: dt.datetime | None = None) -> bool:
    """A link connects while its booking's line is open and the helper it joined is still booked."""
    now = now or timezone.now()
    return (
        now < link.ends_at and link.booking.provider_id == link.provider_id and booking_line_open(link.booking, now=now)
    )


def link_for(*, number: str, caller: str, now: dt.datetime | None = None) -> tuple[PhoneLink, str] | None:
    """The live link a call or text from `caller` to the Kindly `number` belongs to, and which way
    it goes (Direction); None when the number joins the caller to nobody now."""
    now = now or timezone.now()
    links = (
        PhoneLink.objects.filter(number=number, ends_at__gt=now)
        .filter(Q(helper_phone=caller) | Q(family_phone=caller))
        .select_related("booking")
        .order_by("-created_at")
    )
    for link in links:
        if link_live(link, now=now):
            direction = Direction.HELPER_TO_FAMILY if link.helper_phone == caller else Direction.FAMILY_TO_HELPER
            return link, direction
    return None


def numbers_in_use(*, phones: list[str], now: dt.datetime, exclude_pk: int | None = None) -> set[str]:
    """The Kindly numbers already joining one of `phones` to someone (each caller's number must
    lead to one person per Kindly number)."""
    links = PhoneLink.objects.filter(ends_at__gt=now).filter(Q(helper_phone__in=phones) | Q(family_phone__in=phones))
    return set(links.exclude(pk=exclude_pk).values_list("number", flat=True))


def contacts_of_booking(*, booking_id: int) -> QuerySet[PhoneContact]:
    """The calls and texts through a booking's lines, newest first (staff only: when, how long,
    which way; never a number or what was said)."""
    return PhoneContact.objects.filter(booking_id=booking_id).order_by("-at", "-id")


def contacts_for_staff() -> QuerySet[PhoneContact]:
    """Every call and text through the bookings' lines, newest first, with its booking's title
    (/admin's Phone tab: when, which way, how long, which booking; never a number or its words)."""
    return (
        PhoneContact.objects.select_related("booking__service_request")
        .only("id", "kind", "direction", "at", "seconds", "outcome", "booking_id", "booking__service_request__title")
        .order_by("-at", "-id")
    )


# ---------------------------------------------------------------- the phone menu


def recipient_calling(caller: str) -> CareRecipient | None:
    """The care recipient whose own phone (as her family typed it) is `caller` (E.164), or None.
    Two recipients sharing one phone (a couple): the one with a PIN set, then the first."""
    digits = re.sub(r"\D", "", caller or "")
    if len(digits) < 8:
        return None
    candidates = CareRecipient.objects.filter(phone__contains=digits[-4:]).order_by("id")
    matches = [r for r in candidates if e164_or_empty(r.phone) == caller]
    matches.sort(key=lambda r: not PhonePin.objects.filter(recipient=r).exists())
    return matches[0] if matches else None


def call_language(*, call_sid: str, caller: str = "", booking_id: str = "") -> str:
    """The language a call to or from the person cared for is spoken in: hers (CareRecipient.language),
    found by the menu call (CallSid), the reminder's visit (?booking=) or her phone (caller ID); the
    site's for a caller Kindly does not know."""
    language = (
        MenuCall.objects.filter(call_sid=call_sid, recipient__isnull=False)
        .values_list("recipient__language", flat=True)
        .first()
        if call_sid
        else None
    )
    if not language and booking_id.isdigit():
        language = (
            Booking.objects.filter(pk=int(booking_id), recipient__isnull=False)
            .values_list("recipient__language", flat=True)
            .first()
        )
    if not language and caller:
        recipient = recipient_calling(caller)
        language = recipient.language if recipient is not None else None
    return language or settings.LANGUAGE_CODE


def e164_or_empty(raw: str) -> str:
    from notifications.services import normalize_phone

    try:
        return normalize_phone(raw)
    except InvalidInput:
        return ""


_ON = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED)


def next_visits(*, recipient_id: int, now: dt.datetime | None = None, limit: int = 3) -> list[Booking]:
    """Her visits still to come, soonest first (what the menu reads out)."""
    return list(
        Booking.objects.filter(recipient_id=recipient_id, status__in=_ON, starts_at__gt=now or timezone.now())
        .select_related("provider__user", "service_request")
        .order_by("starts_at", "id")[:limit]
    )


def last_visit(*, recipient_id: int, now: dt.datetime | None = None) -> Booking | None:
    """Her latest visit that took place or is booked (cancelled ones aside): whom to ask again."""
    return (
        Booking.objects.filter(
            recipient_id=recipient_id,
            status__in=(*_ON, BookingStatus.COMPLETED),
            starts_at__lte=(now or timezone.now()) + dt.timedelta(days=60),
        )
        .select_related("provider__user", "service_request")
        .order_by("-starts_at", "-id")
        .first()
    )


def same_day_next_week(booking: Booking, *, today: dt.date | None = None) -> dt.date:
    """The same weekday as `booking`, a week after it, and never in the past."""
    day = booking.scheduled_date + dt.timedelta(days=7)
    today = today or timezone.localdate()
    while day <= today:
        day += dt.timedelta(days=7)
    return day


def confirmed_by_phone(booking_id: int) -> bool:
    return PhoneConfirmation.objects.filter(booking_id=booking_id).exists()


def voicemails_for_staff() -> QuerySet[StaffVoicemail]:
    return StaffVoicemail.objects.select_related("recipient").order_by("-created_at", "-id")


def pin_state(*, user: object, recipient_id: int) -> dict[str, bool]:
    """Whether the recipient (of the user's circle: 404 otherwise) has a phone PIN, and if locked."""
    from circles.models import CircleMember
    from core.errors import NotFound

    if not CircleMember.objects.filter(recipient_id=recipient_id, user_id=user.pk).exists():
        raise NotFound(gettext("Care recipient not found."))
    pin = PhonePin.objects.filter(recipient_id=recipient_id).first()
    return {"setUp": phone_menu_set_up(), "set": pin is not None, "locked": bool(pin and pin.locked_at)}


def phone_menu_set_up() -> bool:
    """Kindly's phone menu answers calls to TWILIO_FROM_NUMBER, their webhooks checked with
    TWILIO_AUTH_TOKEN (it makes no call itself, so it needs no account id)."""
    return bool(settings.TWILIO_AUTH_TOKEN and settings.TWILIO_FROM_NUMBER)


# ---------------------------------------------------------------- reminder calls

# The evening before a visit, on the recipient's clock: calls start at 5 PM and stop at 8:30 PM,
# well before quiet hours (9 PM to 8 AM, when Kindly never calls or texts her).
REMINDER_FROM = dt.time(17, 0)
REMINDER_UNTIL = dt.time(20, 30)
REMINDER_TRIES = 2
REMINDER_RETRY_AFTER = dt.timedelta(minutes=30)


def reminder_by(recipient_id: int) -> str:
    from phoneline.models import PhoneReminderChoice, ReminderBy

    choice = PhoneReminderChoice.objects.filter(recipient_id=recipient_id).first()
    return choice.by if choice else ReminderBy.NONE


def reminders_due(*, now: dt.datetime) -> list[int]:
    """Visits of tomorrow (each recipient's clock) whose recipient chose a call or a text, in her
    evening window, not reminded yet (a call not answered: tried again after 30 minutes, twice in all)."""
    from phoneline.models import PhoneReminderChoice, ReminderBy, ReminderCall

    by_recipient = dict(PhoneReminderChoice.objects.exclude(by=ReminderBy.NONE).values_list("recipient_id", "by"))
    if not by_recipient:
        return []
    due = []
    soon = Booking.objects.filter(
        recipient_id__in=by_recipient, status__in=_ON, starts_at__gt=now, starts_at__lt=now + dt.timedelta(days=2)
    ).select_related("recipient")
    for booking in soon:
        local = now.astimezone(booking.recipient.zone)
        if booking.scheduled_date != local.date() + dt.timedelta(days=1):
            continue
        if not REMINDER_FROM <= local.time() < REMINDER_UNTIL:
            continue
        if not e164_or_empty(booking.recipient.phone):
            continue
        reminder = ReminderCall.objects.filter(booking=booking).first()
        if reminder is None or (
            not reminder.outcome
            and reminder.attempts < REMINDER_TRIES
            and (reminder.last_try_at is None or reminder.last_try_at <= now - REMINDER_RETRY_AFTER)
        ):
            due.append(booking.pk)
    return due
