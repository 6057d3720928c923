"""A confirmed arrival time: accepting asks for a time inside the family's window (400 outside,
nothing saved); both sides read "Vera will arrive at 2:00 PM"; the visit starts then, so check-in
opening, the late and missed alerts and the calendar feed run from it."""

from __future__ import annotations

import datetime as dt

import pytest

from bookings.models import Booking, BookingStatus, VisitAlertKind
from bookings.selectors import visit_alert_due
from circles.services import recipient_for_self
from marketplace.testing.api import call
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus, TimeWindow, arrival_choices, arrival_time_problem
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vera(db):
    return VerifiedProviderFactory(user__first_name="Vera")


@pytest.fixture
def afternoon(client_user):
    recipient_for_self(user=client_user)
    return ServiceRequestFactory(client=client_user, preferred_time=TimeWindow.AFTERNOON, estimated_duration=60)


def _accept(client, user, request, **body):
    client.force_login(user)
    return call(client, "POST", f"/api/service-requests/{request.pk}/accept", body)


def test_the_choices_keep_the_whole_visit_inside_the_window():
    choices = arrival_choices(TimeWindow.AFTERNOON, 60)  # 12 PM to 5 PM, one hour
    assert choices[0] == {"value": "12:00", "label": "12:00 PM"}
    assert choices[-1] == {"value": "16:00", "label": "4:00 PM"}
    assert arrival_time_problem(dt.time(16, 0), preferred_time=TimeWindow.AFTERNOON, duration=60) == ""
    assert "between 12:00 PM and 4:00 PM" in arrival_time_problem(
        dt.time(16, 15), preferred_time=TimeWindow.AFTERNOON, duration=60
    )
    assert arrival_time_problem(dt.time(11, 45), preferred_time=TimeWindow.AFTERNOON, duration=60)
    assert arrival_time_problem(dt.time(13, 7), preferred_time=TimeWindow.AFTERNOON, duration=60)
    # A visit longer than its window may only start at the window's start.
    assert arrival_choices(TimeWindow.EVENING, 24 * 60) == [{"value": "17:00", "label": "5:00 PM"}]


def test_accepting_with_an_arrival_time_moves_the_visit_and_both_sides_read_it(client, client_user, vera, afternoon):
    response = _accept(client, vera.user, afternoon, arrivalTime="14:00")
    assert response.status_code == 201, response.json()
    assert response.json()["arrivalTime"] == "14:00"
    assert response.json()["arrivalNote"] == "You will arrive at 2:00 PM"
    booking = Booking.objects.get(pk=response.json()["id"])
    zone = booking.time_zone
    assert booking.starts_at == dt.datetime.combine(afternoon.preferred_date, dt.time(14, 0), tzinfo=zone)
    assert booking.ends_at == booking.starts_at + dt.timedelta(minutes=60)
    # Late 15 minutes after the time she gave, missed once the family's window is over.
    assert booking.check_in_by == booking.starts_at + dt.timedelta(minutes=15)
    assert booking.window_ends_at == dt.datetime.combine(afternoon.preferred_date, dt.time(17, 0), tzinfo=zone)
    booking.status = BookingStatus.CONFIRMED  # paid: the alerts watch it
    late = VisitAlertKind.LATE
    assert not visit_alert_due(booking, late, now=booking.starts_at + dt.timedelta(minutes=10))
    assert visit_alert_due(booking, late, now=booking.starts_at + dt.timedelta(minutes=16))
    # The family reads it on the booking.
    client.force_login(client_user)
    body = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert body["arrivalNote"] == "Vera will arrive at 2:00 PM"
    # Once she is there the "will arrive" is stale: the visit's timeline says when she came.
    Booking.objects.filter(pk=booking.pk).update(checked_in_at=booking.starts_at - dt.timedelta(minutes=5))
    assert call(client, "GET", f"/api/bookings/{booking.pk}").json()["arrivalNote"] is None


def test_an_arrival_outside_the_window_is_a_400_and_nothing_is_saved(client, vera, afternoon):
    for bad in ("11:00", "16:30", "13:07"):
        response = _accept(client, vera.user, afternoon, arrivalTime=bad)
        assert response.status_code == 400, bad
        assert response.json()["errors"]["arrivalTime"], bad
    response = _accept(client, vera.user, afternoon, arrivalTime="2 pm")
    assert response.status_code == 400
    assert "arrivalTime" in response.json()["errors"]
    afternoon.refresh_from_db()
    assert afternoon.status == RequestStatus.OPEN
    assert not Booking.objects.filter(service_request=afternoon).exists()


def test_without_an_arrival_time_the_visit_starts_with_the_window(client, vera, afternoon):
    response = _accept(client, vera.user, afternoon)
    assert response.status_code == 201
    assert response.json()["arrivalTime"] is None and response.json()["arrivalNote"] is None
    booking = Booking.objects.get(pk=response.json()["id"])
    assert booking.starts_at.astimezone(booking.time_zone).time() == dt.time(12, 0)


def test_the_request_offers_the_choices_to_the_helper(client, vera, afternoon):
    client.force_login(vera.user)
    body = call(client, "GET", f"/api/service-requests/{afternoon.pk}").json()
    assert body["arrivalChoices"][0] == {"value": "12:00", "label": "12:00 PM"}
    assert len(body["arrivalChoices"]) == 17  # 12:00 to 4:00 PM, every quarter hour
