"""Recurring visits: the series' dates, and the rules of a repeat on create
and edit (a 400 on the field, nothing saved)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from marketplace.testing.api import call, valid_request_body
from requests_app.models import Repeat, ServiceRequest
from requests_app.series import series_dates
from requests_app.tests.factories import ServiceRequestFactory

D = dt.date


def test_weekly_and_every_two_weeks_keep_the_weekday():
    first = D(2026, 12, 1)  # a Tuesday
    assert series_dates(first, Repeat.WEEKLY, count=4) == [
        D(2026, 12, 1),
        D(2026, 12, 8),
        D(2026, 12, 15),
        D(2026, 12, 22),
    ]
    assert series_dates(first, Repeat.EVERY_2_WEEKS, count=3) == [D(2026, 12, 1), D(2026, 12, 15), D(2026, 12, 29)]


def test_monthly_is_the_same_weekday_of_the_same_week():
    # The 2nd Tuesday of each month.
    assert series_dates(D(2026, 12, 8), Repeat.MONTHLY, count=4) == [
        D(2026, 12, 8),
        D(2027, 1, 12),
        D(2027, 2, 9),
        D(2027, 3, 9),
    ]


def test_monthly_from_a_fifth_weekday_takes_the_last_one_in_shorter_months():
    # December 29, 2026 is the 5th Tuesday; January 2027 has none beyond the 26th... it does not:
    # its Tuesdays are 5, 12, 19, 26 -> the last one; March 2027 has a 5th (the 30th).
    assert series_dates(D(2026, 12, 29), Repeat.MONTHLY, count=4) == [
        D(2026, 12, 29),
        D(2027, 1, 26),
        D(2027, 2, 23),
        D(2027, 3, 30),
    ]
    assert all(day.weekday() == 1 for day in series_dates(D(2026, 12, 29), Repeat.MONTHLY, count=12))


def test_until_takes_the_visits_on_or_before_the_end_date():
    first = D(2026, 12, 1)
    assert series_dates(first, Repeat.WEEKLY, until=D(2026, 12, 22)) == series_dates(first, Repeat.WEEKLY, count=4)
    assert series_dates(first, Repeat.WEEKLY, until=D(2026, 12, 21)) == series_dates(first, Repeat.WEEKLY, count=3)
    assert series_dates(D(2026, 12, 8), Repeat.MONTHLY, until=D(2027, 3, 8)) == [
        D(2026, 12, 8),
        D(2027, 1, 12),
        D(2027, 2, 9),
    ]
    assert series_dates(first, "", count=None) == [first]


def _first_tuesday_ahead(days: int = 10) -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=days)
    return day + dt.timedelta(days=(1 - day.weekday()) % 7)


def _post(client, **fields):
    return call(client, "POST", "/api/service-requests", valid_request_body(**fields))


def test_a_weekly_series_is_created_with_its_visit_dates(client, client_user):
    client.force_login(client_user)
    first = _first_tuesday_ahead()
    response = _post(client, preferredDate=first.isoformat(), repeat="weekly", repeatCount=4)
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["repeat"], body["repeatCount"], body["repeatUntil"]) == ("weekly", 4, None)
    assert body["visitDates"] == [(first + dt.timedelta(days=7 * k)).isoformat() for k in range(4)]


@pytest.mark.parametrize(
    ("fields", "field", "message"),
    [
        ({"repeatCount": 27}, "repeatCount", "A series can have at most 26 visits; this one would have 27."),
        ({"repeatCount": 1}, "repeatCount", "A series needs at least 2 visits."),
        ({}, "repeatCount", "Choose how many visits, or the date of the last one."),
        (
            {"repeatCount": 3, "repeatUntil": "FIRST+30"},
            "repeatUntil",
            "Choose either a number of visits or an end date, not both.",
        ),
        ({"repeatUntil": "FIRST-1"}, "repeatUntil", "The end date must be after the first visit."),
        ({"repeatUntil": "FIRST+0"}, "repeatUntil", "The end date must be after the first visit."),
        ({"repeatUntil": "FIRST+3"}, "repeatUntil", "This end date leaves only one visit: choose a later date."),
        (
            {"repeatUntil": "FIRST+182"},
            "repeatUntil",
            "A series can have at most 26 visits; this one would have 27.",
        ),
        ({"repeat": "daily", "repeatCount": 3}, "repeat", "Repeat must be weekly, every 2 weeks or monthly."),
    ],
)
def test_a_bad_repeat_is_a_400_on_its_field_and_nothing_is_saved(client, client_user, fields, field, message):
    client.force_login(client_user)
    first = _first_tuesday_ahead()
    for name, value in list(fields.items()):
        if isinstance(value, str) and value.startswith("FIRST"):
            fields[name] = (first + dt.timedelta(days=int(value[5:]))).isoformat()
    response = _post(client, preferredDate=first.isoformat(), **{"repeat": "weekly", **fields})
    assert response.status_code == 400, response.content
    assert response.json()["errors"][field] == [message]
    assert not ServiceRequest.objects.exists()


def test_a_repeating_request_without_a_date_is_told_what_the_date_is_for(client, client_user):
    client.force_login(client_user)
    body = valid_request_body(repeat="weekly", repeatCount=3)
    body.pop("preferredDate")
    response = call(client, "POST", "/api/service-requests", body)
    assert response.status_code == 400
    assert response.json()["errors"]["preferredDate"] == ["A repeating request needs the date of its first visit."]
    response = call(client, "POST", "/api/service-requests", {**body, "preferredDate": None})
    assert response.json()["errors"]["preferredDate"] == ["A repeating request needs the date of its first visit."]
    assert not ServiceRequest.objects.exists()


@pytest.mark.parametrize(
    "fields", [{"repeatCount": 3}, {"repeatUntil": "2027-01-05"}, {"repeat": "", "repeatCount": 2}]
)
def test_an_end_without_a_repeat_is_a_400(client, client_user, fields):
    client.force_login(client_user)
    response = _post(client, preferredDate=_first_tuesday_ahead().isoformat(), **fields)
    assert response.status_code == 400
    field = next(name for name in fields if name != "repeat")
    assert response.json()["errors"][field] == ["Choose how often the visits repeat first."]
    assert not ServiceRequest.objects.exists()


def test_an_edit_is_checked_with_the_series_as_it_would_become(client, client_user):
    client.force_login(client_user)
    first = _first_tuesday_ahead()
    request = ServiceRequestFactory(
        client=client_user, preferred_date=first, repeat=Repeat.WEEKLY, repeat_until=first + dt.timedelta(days=21)
    )
    body = {
        "title": request.title,
        "description": request.description,
        "categoryId": request.category_id,
        "location": request.location,
    }
    # An end date 26 weeks after the first visit is 27 visits.
    response = call(
        client,
        "PUT",
        f"/api/service-requests/{request.pk}",
        {**body, "repeatUntil": (first + dt.timedelta(weeks=26)).isoformat()},
    )
    assert response.status_code == 400
    assert response.json()["errors"]["repeatUntil"] == ["A series can have at most 26 visits; this one would have 27."]
    # Clearing the first date of a repeating request.
    response = call(client, "PUT", f"/api/service-requests/{request.pk}", {**body, "preferredDate": None})
    assert response.json()["errors"]["preferredDate"] == ["A repeating request needs the date of its first visit."]
    request.refresh_from_db()
    assert (request.preferred_date, request.repeat_until) == (first, first + dt.timedelta(days=21))
    # Every 2 weeks for 5 visits instead.
    response = call(
        client,
        "PUT",
        f"/api/service-requests/{request.pk}",
        {**body, "repeat": "every_2_weeks", "repeatCount": 5, "repeatUntil": None},
    )
    assert response.status_code == 200, response.content
    assert len(response.json()["visitDates"]) == 5
    # No longer repeating.
    response = call(client, "PUT", f"/api/service-requests/{request.pk}", {**body, "repeat": "", "repeatCount": None})
    assert response.status_code == 200
    assert response.json()["visitDates"] == [first.isoformat()]
