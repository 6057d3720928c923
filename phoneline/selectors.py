"""Reads of the phone lines: whether they are set up, which link a call or text to a Kindly number
belongs to, the records staff see."""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db.models import Q, QuerySet
from django.utils import timezone

from bookings.models import Booking, BookingStatus
from phoneline.models import Direction, PhoneContact, PhoneLink

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
