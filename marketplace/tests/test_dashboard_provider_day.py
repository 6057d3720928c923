"""The helper's dashboard is for planning her day: Today's Schedule counts her visits of today (site
time zone) still to make, paid or not; Upcoming Appointments lists what is to come, not finished or
cancelled visits (a visit she just checked out of stays while its report may be corrected)."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from marketplace.testing.pages import island_props
from requests_app.models import TimeWindow

pytestmark = pytest.mark.django_db


def _visit(provider, *, days: int, status: str, window: str = TimeWindow.MORNING, **fields):
    return BookingFactory(
        provider=provider,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=days),
        service_request__preferred_time=window,
        status=status,
        **fields,
    )


def test_todays_schedule_counts_the_visits_of_today_paid_or_not(client, verified_provider):
    _visit(verified_provider, days=0, status=BookingStatus.CONFIRMED, payment_status=PaymentStatus.PAID)
    _visit(verified_provider, days=0, status=BookingStatus.SCHEDULED, window=TimeWindow.EVENING)
    _visit(verified_provider, days=0, status=BookingStatus.CANCELLED, window=TimeWindow.AFTERNOON)
    _visit(verified_provider, days=1, status=BookingStatus.SCHEDULED)  # tomorrow
    _visit(verified_provider, days=-1, status=BookingStatus.COMPLETED)
    BookingFactory(service_request__preferred_date=timezone.localdate(), status=BookingStatus.CONFIRMED)  # another's
    client.force_login(verified_provider.user)

    tiles = island_props(client.get("/dashboard"), "dashboard-props")["initial"]["tiles"]

    assert tiles == {"today": 2, "completed": 1}
    assert call(client, "GET", "/api/dashboard").json()["tiles"] == tiles


def test_upcoming_appointments_leave_out_finished_and_cancelled_visits(client, verified_provider):
    coming = _visit(verified_provider, days=3, status=BookingStatus.CONFIRMED, payment_status=PaymentStatus.PAID)
    unpaid = _visit(verified_provider, days=4, status=BookingStatus.SCHEDULED)
    just_done = _visit(
        verified_provider,
        days=-1,
        status=BookingStatus.COMPLETED,
        checked_out_at=timezone.now() - dt.timedelta(hours=2),
    )
    _visit(
        verified_provider, days=-5, status=BookingStatus.COMPLETED, checked_out_at=timezone.now() - dt.timedelta(days=5)
    )
    _visit(verified_provider, days=2, status=BookingStatus.CANCELLED)
    client.force_login(verified_provider.user)

    bookings = island_props(client.get("/dashboard"), "dashboard-props")["initial"]["bookings"]

    # To come first, soonest first; then the visit whose report she may still correct.
    assert [b["id"] for b in bookings] == [coming.pk, unpaid.pk, just_done.pk]


def test_todays_schedule_is_the_sites_day_not_utcs(client, verified_provider):
    # 11:30 PM in New York (the site's zone) is already the next day in UTC.
    with time_machine.travel(dt.datetime(2026, 3, 10, 3, 30, tzinfo=dt.UTC), tick=False):
        for date, window in (
            (dt.date(2026, 3, 9), TimeWindow.AFTERNOON),
            (dt.date(2026, 3, 9), TimeWindow.EVENING),
            (dt.date(2026, 3, 10), TimeWindow.MORNING),  # tomorrow in New York, today in UTC
        ):
            BookingFactory(
                provider=verified_provider,
                service_request__preferred_date=date,
                service_request__preferred_time=window,
                status=BookingStatus.CONFIRMED,
            )
        client.force_login(verified_provider.user)
        assert call(client, "GET", "/api/dashboard").json()["tiles"]["today"] == 2
