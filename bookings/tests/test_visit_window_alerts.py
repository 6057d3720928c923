"""No false alarm: a visit is on time while the helper can still arrive and finish inside the window
the family was told ("Afternoon (12PM - 5PM)"). Late only past the latest start that fits, missed
only once the window is over, and the helper hears first."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from bookings import services
from bookings.models import BookingStatus, PaymentStatus, VisitAlert, VisitAlertKind
from bookings.selectors import VisitState, visit_state, visits_needing_alert
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from messaging.models import Message
from requests_app.models import TimeWindow


def _visit(window: str = TimeWindow.AFTERNOON, duration: int = 60):
    return BookingFactory(
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
        service_request__preferred_time=window,
        service_request__estimated_duration=duration,
    )


def _local(booking, hour: int, minute: int = 0) -> dt.datetime:
    return dt.datetime.combine(booking.scheduled_date, dt.time(hour, minute), tzinfo=booking.time_zone)


def _beat(moment: dt.datetime) -> list[str]:
    """What the every-minute job raises at this moment."""
    with time_machine.travel(moment, tick=False):
        due = visits_needing_alert(now=moment)
        for booking_id, kind in due:
            services.visit_alert_raise(booking_id=booking_id, kind=kind)
    return [kind for _, kind in due]


def _notices(user) -> list[str]:
    return list(Message.objects.filter(receiver=user, sender__isnull=True).values_list("content", flat=True))


@pytest.mark.django_db
def test_a_helper_arriving_at_2_pm_in_the_afternoon_window_alarms_nobody(client):
    booking = _visit()
    for hour, minute in ((12, 15), (12, 16), (13, 0), (14, 0)):
        assert _beat(_local(booking, hour, minute)) == []
    with time_machine.travel(_local(booking, 14), tick=False):
        assert visit_state(booking, now=timezone.now()) == VisitState.UPCOMING
        client.force_login(booking.client)
        shown = call(client, "GET", f"/api/bookings/{booking.pk}").json()
        assert shown["visitState"] == VisitState.UPCOMING
        assert dt.datetime.fromisoformat(shown["checkInBy"]) == _local(booking, 16)
        assert dt.datetime.fromisoformat(shown["windowEnd"]) == _local(booking, 17)
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user)
    # An hour's visit begun at 2 PM is due to end at 3 PM: no "has not checked out" before 5 PM.
    assert _beat(_local(booking, 15)) == []
    assert _beat(_local(booking, 16, 59)) == []
    with time_machine.travel(_local(booking, 16, 59), tick=False):
        services.booking_check_out(booking_id=booking.pk, actor=booking.provider.user)
    assert not VisitAlert.objects.filter(booking=booking).exists()
    for person in (booking.client, booking.provider.user):
        assert not any("checked in for" in text and "has not" in text for text in _notices(person))


@pytest.mark.django_db
def test_the_helper_is_reminded_an_hour_before_she_would_be_late_then_the_family_is_alerted(admin_user):
    booking = _visit()
    assert _beat(_local(booking, 14, 59)) == []
    assert _beat(_local(booking, 15)) == [VisitAlertKind.CHECK_IN_SOON]
    (reminder,) = _notices(booking.provider.user)
    assert "please check in" in reminder and "by 4:00 PM" in reminder and "Afternoon (12PM - 5PM)" in reminder
    # The family and the staff hear nothing yet.
    assert _notices(booking.client) == [] and _notices(admin_user) == []
    assert _beat(_local(booking, 15, 59)) == []
    assert _beat(_local(booking, 16)) == [VisitAlertKind.LATE]
    with time_machine.travel(_local(booking, 16), tick=False):
        assert visit_state(booking, now=timezone.now()) == VisitState.LATE
    for person in (booking.client, admin_user):
        assert sum("has not checked in" in text and "4:00 PM" in text for text in _notices(person)) == 1
    # Missed only when the window the family was told is over.
    with time_machine.travel(_local(booking, 16, 59), tick=False):
        assert visit_state(booking, now=timezone.now()) == VisitState.LATE
    assert _beat(_local(booking, 16, 59)) == []
    assert _beat(_local(booking, 17)) == [VisitAlertKind.NO_CHECK_OUT]
    with time_machine.travel(_local(booking, 17), tick=False):
        assert visit_state(booking, now=timezone.now()) == VisitState.MISSED
    assert sum("looks missed" in text for text in _notices(booking.client)) == 1


@pytest.mark.django_db
def test_a_helper_who_checks_in_after_her_reminder_hears_no_more():
    booking = _visit()
    assert _beat(_local(booking, 15, 10)) == [VisitAlertKind.CHECK_IN_SOON]
    with time_machine.travel(_local(booking, 15, 30), tick=False):
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user)
    assert _beat(_local(booking, 16)) == []
    assert _beat(_local(booking, 17)) == []
    assert list(VisitAlert.objects.filter(booking=booking).values_list("kind", flat=True)) == [
        VisitAlertKind.CHECK_IN_SOON
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("window", "duration", "late_at", "missed_at"),
    [
        (TimeWindow.MORNING, 90, (10, 30), (12, 0)),
        (TimeWindow.EVENING, 60, (19, 0), (20, 0)),
        # Flexible: the whole day the family left open, 8 AM to 8 PM.
        (TimeWindow.FLEXIBLE, 120, (18, 0), (20, 0)),
        # Longer than its window: late 15 minutes after the start, as nothing later fits.
        (TimeWindow.AFTERNOON, 330, (12, 15), (17, 0)),
    ],
)
def test_late_and_missed_follow_each_window(window, duration, late_at, missed_at):
    booking = _visit(window, duration)
    assert booking.check_in_by == _local(booking, *late_at)
    assert booking.window_ends_at == _local(booking, *missed_at)
    just_before = booking.check_in_by - dt.timedelta(seconds=1)
    assert visit_state(booking, now=just_before) == VisitState.UPCOMING
    assert visit_state(booking, now=booking.check_in_by) == VisitState.LATE
    assert visit_state(booking, now=booking.window_ends_at) == VisitState.MISSED
