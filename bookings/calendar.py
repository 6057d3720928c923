"""Visits as iCalendar (RFC 5545) for a user's private feed: the visits they make and those booked
for the recipients in their circles (or one recipient's only, a per-recipient subscription).

Built with the icalendar library: times in the site's zone with its VTIMEZONE, one VEVENT per
booking (UID booking-<id>@kindly), cancelled visits kept with STATUS:CANCELLED so subscribed
calendars take them off instead of keeping a stale visit.
"""

from __future__ import annotations

import zoneinfo
from typing import TYPE_CHECKING

from django.conf import settings
from icalendar import Calendar, Event

from bookings.models import BookingStatus
from bookings.selectors import calendar_visits
from requests_app.selectors import address_line_for, address_shown_to

if TYPE_CHECKING:
    from accounts.models import User
    from bookings.models import Booking
    from circles.models import CareRecipient

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
    helper = "you" if as_provider else (booking.provider.user.full_name or "your helper")
    return as_provider, recipient or booking.client.full_name or "your client", helper


def series_label(booking: Booking) -> str:
    """ "Visit 2 of 4" for a visit of a repeating series (calendar_visits' series_total), else ""."""
    total = getattr(booking, "series_total", None)
    # A count below the index means the series is not one request's bookings: say nothing wrong.
    if booking.series_index is None or not total or total < booking.series_index:
        return ""
    return f"Visit {booking.series_index} of {total}"


def calendar_ics(*, user: User, page_url: str, recipient: CareRecipient | None = None) -> bytes:
    """The feed: one event per visit, in the site's zone (only `recipient`'s visits when given)."""
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    calendar = Calendar()
    calendar.add("prodid", "-//Kindly//Visits//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    name = f"Kindly visits for {recipient.full_name}" if recipient is not None else "Kindly visits"
    calendar.add("x-wr-calname", name)
    calendar.add("x-wr-timezone", settings.SITE_TIME_ZONE)
    visits = calendar_visits(user=user, recipient_id=recipient.pk if recipient is not None else None)
    for booking in visits:
        as_provider, for_whom, helper = visit_parties(booking, user)
        event = Event()
        event.add("uid", f"booking-{booking.pk}@kindly")
        event.add("dtstamp", booking.updated_at)
        event.add("last-modified", booking.updated_at)
        event.add("dtstart", booking.starts_at.astimezone(zone))
        event.add("dtend", booking.ends_at.astimezone(zone))
        title = booking.service_request.title
        series = series_label(booking)
        if as_provider:
            summary = f"Kindly: {title} for {for_whom}"
            lines = [title, f"For {for_whom}."]
        else:
            summary = f"Kindly: {title} for {for_whom} with {helper}"
            lines = [title, f"For {for_whom}, with {helper}."]
        if booking.status == BookingStatus.CANCELLED:
            # Calendars that keep a cancelled event show its title: say so in words too.
            summary = f"Cancelled: {summary}"
            lines.append("This visit is cancelled.")
        if series:
            lines.append(f"{series}.")
        lines.append(f"Details: {page_url}")
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
    calendar.add_missing_timezones()
    return calendar.to_ical()
