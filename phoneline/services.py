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
import zlib
from dataclasses import dataclass

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from accounts.models import User
from bookings.models import Booking
from bookings.selectors import booking_get
from circles.models import CircleMember, CircleRole
from core.errors import Conflict, InvalidInput, PermissionDenied
from core.notices import phone as words
from notifications.models import Contact
from notifications.services import normalize_phone
from phoneline import selectors
from phoneline.models import ContactKind, PhoneContact, PhoneLink


@dataclass(frozen=True)
class Line:
    """A booking's line as one party sees it: whether it works for them, what to say, the Kindly
    number once bound, whom it reaches, when it stops."""

    available: bool
    message: str
    set_up: bool = True
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
        return Line(available=False, message=words.NOT_SET_UP, set_up=False)
    try:
        pair = _pair(user, booking)
    except _NoLine as no_line:
        return Line(available=False, message=no_line.message)
    link = _live_link(booking, pair)
    return Line(
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
