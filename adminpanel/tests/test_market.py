"""/admin's Market tab: the fill rate (booked within a day of being posted), the median time to
accept and the unfilled requests by area, over the last 7 and 30 days, from requests and bookings
made at known times."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from adminpanel.selectors import market_summary
from bookings.models import Replacement, ReplacementCause, ReplacementState
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

NOW = timezone.now().replace(microsecond=0)


def _posted(
    ago: dt.timedelta,
    *,
    booked_after: dt.timedelta | None = None,
    zip_code="62704",
    town="Springfield",
    state="IL",
    status=RequestStatus.OPEN,
) -> ServiceRequest:
    request = ServiceRequestFactory(zip_code=zip_code, town=town, state=state)
    ServiceRequest.all_objects.filter(pk=request.pk).update(created_at=NOW - ago, status=status)
    if booked_after is not None:
        booking = BookingFactory(service_request=request)
        type(booking).objects.filter(pk=booking.pk).update(created_at=NOW - ago + booked_after)
        ServiceRequest.all_objects.filter(pk=request.pk).update(status=RequestStatus.BOOKED)
    return request


@pytest.fixture
def market():
    days, hours, minutes = dt.timedelta(days=1), dt.timedelta(hours=1), dt.timedelta(minutes=1)
    _posted(2 * days, booked_after=30 * minutes)  # filled in half an hour
    _posted(3 * days, booked_after=90 * minutes, zip_code="62701")  # filled in an hour and a half
    _posted(4 * days, booked_after=30 * hours, zip_code="62701")  # taken, but after a day: unfilled
    _posted(5 * days)  # nobody took it: unfilled
    _posted(2 * hours)  # posted two hours ago: not judged yet
    _posted(10 * days, booked_after=10 * minutes)  # the 30 days only
    _posted(20 * days, zip_code="60601", town="Chicago", status=RequestStatus.CANCELLED)  # the family gave up
    _posted(40 * days, booked_after=5 * minutes)  # older than both periods
    _posted(2 * days, status=RequestStatus.DELETED)  # deleted by its family: not counted
    # Booked helpers who left: two searches this week (one found), one three weeks ago (unfilled).
    _replacement(1 * days, ReplacementState.FOUND)
    _replacement(3 * days, ReplacementState.SEEKING)
    _replacement(21 * days, ReplacementState.UNFILLED)
    _replacement(45 * days, ReplacementState.FOUND)  # older than both periods


def _replacement(ago: dt.timedelta, state: str) -> Replacement:
    booking = BookingFactory()
    # Its request was posted long ago: the replacement alone counts here.
    ServiceRequest.all_objects.filter(pk=booking.service_request_id).update(created_at=NOW - dt.timedelta(days=60))
    return Replacement.objects.create(
        booking=booking,
        left_provider=booking.provider,
        cause=ReplacementCause.HELPER_CANCELLED,
        state=state,
        started_at=NOW - ago,
        deadline=NOW - ago + dt.timedelta(hours=12),
    )


def test_fill_rate_median_and_unfilled_areas_over_7_and_30_days(market, django_assert_max_num_queries):
    with django_assert_max_num_queries(3):  # the requests, and each period's replacements
        summary = market_summary(now=NOW)
    week, month = summary["periods"]
    assert week["days"] == 7
    assert (week["posted"], week["judged"], week["filled"]) == (5, 4, 2)
    assert week["fill_rate"] == pytest.approx(0.5)
    assert week["accepted"] == 3
    assert week["median_minutes_to_accept"] == pytest.approx(90)  # of 30, 90 and 1,800 minutes
    assert week["unfilled_by_area"] == [{"zip_prefix": "627", "place": "Springfield, IL", "unfilled": 2}]
    assert (week["replacements_needed"], week["replacements_found"]) == (2, 1)

    assert month["days"] == 30
    assert (month["posted"], month["judged"], month["filled"]) == (7, 6, 3)
    assert month["fill_rate"] == pytest.approx(0.5)
    assert month["accepted"] == 4
    assert month["median_minutes_to_accept"] == pytest.approx(60)  # of 10, 30, 90 and 1,800
    assert month["unfilled_by_area"] == [
        {"zip_prefix": "627", "place": "Springfield, IL", "unfilled": 2},
        {"zip_prefix": "606", "place": "Chicago, IL", "unfilled": 1},
    ]

    assert (month["replacements_needed"], month["replacements_found"]) == (3, 1)

    daily = summary["daily"]
    assert len(daily) == 30
    assert daily[-1]["date"] == timezone.localdate(NOW)
    assert sum(d["posted"] for d in daily) == 7
    assert sum(d["filled"] for d in daily) == 3


def test_an_empty_market_says_none_rather_than_zero():
    week, month = market_summary(now=NOW)["periods"]
    assert (week["posted"], week["fill_rate"], week["median_minutes_to_accept"]) == (0, None, None)
    assert month["unfilled_by_area"] == []


def test_the_market_api_is_for_staff_in_one_shape(client, admin_user, client_user, market):
    client.force_login(client_user)
    assert call(client, "GET", "/api/admin/market").status_code == 403
    client.force_login(admin_user)
    response = call(client, "GET", "/api/admin/market")
    assert response.status_code == 200
    body = response.json()
    assert body["fillWithinHours"] == 24
    week = body["periods"][0]
    assert week["fillRate"] == pytest.approx(0.5)
    assert week["medianMinutesToAccept"] == pytest.approx(90)
    assert week["unfilledByArea"] == [{"zipPrefix": "627", "place": "Springfield, IL", "unfilled": 2}]
    assert (week["replacementsNeeded"], week["replacementsFound"]) == (2, 1)
    assert set(body["daily"][0]) == {"date", "posted", "filled"}
