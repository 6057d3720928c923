"""/calendar and the private iCalendar feed (issue 18 item 5): the feed parses with the icalendar
library and holds exactly the user's visits, in the site's zone; its address can be reset."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.conf import settings
from django.utils import timezone
from icalendar import Calendar

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.services import booking_cancel_by_client, calendar_feed_reset, calendar_feed_token
from bookings.tests.factories import BookingFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

DAY = timezone.localdate() + dt.timedelta(days=6)


def _feed(client, user):
    response = client.get(f"/calendar/{calendar_feed_token(user=user)}.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return Calendar.from_ical(response.content)


def _events(calendar) -> dict[str, object]:
    return {str(e["uid"]): e for e in calendar.walk("VEVENT")}


def test_the_feed_holds_exactly_the_users_visits_in_the_site_zone(client, client_user, verified_provider):
    mine = BookingFactory(
        client=client_user,
        service_request__client=client_user,
        service_request__title="Wellness visit",
        provider=verified_provider,
        scheduled_date=DAY,
        scheduled_time="afternoon",
        duration=90,
    )
    BookingFactory(scheduled_date=DAY)  # someone else's visit
    BookingFactory(
        client=client_user,
        service_request__client=client_user,
        scheduled_date=timezone.localdate() - dt.timedelta(days=120),
    )

    calendar = _feed(client, client_user)  # no sign-in: the token is the key
    events = _events(calendar)
    assert list(events) == [f"booking-{mine.pk}@kindly"]
    event = events[f"booking-{mine.pk}@kindly"]
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    assert event.decoded("dtstart") == dt.datetime.combine(DAY, dt.time(12, 0), tzinfo=zone)
    assert event.decoded("dtend") - event.decoded("dtstart") == dt.timedelta(minutes=90)
    assert str(event["dtstart"].params["TZID"]) == settings.SITE_TIME_ZONE
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == [settings.SITE_TIME_ZONE]
    assert str(event["summary"]) == f"Kindly: Wellness visit with {verified_provider.user.full_name}"
    assert str(event["status"]) == "TENTATIVE"  # booked, not paid yet

    as_provider = _events(_feed(client, verified_provider.user))
    assert list(as_provider) == [f"booking-{mine.pk}@kindly"]
    assert str(as_provider[f"booking-{mine.pk}@kindly"]["summary"]).endswith(f"with {client_user.full_name}")
    assert list(_events(_feed(client, UserFactory()))) == []


def test_a_cancelled_visit_stays_in_the_feed_as_cancelled(client, client_user):
    booking = BookingFactory(client=client_user, service_request__client=client_user, scheduled_date=DAY)
    booking_cancel_by_client(booking_id=booking.pk, actor=client_user, reason="Feeling better")
    event = _events(_feed(client, client_user))[f"booking-{booking.pk}@kindly"]
    assert str(event["status"]) == "CANCELLED"


def test_an_unknown_or_reset_address_is_not_found(client, client_user):
    old = calendar_feed_token(user=client_user)
    assert client.get("/calendar/not-a-token.ics").status_code == 404
    new = calendar_feed_reset(user=client_user)
    assert new != old
    assert client.get(f"/calendar/{old}.ics").status_code == 404
    assert client.get(f"/calendar/{new}.ics").status_code == 200


def test_a_closed_accounts_feed_is_not_found(client, client_user):
    token = calendar_feed_token(user=client_user)
    client_user.is_active = False
    client_user.save(update_fields=["is_active", "updated_at"])
    assert client.get(f"/calendar/{token}.ics").status_code == 404


def test_the_page_lists_upcoming_visits_by_month_and_the_feed_address(client, client_user):
    BookingFactory(
        client=client_user,
        service_request__client=client_user,
        service_request__title="Grocery run",
        scheduled_date=DAY,
        status=BookingStatus.CONFIRMED,
    )
    assert client.get("/calendar")["Location"].startswith("/login?next=")
    client.force_login(client_user)
    page = client.get("/calendar").content.decode()
    assert "Grocery run" in page and DAY.strftime("%B %Y") in page and DAY.strftime("%A, %B") in page
    assert f"/calendar/{calendar_feed_token(user=client_user)}.ics" in page


def test_the_page_resets_the_address_by_post_only(client, client_user):
    client.force_login(client_user)
    old = calendar_feed_token(user=client_user)
    assert client.get("/calendar/reset").status_code == 405
    response = client.post("/calendar/reset")
    assert response.status_code == 302 and response["Location"] == "/calendar"
    assert calendar_feed_token(user=client_user) != old


def test_an_empty_calendar_says_so(client, client_user):
    client.force_login(client_user)
    assert "No upcoming visits" in client.get("/calendar").content.decode()
