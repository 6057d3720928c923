"""A provider's availability: weekly hours and time off, their rules (each 400,
the 403 for others), the browse filter and next free window, and accept outside the hours (409)."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
import time_machine
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from bookings.models import Booking
from bookings.tests.factories import BookingFactory
from core import listcache
from core.errors import PermissionDenied
from marketplace.testing.api import call
from providers import services
from providers.models import VISIT_WINDOWS, TimeOff, WeeklyHours
from providers.selectors import is_available, next_free_window
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import WINDOW_START, RequestStatus, ServiceRequest, TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

ZONE = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
# A Monday well ahead (the clock is set to 6 AM on it where "now" matters).
_today = dt.date.today()
MONDAY = _today + dt.timedelta(days=14 + (7 - _today.weekday()) % 7)
TUESDAY = MONDAY + dt.timedelta(days=1)
SIX_AM = dt.datetime.combine(MONDAY, dt.time(6, 0), tzinfo=ZONE)

SCHEDULE = "/api/providers/me/schedule"
TIME_OFF = "/api/providers/me/time-off"


def _at(day: dt.date, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(day, dt.time(hour, minute), tzinfo=ZONE)


def _hours(provider, *windows):
    WeeklyHours.objects.bulk_create(
        WeeklyHours(provider=provider, weekday=day, start_time=dt.time(a), end_time=dt.time(b)) for day, a, b in windows
    )


def test_visit_windows_match_the_requests_windows():
    for window, (start, _end) in VISIT_WINDOWS.items():
        assert WINDOW_START[TimeWindow(window)] == start


# ---------------------------------------------------------------- weekly hours


@pytest.mark.django_db
def test_provider_sets_the_whole_week_and_reads_it_back(client, verified_provider):
    client.force_login(verified_provider.user)
    _hours(verified_provider, (4, 8, 12))  # replaced by the PUT
    body = {
        "weeklyHours": [
            {"weekday": 1, "startTime": "13:00", "endTime": "17:00"},
            {"weekday": 1, "startTime": "08:00", "endTime": "12:00"},
            {"weekday": 3, "startTime": "09:15", "endTime": "11:45"},
        ]
    }
    response = call(client, "PUT", SCHEDULE, body)
    assert response.status_code == 200, response.content
    assert response.json()["weeklyHours"] == [
        {"weekday": 1, "startTime": "08:00", "endTime": "12:00"},
        {"weekday": 1, "startTime": "13:00", "endTime": "17:00"},
        {"weekday": 3, "startTime": "09:15", "endTime": "11:45"},
    ]
    assert call(client, "GET", SCHEDULE).json() == response.json()
    assert not WeeklyHours.objects.filter(provider=verified_provider, weekday=4).exists()
    assert call(client, "PUT", SCHEDULE, {"weeklyHours": []}).json()["weeklyHours"] == []
    assert not WeeklyHours.objects.filter(provider=verified_provider).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("windows", "field", "message"),
    [
        (
            [{"weekday": 0, "startTime": "12:00", "endTime": "09:00"}],
            "weeklyHours.0.endTime",
            services.END_BEFORE_START,
        ),
        (
            [{"weekday": 0, "startTime": "09:00", "endTime": "09:00"}],
            "weeklyHours.0.endTime",
            services.END_BEFORE_START,
        ),
        (
            [
                {"weekday": 2, "startTime": "08:00", "endTime": "12:00"},
                {"weekday": 2, "startTime": "11:30", "endTime": "14:00"},
            ],
            "weeklyHours.1.startTime",
            "This overlaps another window on Wednesday.",
        ),
        (
            [
                {"weekday": 5, "startTime": "08:00", "endTime": "18:00"},
                {"weekday": 5, "startTime": "09:00", "endTime": "10:00"},
                {"weekday": 5, "startTime": "12:00", "endTime": "13:00"},
            ],
            "weeklyHours.2.startTime",
            "This overlaps another window on Saturday.",
        ),
        (
            [{"weekday": 0, "startTime": "09:10", "endTime": "12:00"}],
            "weeklyHours.0.startTime",
            services.TIME_NOT_IN_STEPS,
        ),
        ([{"weekday": 7, "startTime": "09:00", "endTime": "12:00"}], "weeklyHours.0.weekday", services.WEEKDAY_UNKNOWN),
        (
            [{"weekday": 1, "startTime": "9 am", "endTime": "12:00"}],
            "weeklyHours.0.startTime",
            "Please enter a time like 09:30.",
        ),
    ],
)
def test_bad_weekly_hours_are_a_400_on_the_field_and_nothing_changes(
    client, verified_provider, windows, field, message
):
    _hours(verified_provider, (4, 8, 12))
    client.force_login(verified_provider.user)
    response = call(client, "PUT", SCHEDULE, {"weeklyHours": windows})
    assert response.status_code == 400, response.content
    assert response.json()["errors"][field] == [message]
    if len(response.json()["errors"]) == 1:
        assert response.json()["message"] == message
    assert list(WeeklyHours.objects.filter(provider=verified_provider).values_list("weekday", flat=True)) == [4]


@pytest.mark.django_db
def test_the_same_hours_on_different_days_and_back_to_back_windows_are_fine(verified_provider):
    windows = [
        {"weekday": 0, "start_time": dt.time(8), "end_time": dt.time(12)},
        {"weekday": 0, "start_time": dt.time(12), "end_time": dt.time(17)},
        {"weekday": 1, "start_time": dt.time(8), "end_time": dt.time(12)},
    ]
    services.schedule_set_weekly_hours(provider=verified_provider, actor=verified_provider.user, windows=windows)
    assert WeeklyHours.objects.filter(provider=verified_provider).count() == 3


# ---------------------------------------------------------------- who may


@pytest.mark.django_db
def test_only_the_provider_themself_edits_their_schedule(client, client_user, verified_provider):
    client.force_login(client_user)
    for method, url, body in [
        ("GET", SCHEDULE, None),
        ("PUT", SCHEDULE, {"weeklyHours": []}),
        ("POST", TIME_OFF, {"firstDay": MONDAY.isoformat(), "lastDay": MONDAY.isoformat()}),
        ("DELETE", f"{TIME_OFF}/1", None),
    ]:
        response = call(client, method, url, body)
        assert response.status_code == 403, (method, url)
        assert response.json()["message"] == services.NOT_A_PROVIDER
    other = VerifiedProviderFactory()
    with pytest.raises(PermissionDenied):
        services.schedule_set_weekly_hours(provider=verified_provider, actor=other.user, windows=[])
    with pytest.raises(PermissionDenied):
        services.time_off_add(provider=verified_provider, actor=other.user, first_day=MONDAY, last_day=MONDAY)
    client.logout()
    assert call(client, "GET", SCHEDULE).status_code == 401


# ---------------------------------------------------------------- time off


@pytest.mark.django_db
def test_time_off_is_added_listed_and_removed(client, verified_provider):
    client.force_login(verified_provider.user)
    body = {"firstDay": MONDAY.isoformat(), "lastDay": TUESDAY.isoformat(), "note": "  Family visit "}
    response = call(client, "POST", TIME_OFF, body)
    assert response.status_code == 201, response.content
    created = response.json()
    assert created == {
        "id": created["id"],
        "firstDay": MONDAY.isoformat(),
        "lastDay": TUESDAY.isoformat(),
        "note": "Family visit",
    }
    assert call(client, "GET", SCHEDULE).json()["timeOff"] == [created]
    assert call(client, "DELETE", f"{TIME_OFF}/{created['id']}").status_code == 204
    assert not TimeOff.objects.exists()


@pytest.mark.django_db
def test_bad_time_off_is_a_400_on_the_field_and_nothing_saved(client, verified_provider):
    TimeOff.objects.create(provider=verified_provider, first_day=MONDAY, last_day=MONDAY + dt.timedelta(days=2))
    client.force_login(verified_provider.user)
    friday = MONDAY + dt.timedelta(days=4)
    cases = [
        (
            {"firstDay": TUESDAY.isoformat(), "lastDay": friday.isoformat()},
            "firstDay",
            f"This overlaps time off you already have ({MONDAY:%B} {MONDAY.day}, {MONDAY.year} to "
            f"{MONDAY + dt.timedelta(days=2):%B} {(MONDAY + dt.timedelta(days=2)).day}, "
            f"{(MONDAY + dt.timedelta(days=2)).year}).",
        ),
        ({"firstDay": friday.isoformat(), "lastDay": TUESDAY.isoformat()}, "lastDay", services.LAST_BEFORE_FIRST),
        (
            {"firstDay": (_today - dt.timedelta(days=1)).isoformat(), "lastDay": _today.isoformat()},
            "firstDay",
            services.FIRST_DAY_PAST,
        ),
        ({"firstDay": "next week", "lastDay": friday.isoformat()}, "firstDay", "Please enter the date as YYYY-MM-DD."),
        ({"lastDay": friday.isoformat()}, "firstDay", "Please choose the first day."),
        (
            {"firstDay": friday.isoformat(), "lastDay": friday.isoformat(), "note": "x" * 201},
            "note",
            services.NOTE_TOO_LONG,
        ),
    ]
    for body, field, message in cases:
        response = call(client, "POST", TIME_OFF, body)
        assert response.status_code == 400, body
        assert response.json()["errors"][field] == [message], body
    assert TimeOff.objects.count() == 1
    # The day after the time off is free to take.
    day_after = MONDAY + dt.timedelta(days=3)
    ok = call(client, "POST", TIME_OFF, {"firstDay": day_after.isoformat(), "lastDay": day_after.isoformat()})
    assert ok.status_code == 201


@pytest.mark.django_db
def test_another_providers_time_off_cannot_be_removed(client, verified_provider):
    theirs = TimeOff.objects.create(provider=VerifiedProviderFactory(), first_day=MONDAY, last_day=MONDAY)
    client.force_login(verified_provider.user)
    assert call(client, "DELETE", f"{TIME_OFF}/{theirs.pk}").status_code == 404
    assert TimeOff.objects.filter(pk=theirs.pk).exists()


# ---------------------------------------------------------------- is_available


@pytest.mark.django_db
def test_no_weekly_hours_means_available_any_time_but_time_off_still_counts(verified_provider):
    assert is_available(verified_provider, _at(MONDAY, 3), _at(MONDAY, 4))
    assert is_available(verified_provider, _at(TUESDAY, 21), _at(TUESDAY, 23))
    TimeOff.objects.create(provider=verified_provider, first_day=TUESDAY, last_day=TUESDAY)
    assert not is_available(verified_provider, _at(TUESDAY, 9), _at(TUESDAY, 10))
    assert is_available(verified_provider, _at(MONDAY, 9), _at(MONDAY, 10))


@pytest.mark.django_db
def test_available_only_inside_a_weekly_window(verified_provider):
    _hours(verified_provider, (0, 8, 12), (0, 13, 17))
    assert is_available(verified_provider, _at(MONDAY, 8), _at(MONDAY, 12))
    assert is_available(verified_provider, _at(MONDAY, 13, 30), _at(MONDAY, 14, 30))
    assert not is_available(verified_provider, _at(MONDAY, 11), _at(MONDAY, 13))  # across the gap
    assert not is_available(verified_provider, _at(MONDAY, 7, 45), _at(MONDAY, 8, 45))
    assert not is_available(verified_provider, _at(TUESDAY, 9), _at(TUESDAY, 10))  # no hours on Tuesday


# ---------------------------------------------------------------- accept (bookings)


def _open_request(day=MONDAY, window="morning", duration=60):
    return ServiceRequestFactory(preferred_date=day, preferred_time=window, estimated_duration=duration)


@pytest.mark.django_db
def test_accepting_outside_ones_hours_is_a_409_and_nothing_is_saved(client, verified_provider):
    _hours(verified_provider, (0, 12, 17))  # Monday afternoons only
    request = _open_request(MONDAY, "morning")
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
    assert response.status_code == 409
    assert response.json()["message"] == "This visit is outside your available hours."
    assert not Booking.objects.exists()
    assert ServiceRequest.objects.get(pk=request.pk).status == RequestStatus.OPEN
    # Inside the hours it goes through.
    afternoon = _open_request(MONDAY, "afternoon", 120)
    assert call(client, "POST", f"/api/service-requests/{afternoon.pk}/accept").status_code == 201


@pytest.mark.django_db
def test_accepting_on_time_off_is_a_409_even_without_weekly_hours(client, verified_provider):
    TimeOff.objects.create(provider=verified_provider, first_day=MONDAY, last_day=MONDAY)
    request = _open_request(MONDAY, "evening")
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
    assert response.status_code == 409
    assert response.json()["message"] == "This visit is on your time off."  # not "outside your hours"
    assert not Booking.objects.exists()
    assert call(client, "POST", f"/api/service-requests/{_open_request(TUESDAY).pk}/accept").status_code == 201


# ---------------------------------------------------------------- browse


@pytest.fixture
def browse(db):
    mornings = VerifiedProviderFactory(user__first_name="Mornings")
    _hours(mornings, (0, 8, 12), (1, 8, 12))
    evenings = VerifiedProviderFactory(user__first_name="Evenings")
    _hours(evenings, (0, 17, 20))
    anytime = VerifiedProviderFactory(user__first_name="Anytime")
    away = VerifiedProviderFactory(user__first_name="Away")
    TimeOff.objects.create(provider=away, first_day=MONDAY, last_day=MONDAY + dt.timedelta(days=20))
    return {"mornings": mornings, "evenings": evenings, "anytime": anytime, "away": away}


def _names(client, query):
    response = call(client, "GET", f"/api/providers?{query}")
    assert response.status_code == 200, response.content
    return {p["user"]["firstName"] for p in response.json()}


def test_browse_filters_on_a_date_and_time_window(client, browse):
    day = MONDAY.isoformat()
    assert _names(client, f"availableOn={day}&timeWindow=morning") == {"Mornings", "Anytime"}
    assert _names(client, f"availableOn={day}&timeWindow=evening") == {"Evenings", "Anytime"}
    assert _names(client, f"availableOn={day}&timeWindow=afternoon") == {"Anytime"}
    assert _names(client, f"availableOn={day}") == {"Mornings", "Evenings", "Anytime"}
    assert _names(client, f"availableOn={TUESDAY.isoformat()}&timeWindow=evening") == {"Anytime"}
    assert _names(client, "") == {"Mornings", "Evenings", "Anytime", "Away"}
    # A visit in that window takes the provider out of it.
    BookingFactory(provider=browse["mornings"], service_request=_open_request(MONDAY, "morning"))
    assert _names(client, f"availableOn={day}&timeWindow=morning") == {"Anytime"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("availableOn=2026-13-40", "availableOn", "Please enter the date as YYYY-MM-DD."),
        ("availableOn=tuesday", "availableOn", "Please enter the date as YYYY-MM-DD."),
        (
            f"availableOn={MONDAY.isoformat()}&timeWindow=night",
            "timeWindow",
            "Please choose morning, afternoon or evening.",
        ),
        ("timeWindow=morning", "availableOn", "Please choose a date for the time of day."),
        ("availableOn=2020-01-06", "availableOn", "Please choose today or a later date."),
    ],
)
def test_bad_browse_filters_are_a_400_with_a_plain_message(client, query, field, message):
    response = call(client, "GET", f"/api/providers?{query}")
    assert response.status_code == 400
    assert response.json()["errors"][field] == [message]


def _cards(client):
    listcache.forget()  # the cached page lives by the real clock, not the travelled one
    return {p["user"]["firstName"]: p["nextFreeWindow"] for p in call(client, "GET", "/api/providers").json()}


def test_each_card_shows_the_next_free_window(client, browse):
    with time_machine.travel(SIX_AM, tick=False):
        cards = _cards(client)
    assert cards["Mornings"] == {"date": MONDAY.isoformat(), "timeWindow": "morning"}
    assert cards["Evenings"] == {"date": MONDAY.isoformat(), "timeWindow": "evening"}
    assert cards["Anytime"] == {"date": MONDAY.isoformat(), "timeWindow": "morning"}
    assert cards["Away"] is None  # time off for the whole two weeks


def test_a_booking_in_the_only_window_that_day_moves_the_next_free_window_to_the_next_day(client, browse):
    BookingFactory(provider=browse["mornings"], service_request=_open_request(MONDAY, "morning", 120))
    with time_machine.travel(SIX_AM, tick=False):
        cards = _cards(client)
        assert next_free_window(browse["mornings"]) == {"date": TUESDAY, "time_window": "morning"}
    assert cards["Mornings"] == {"date": TUESDAY.isoformat(), "timeWindow": "morning"}
    # A window that has started is not offered: at 5:30 PM on Monday the evening provider is next free a week later.
    with time_machine.travel(_at(MONDAY, 17, 30), tick=False):
        assert _cards(client)["Evenings"] == {
            "date": (MONDAY + dt.timedelta(days=7)).isoformat(),
            "timeWindow": "evening",
        }


def test_the_browse_list_takes_a_fixed_number_of_queries(client, browse):
    def count() -> int:
        listcache.forget()
        with CaptureQueriesContext(connection) as ctx:
            assert call(client, "GET", "/api/providers").status_code == 200
        return len(ctx.captured_queries)

    few = count()
    for _ in range(6):
        provider = VerifiedProviderFactory()
        _hours(provider, (0, 8, 12), (2, 12, 17))
        TimeOff.objects.create(provider=provider, first_day=TUESDAY, last_day=TUESDAY)
        BookingFactory(provider=provider, service_request=_open_request(MONDAY, "morning"))
    assert count() == few
    assert few <= 6  # the count, the page, one query each for the hours, time off and visits, and completions
