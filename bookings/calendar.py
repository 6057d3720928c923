"""Visits as iCalendar (RFC 5545) for a user's private feed (Booking visits they make or booked).

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

if TYPE_CHECKING:
    from accounts.models import User

_STATUS = {
    BookingStatus.SCHEDULED: "TENTATIVE",  # booked, not paid yet
    BookingStatus.CONFIRMED: "CONFIRMED",
    BookingStatus.COMPLETED: "CONFIRMED",
    BookingStatus.CANCELLED: "CANCELLED",
}


def calendar_ics(*, user: User, page_url: str) -> bytes:
    """The feed: one event per visit, in the site's zone."""
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    calendar = Calendar()
    calendar.add("prodid", "-//Kindly//Visits//EN")
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", "Kindly visits")
    calendar.add("x-wr-timezone", settings.SITE_TIME_ZONE)
    for booking in calendar_visits(user=user):
        as_provider = booking.provider.user_id == user.pk
        other = booking.client if as_provider else booking.provider.user
        event = Event()
        event.add("uid", f"booking-{booking.pk}@kindly")
        event.add("dtstamp", booking.updated_at)
        event.add("last-modified", booking.updated_at)
        event.add("dtstart", booking.starts_at.astimezone(zone))
        event.add("dtend", booking.ends_at.astimezone(zone))
        title = booking.service_request.title
        who = other.full_name or ("your client" if as_provider else "your helper")
        event.add("summary", f"Kindly: {title} with {who}")
        event.add("location", booking.service_request.location)
        event.add("description", f"{title}\nWith {who}.\nDetails: {page_url}")
        event.add("url", page_url)
        event.add("status", _STATUS[booking.status])
        calendar.add_component(event)
    calendar.add_missing_timezones()
    return calendar.to_ical()
