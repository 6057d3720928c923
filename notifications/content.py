"""What each kind of email says, for one reader: the words are the catalogue's (core.notices);
this module finds what they depend on when the email is sent (the booking as it is now, the part
the reader plays, the visit's time on the clock of the person cared for)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.utils import dateformat, timezone
from django.utils.translation import gettext, pgettext

from core import notices
from core.notices import Content, Reader
from core.notifications import Audience
from requests_app.models import WINDOW_END, WINDOW_START, TimeWindow

if TYPE_CHECKING:
    from accounts.models import User
    from bookings.models import Booking
    from notifications.models import Event

__all__ = ["Content", "build", "role_of", "visit_time", "window_words"]


def _hour(moment: dt.time) -> str:
    return dateformat.time_format(moment, "g A") if moment.minute == 0 else dateformat.time_format(moment, "g:i A")


def window_words(window: str) -> str:
    """'morning visit, 8 AM to 12 PM', in the active language; "" for a window without times.
    The window times come from their one table (requests_app.models.WINDOW_TIMES)."""
    if window == TimeWindow.FLEXIBLE:
        return gettext("flexible time")
    if window not in WINDOW_START:
        return ""
    start, end = _hour(WINDOW_START[window]), _hour(WINDOW_END[window])
    names = {
        TimeWindow.MORNING: gettext("morning visit, %(start)s to %(end)s"),
        TimeWindow.AFTERNOON: gettext("afternoon visit, %(start)s to %(end)s"),
        TimeWindow.EVENING: gettext("evening visit, %(start)s to %(end)s"),
    }
    return names[window] % {"start": start, "end": end} if window in names else ""


def visit_time(booking: Booking) -> str:
    """'Tuesday, November 24, 2026 at 8:00 AM Eastern Time (morning visit, 8 AM to 12 PM)': on the
    clock of the person cared for, named, as a son in another state reads it; in the active language."""
    start = timezone.localtime(booking.starts_at, booking.time_zone)
    # Translators: Django date format letters for a visit's day and time ("Tuesday, November 24,
    # 2026 at 8:00 AM"); backslashes keep letters as they are.
    text = dateformat.format(start, pgettext("visit time", r"l, F j, Y \a\t g:i A")) + f" {booking.recipient.zone_name}"
    words = window_words(booking.scheduled_time)
    return f"{text} ({words})" if words else text


def role_of(event: Event, recipient: User) -> str:
    """The part (core.notifications.Audience) the recipient plays for the event, as the
    sender resolved it from the kind's declared audience; "" for an event recorded before parts."""
    return str((event.context or {}).get("roles", {}).get(str(recipient.pk), ""))


def _whose(b: Booking, recipient: User) -> str:
    """Whom the visit is for, in the reader's words: "you" for the senior herself, else her first name."""
    person = b.recipient
    if person is None or person.account_id == recipient.pk:
        return gettext("you")
    return person.first_name or gettext("your family member")


def reader(event: Event, recipient: User) -> Reader:
    """One reader of the event's email, as the catalogue's emails read them."""
    ctx = event.context or {}
    b = event.booking
    role = role_of(event, recipient)
    # A request's news: "your request" to whoever posted it, "the request" to the rest of the circle.
    posted_it = (b.service_request.client_id if b else ctx.get("client_id")) == recipient.pk
    yours = gettext("your request") if posted_it else gettext("the request")
    return Reader(
        ctx=notices.in_reader_words(ctx),
        booking=b,
        recipient=recipient,
        role=role,
        # The notice's in-app words, written again in the reader's language when its facts allow.
        text=(notices.texts_again(event.kind, ctx) or {}).get("") or event.text,
        is_helper=role == Audience.HELPER if role else b is not None and b.provider.user_id == recipient.pk,
        pays=role in (Audience.PAYER, Audience.ORGANIZERS)
        or (not role and b is not None and b.client_id == recipient.pk),
        title=f"\u201c{b.service_request.title}\u201d" if b else "",
        when=visit_time(b) if b else "",
        whose=_whose(b, recipient) if b else "",
        circle_why=gettext("you are in the care circle of %(name)s") % {"name": b.recipient.full_name}
        if b
        else gettext("you are in this care circle"),
        yours=yours,
        request_why=gettext("you posted this request on Kindly")
        if posted_it
        else gettext("you organize this care circle on Kindly")
        if role == Audience.ORGANIZERS
        else gettext("you are in the care circle of this request"),
    )


def build(event: Event, recipient: User) -> Content:
    """The email for one recipient of an event, in the words of the part they play (the payer, an
    organizer, a member of the circle, the helper, staff): core.notices.email."""
    return notices.email(reader(event, recipient), event.kind)
