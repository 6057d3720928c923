"""One clock per visit: the zone of the person cared for. Her window, the check-in and check-out,
the notices, the emails and the calendar feed all read on it, whoever reads them."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
import time_machine
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import timezone
from icalendar import Calendar

from accounts.tests.factories import UserFactory
from bookings import services
from bookings.models import BookingStatus, PaymentStatus
from bookings.services import calendar_feed_token
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, zone_name
from circles.services import recipient_for_self
from core.errors import InvalidInput
from marketplace.testing.api import call
from messaging.models import Message
from notifications.content import visit_time
from requests_app.models import TimeWindow

CHICAGO = zoneinfo.ZoneInfo("America/Chicago")


@pytest.fixture
def chicago_visit(db):
    """An afternoon visit (12PM - 5PM) for a senior in Chicago, booked by her son on the site's
    (Eastern) clock."""
    son = UserFactory(first_name="Sam")
    recipient = recipient_for_self(user=son)
    recipient.time_zone = "America/Chicago"
    recipient.save(update_fields=["time_zone"])
    return BookingFactory(
        client=son,
        service_request__client=son,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
        service_request__preferred_time=TimeWindow.AFTERNOON,
    )


def _chicago(booking, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(booking.scheduled_date, dt.time(hour, minute), tzinfo=CHICAGO)


def test_a_new_recipient_lives_in_the_site_zone_and_an_unknown_zone_is_refused(db):
    recipient = CareRecipient.objects.create(first_name="Ann")
    assert recipient.time_zone == settings.SITE_TIME_ZONE
    recipient.time_zone = "Mars/Olympus_Mons"
    with pytest.raises(ValidationError):
        recipient.full_clean()
    # Named as people say them; a zone with no name by its offset (Etc/GMT-3 is UTC+3).
    assert [zone_name(z) for z in ("America/Chicago", "Europe/London", "Etc/GMT-3")] == [
        "Central Time",
        "London time",
        "GMT+3",
    ]


def test_the_window_is_on_the_clock_of_the_person_cared_for(client, chicago_visit):
    booking = chicago_visit
    assert booking.starts_at == _chicago(booking, 12)
    assert booking.window_ends_at == _chicago(booking, 17)
    assert booking.check_in_by == _chicago(booking, 16)
    client.force_login(booking.client)
    shown = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert shown["recipient"]["timeZone"] == "America/Chicago"
    assert dt.datetime.fromisoformat(shown["visitStart"]) == _chicago(booking, 12)
    request = call(client, "GET", f"/api/service-requests/{booking.service_request_id}").json()
    assert request["recipient"]["timeZone"] == "America/Chicago"


def test_check_in_notices_and_emails_say_her_clock(chicago_visit):
    booking = chicago_visit
    with time_machine.travel(_chicago(booking, 14), tick=False):
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user)
    notices = Message.objects.filter(receiver=booking.client, sender__isnull=True).values_list("content", flat=True)
    assert any("checked in at 2:00 PM" in text for text in notices)
    when = visit_time(booking)
    assert "at 12:00 PM Central Time (afternoon visit, 12 PM to 5 PM)" in when


def test_the_calendar_feed_puts_each_visit_on_its_recipients_clock(client, chicago_visit):
    booking = chicago_visit
    response = client.get(f"/calendar/{calendar_feed_token(user=booking.client)}.ics")
    calendar = Calendar.from_ical(response.content)
    (event,) = calendar.walk("VEVENT")
    assert str(event["dtstart"].params["TZID"]) == "America/Chicago"
    assert event.decoded("dtstart") == _chicago(booking, 12)
    assert [str(tz["tzid"]) for tz in calendar.walk("VTIMEZONE")] == ["America/Chicago"]
    assert str(calendar["x-wr-timezone"]) == "America/Chicago"


def test_the_calendar_page_names_her_zone_when_it_is_not_the_sites(client, chicago_visit):
    booking = chicago_visit
    client.force_login(booking.client)
    page = client.get(f"/calendar?view=week&date={booking.scheduled_date.isoformat()}")
    assert page.status_code == 200
    assert "12:00 PM</time> to 1:00 PM Central Time" in page.content.decode()


def test_a_new_zone_moves_her_visits_ahead_with_it_and_leaves_the_past(chicago_visit):
    booking = chicago_visit
    past = BookingFactory(
        client=booking.client,
        service_request__client=booking.client,
        status=BookingStatus.COMPLETED,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=10),
    )
    past_start = past.starts_at
    services.recipient_time_zone_set(recipient_id=booking.recipient_id, time_zone="America/Los_Angeles")
    booking.refresh_from_db()
    la = zoneinfo.ZoneInfo("America/Los_Angeles")
    assert booking.starts_at == dt.datetime.combine(booking.scheduled_date, dt.time(12), tzinfo=la)
    assert booking.ends_at - booking.starts_at == dt.timedelta(minutes=booking.duration)
    past.refresh_from_db()
    assert past.starts_at == past_start
    with pytest.raises(InvalidInput):
        services.recipient_time_zone_set(recipient_id=booking.recipient_id, time_zone="Nowhere/Town")


def test_every_visit_of_a_series_is_on_her_clock(db):
    from providers.tests.factories import VerifiedProviderFactory
    from requests_app.tests.factories import ServiceRequestFactory

    son = UserFactory()
    recipient = recipient_for_self(user=son)
    recipient.time_zone = "America/Chicago"
    recipient.save(update_fields=["time_zone"])
    request = ServiceRequestFactory(
        client=son,
        preferred_date=timezone.localdate() + dt.timedelta(days=3),
        preferred_time=TimeWindow.EVENING,
        repeat="weekly",
        repeat_count=3,
    )
    helper = VerifiedProviderFactory()
    first = services.service_request_accept(service_request_id=request.pk, actor=helper.user)
    visits = list(first.service_request.bookings.order_by("series_index"))
    assert len(visits) == 3
    for visit in visits:
        assert visit.starts_at == dt.datetime.combine(visit.scheduled_date, dt.time(17), tzinfo=CHICAGO)


def test_the_days_lists_hold_the_visits_dated_that_day_on_her_clock(client, admin_user):
    # A morning visit in Tokyo begins the evening before on the site's (Eastern) clock: still its day's.
    son = UserFactory()
    recipient = recipient_for_self(user=son)
    recipient.time_zone = "Asia/Tokyo"
    recipient.save(update_fields=["time_zone"])
    day = timezone.localdate() + dt.timedelta(days=2)
    morning = BookingFactory(
        client=son,
        service_request__client=son,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=day,
        service_request__preferred_time=TimeWindow.MORNING,
    )
    assert timezone.localtime(morning.starts_at).date() == day - dt.timedelta(days=1)
    client.force_login(admin_user)
    with time_machine.travel(dt.datetime.combine(day, dt.time(9), tzinfo=zoneinfo.ZoneInfo(settings.TIME_ZONE))):
        listed = call(client, "GET", "/api/admin/today").json()
    assert [visit["id"] for visit in listed] == [morning.pk]


def test_her_zone_follows_her_zip_code_and_her_visits_ahead_move_with_it(client, chicago_visit):
    """The organizer gives her address on the Care circle page: a Denver ZIP code puts her on Mountain
    time, and the afternoon visit stays 12PM - 5PM on her clock; a ZIP the list does not know
    changes nothing."""
    booking = chicago_visit
    client.force_login(booking.client)
    url = f"/api/care-recipients/{booking.recipient_id}"
    address = {"street": "1 Main Street", "town": "Denver", "state": "CO", "zipCode": "80202"}
    response = call(client, "PATCH", url, address)
    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    denver = zoneinfo.ZoneInfo("America/Denver")
    assert booking.starts_at == dt.datetime.combine(booking.scheduled_date, dt.time(12), tzinfo=denver)
    assert CareRecipient.objects.get(pk=booking.recipient_id).time_zone == "America/Denver"
    # A new recipient created with an address is on its ZIP's clock from the start.
    created = call(client, "POST", "/api/care-recipients", {"firstName": "Rosa", **address, "zipCode": "90012"})
    assert created.status_code == 201, created.content
    assert CareRecipient.objects.get(pk=created.json()["id"]).time_zone == "America/Los_Angeles"
    # A ZIP code the list does not know keeps her zone (and is refused as unknown).
    unknown = call(client, "PATCH", url, {**address, "zipCode": "00000"})
    assert unknown.status_code == 400
    assert CareRecipient.objects.get(pk=booking.recipient_id).time_zone == "America/Denver"


def test_a_zone_move_that_makes_her_helpers_visits_overlap_changes_nothing(client, chicago_visit):
    """Her helper has another visit right after hers, on the site's clock: moving her visit an hour
    later would overlap it, so the address change is refused (409) and nothing is saved."""
    booking = chicago_visit
    services.recipient_time_zone_set(recipient_id=booking.recipient_id, time_zone="America/New_York")
    booking.refresh_from_db()
    other = BookingFactory(
        provider=booking.provider,
        status=BookingStatus.CONFIRMED,
        service_request__preferred_date=booking.scheduled_date,
        service_request__preferred_time=TimeWindow.EVENING,
    )
    type(other).objects.filter(pk=other.pk).update(
        starts_at=booking.ends_at, ends_at=booking.ends_at + dt.timedelta(hours=1)
    )
    before = booking.starts_at
    client.force_login(booking.client)
    response = call(
        client,
        "PATCH",
        f"/api/care-recipients/{booking.recipient_id}",
        {"street": "1 Main Street", "town": "Springfield", "state": "IL", "zipCode": "62701"},
    )
    assert response.status_code == 409, response.content
    assert "overlap" in response.json()["message"]
    recipient = CareRecipient.objects.get(pk=booking.recipient_id)
    assert (recipient.time_zone, recipient.zip_code) == ("America/New_York", "")
    booking.refresh_from_db()
    assert booking.starts_at == before
