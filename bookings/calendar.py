"""Visits as iCalendar (RFC 5545) for a user's private feed: the visits they make and those booked
for the recipients in their circles (or one recipient's only, a per-recipient subscription).

Built with the icalendar library: each visit's times in the zone of the person cared for (the
window the family was told is on their clock), with its VTIMEZONE, one VEVENT per
booking (UID booking-<id>@kindly), cancelled visits kept with STATUS:CANCELLED so subscribed
calendars take them off instead of keeping a stale visit. Its titles and descriptions are in
the feed owner's language (User.language): a calendar app fetches the feed with no session.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation import gettext
from icalendar import Calendar, Event

from bookings.models import BookingStatus
from bookings.selectors import CALENDAR_HISTORY, calendar_visits
from providers.selectors import provider_for_user, time_off_between
from requests_app.selectors import address_line_for, address_shown_to

if TYPE_CHECKING:
    from accounts.models import User
    from bookings.models import Booking
    from circles.models import CareRecipient
    from providers.models import TimeOff

_STATUS = {
    BookingStatus.SCHEDULED: "TENTATIVE",  # booked, not paid yet
    BookingStatus.CONFIRMED: "CONFIRMED",
    BookingStatus.COMPLETED: "CONFIRMED",
    BookingStatus.CANCELLED: "CANCELLED",
}


def visit_parties(booking: Booking, user: User) -> tuple[bool, str, str]:
    """(whether the user makes the visit, whom it is for, who comes) as the page and the feed name
    them. The booked provider may see the recipient's and the client's full names (ARCHITECTURE.md);
    the circle sees the helper's."""
    as_provider = booking.provider.user_id == user.pk
    recipient = booking.recipient.full_name if booking.recipient_id else ""
    helper = gettext("you") if as_provider else (booking.provider.user.full_name or gettext("your helper"))
    return as_provider, recipient or booking.client.full_name or gettext("your client"), helper


def series_label(booking: Booking) -> str:
    """ "Visit 2 of 4" for a visit of a repeating series (calendar_visits' series_total), else ""."""
    total = getattr(booking, "series_total", None)
    # A count below the index means the series is not one request's bookings: say nothing wrong.
    if booking.series_index is None or not total or total < booking.series_index:
        return ""
    return gettext("Visit %(index)s of %(total)s") % {"index": booking.series_index, "total": total}


def calendar_ics(*, user: User, page_url: str, recipient: CareRecipient | None = None) -> bytes:
    """The feed: one event per visit, each in its recipient's zone (only `recipient`'s visits when
    given), in the words of the user's language."""
    with translation.override(user.language or settings.LANGUAGE_CODE):
        return _calendar_ics(user=user, page_url=page_url, recipient=recipient)


def _calendar_ics(*, user: User, page_url: str, recipient: CareRecipient | None) -> bytes:
    calendar = Calendar()
    calendar.add("prodid", "-//Kindly//Visits//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    name = (
        gettext("Kindly visits for %(name)s") % {"name": recipient.full_name}
        if recipient is not None
        else gettext("Kindly visits")
    )
    calendar.add("x-wr-calname", name)
    visits = list(calendar_visits(user=user, recipient_id=recipient.pk if recipient is not None else None))
    # The calendar's default zone: the one person's whose visits these are, else the site's.
    zones = {booking.recipient.time_zone for booking in visits}
    default_zone = recipient.time_zone if recipient is not None else settings.SITE_TIME_ZONE
    calendar.add("x-wr-timezone", zones.pop() if len(zones) == 1 else default_zone)
    for booking in visits:
        as_provider, for_whom, helper = visit_parties(booking, user)
        event = Event()
        event.add("uid", f"booking-{booking.pk}@kindly")
        event.add("dtstamp", booking.updated_at)
        event.add("last-modified", booking.updated_at)
        zone = booking.time_zone
        event.add("dtstart", booking.starts_at.astimezone(zone))
        event.add("dtend", booking.ends_at.astimezone(zone))
        title = booking.service_request.title
        series = series_label(booking)
        names = {"title": title, "for_whom": for_whom, "helper": helper}
        if as_provider:
            summary = gettext("Kindly: %(title)s for %(for_whom)s") % names
            lines = [title, gettext("For %(for_whom)s.") % names]
        else:
            summary = gettext("Kindly: %(title)s for %(for_whom)s with %(helper)s") % names
            lines = [title, gettext("For %(for_whom)s, with %(helper)s.") % names]
        if booking.status == BookingStatus.CANCELLED:
            # Calendars that keep a cancelled event show its title: say so in words too.
            summary = gettext("Cancelled: %(summary)s") % {"summary": summary}
            lines.append(gettext("This visit is cancelled."))
        if series:
            lines.append(f"{series}.")
        lines.append(gettext("Details: %(link)s") % {"link": page_url})
        event.add("summary", summary)
        # The place as address_shown_to allows: the booked helper's LOCATION is the street address
        # while the visit is on, the town and ZIP once she is dropped (cancelled, long completed).
        location = address_line_for(booking, address_shown_to(booking, user))
        if location:
            event.add("location", location)
        event.add("description", "\n".join(lines))
        event.add("url", page_url)
        event.add("status", _STATUS[booking.status])
        calendar.add_component(event)
    if recipient is None:
        for event in _time_off_events(user):
            calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()


def time_off_shown(*, user: User, first_day: dt.date, last_day: dt.date) -> list[TimeOff]:
    """The user's own time off as a provider touching first_day to last_day (none for anyone else):
    the calendar shows it beside her visits, so the days she is away are plain to her."""
    provider = provider_for_user(user=user)
    if provider is None:
        return []
    return time_off_between(provider, first_day=first_day, last_day=last_day)


def _time_off_events(user: User) -> list[Event]:
    """All-day events for the provider's time off (from CALENDAR_HISTORY ago on), in her own feed only."""
    today = timezone.localdate()
    events = []
    for time_off in time_off_shown(
        user=user, first_day=today - CALENDAR_HISTORY, last_day=today + dt.timedelta(days=366 * 2)
    ):
        event = Event()
        event.add("uid", f"time-off-{time_off.pk}@kindly")
        event.add("dtstamp", time_off.created_at)
        event.add("dtstart", time_off.first_day)
        event.add("dtend", time_off.last_day + dt.timedelta(days=1))  # all-day: the day after the last
        event.add("summary", gettext("Kindly: time off"))
        event.add("description", time_off.note or gettext("You are away: no visits are offered to you."))
        events.append(event)
    return events
