"""Time off and weekly hours never drop a booked visit in silence: adding time off over a day with a
scheduled or confirmed visit, or saving hours that leave one outside, is a 409 naming the visit and
what to do instead, and nothing is saved."""

from __future__ import annotations

import datetime as dt

import pytest

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from providers.models import TimeOff, WeeklyHours
from requests_app.tests.factories import ServiceRequestFactory

SCHEDULE = "/api/providers/me/schedule"
TIME_OFF = "/api/providers/me/time-off"

_today = dt.date.today()
TUESDAY = _today + dt.timedelta(days=14 + (1 - _today.weekday()) % 7)


def _visit(provider, *, day=TUESDAY, window="afternoon", minutes=120, status=BookingStatus.CONFIRMED, name="Clara"):
    request = ServiceRequestFactory(preferred_date=day, preferred_time=window, estimated_duration=minutes)
    request.recipient.first_name = name
    request.recipient.save()
    return BookingFactory(service_request=request, provider=provider, status=status)


def _words(day: dt.date) -> str:
    return f"{day:%a, %b} {day.day}"


@pytest.mark.django_db
def test_time_off_over_a_booked_visit_is_a_409_naming_it(client, verified_provider):
    _visit(verified_provider)
    client.force_login(verified_provider.user)
    response = call(
        client,
        "POST",
        TIME_OFF,
        {"firstDay": (TUESDAY - dt.timedelta(days=1)).isoformat(), "lastDay": TUESDAY.isoformat(), "note": ""},
    )
    assert response.status_code == 409, response.content
    assert response.json()["message"] == (
        f"You have a visit with Clara on {_words(TUESDAY)}, 12 PM-2 PM. "
        "Ask Kindly support to reassign it first, or choose other dates."
    )
    assert not TimeOff.objects.exists()


@pytest.mark.django_db
def test_time_off_around_cancelled_or_other_days_visits_is_fine(client, verified_provider):
    _visit(verified_provider, status=BookingStatus.CANCELLED)
    _visit(verified_provider, day=TUESDAY + dt.timedelta(days=1), status=BookingStatus.SCHEDULED)
    client.force_login(verified_provider.user)
    body = {"firstDay": TUESDAY.isoformat(), "lastDay": TUESDAY.isoformat(), "note": ""}
    assert call(client, "POST", TIME_OFF, body).status_code == 201
    # The scheduled (not yet paid) visit the next day holds the day too.
    next_day = (TUESDAY + dt.timedelta(days=1)).isoformat()
    response = call(client, "POST", TIME_OFF, {"firstDay": next_day, "lastDay": next_day, "note": ""})
    assert response.status_code == 409
    assert "You have a visit with Clara" in response.json()["message"]


@pytest.mark.django_db
def test_hours_that_leave_a_booked_visit_outside_are_a_409_and_nothing_changes(client, verified_provider):
    _visit(verified_provider, window="morning", minutes=60, name="Ruth")
    WeeklyHours.objects.create(provider=verified_provider, weekday=1, start_time=dt.time(8), end_time=dt.time(17))
    client.force_login(verified_provider.user)
    afternoons = {"weeklyHours": [{"weekday": 1, "startTime": "12:00", "endTime": "17:00"}]}
    response = call(client, "PUT", SCHEDULE, afternoons)
    assert response.status_code == 409, response.content
    assert response.json()["message"] == (
        f"You have a visit with Ruth on {_words(TUESDAY)}, 8 AM-9 AM. "
        "Ask Kindly support to reassign it first, or keep hours that cover it."
    )
    assert list(WeeklyHours.objects.filter(provider=verified_provider).values_list("start_time", flat=True)) == [
        dt.time(8)
    ]
    # Hours that still cover it, or none at all (available any time), are saved.
    covering = {"weeklyHours": [{"weekday": 1, "startTime": "08:00", "endTime": "12:00"}]}
    assert call(client, "PUT", SCHEDULE, covering).status_code == 200
    assert call(client, "PUT", SCHEDULE, {"weeklyHours": []}).status_code == 200


@pytest.mark.django_db
def test_the_django_admin_keeps_the_same_rule(client, admin_user, verified_provider):
    _visit(verified_provider)
    client.force_login(admin_user)
    day = TUESDAY.isoformat()
    form = {"provider": verified_provider.pk, "first_day": day, "last_day": day, "note": ""}
    refused = client.post("/django-admin/providers/timeoff/add/", form)
    assert refused.status_code == 200  # the form again, with the message
    assert "Ask Kindly support to reassign it first" in refused.content.decode()
    assert not TimeOff.objects.exists()
    hours = {"provider": verified_provider.pk, "weekday": 1, "start_time": "08:00", "end_time": "12:00"}
    refused = client.post("/django-admin/providers/weeklyhours/add/", hours)
    assert refused.status_code == 200
    assert "keep hours that cover it" in refused.content.decode()
    assert not WeeklyHours.objects.exists()
    hours["end_time"] = "17:00"
    assert client.post("/django-admin/providers/weeklyhours/add/", hours).status_code == 302
