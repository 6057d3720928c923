"""The visit itself: check-in, check-out with the report, its 24-hour corrections,
late and missed-visit alerts, the positions' rounding and purge, the provider's and admins' "Today"."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings import services
from bookings.models import BookingStatus, PaymentStatus, VisitAlert, VisitAlertKind, VisitReport
from bookings.selectors import VisitState, visit_state, visits_needing_alert
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from core import listcache
from marketplace.testing.api import call
from messaging.models import Message
from providers.tests.factories import VerifiedProviderFactory

REPORT = {
    "tasksDone": ["Video calls with family"],
    "notes": "Set up video calls on the tablet; we called her granddaughter.",
    "wellbeing": 4,
    "forFamily": "She would like a bigger stand for the tablet.",
    "followUpSuggested": True,
}


@pytest.fixture
def booking(db):
    """A paid (confirmed) visit with a circle of two: the client who booked and her brother."""
    # A few days ahead: the tests travel to the visit, and a session lasts 14 days.
    booking = BookingFactory(
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
    )
    brother = UserFactory(first_name="Tom")
    CircleMember.objects.create(recipient=booking.recipient, user=brother, role=CircleRole.MEMBER)
    booking.brother = brother
    return booking


def _at(moment: dt.datetime):
    return time_machine.travel(moment, tick=False)


def _notices(user) -> list[str]:
    return list(Message.objects.filter(receiver=user, sender__isnull=True).values_list("content", flat=True))


# ------------------------------------------------------------------ check-in


def test_check_in_opens_30_minutes_before_the_start(client, booking):
    client.force_login(booking.provider.user)
    url = f"/api/bookings/{booking.pk}/check-in"
    with _at(booking.starts_at - dt.timedelta(minutes=31)):
        early = call(client, "POST", url, {})
    assert early.status_code == 409
    assert "30 minutes before" in early.json()["message"]
    booking.refresh_from_db()
    assert booking.checked_in_at is None

    moment = booking.starts_at - dt.timedelta(minutes=30)
    with _at(moment):
        response = call(client, "POST", url, {})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["checkedInAt"] is not None
    assert body["visitState"] == VisitState.IN_PROGRESS
    booking.refresh_from_db()
    assert booking.checked_in_at == moment
    # The whole circle hears of it, the brother too.
    for person in (booking.client, booking.brother):
        assert any("checked in at" in text for text in _notices(person))


def test_check_in_twice_is_refused(client, booking):
    client.force_login(booking.provider.user)
    with _at(booking.starts_at):
        assert call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {}).status_code == 200
        again = call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {})
    assert again.status_code == 409
    assert "already checked in" in again.json()["message"]


@pytest.mark.parametrize(
    ("who", "code"),
    [("client", 403), ("brother", 403), ("other_provider", 404), ("stranger", 404)],
)
def test_check_in_by_anyone_but_the_provider_is_refused(client, booking, who, code):
    actor = {
        "client": booking.client,
        "brother": booking.brother,
        "other_provider": VerifiedProviderFactory().user,
        "stranger": UserFactory(),
    }[who]
    client.force_login(actor)
    with _at(booking.starts_at):
        response = call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {})
    assert response.status_code == code
    booking.refresh_from_db()
    assert booking.checked_in_at is None


def test_an_unpaid_visit_cannot_be_checked_in(client, db):
    booking = BookingFactory(service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3))  # unpaid
    client.force_login(booking.provider.user)
    with _at(booking.starts_at):
        response = call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {})
    assert response.status_code == 409


def test_the_position_is_stored_rounded_to_about_100_metres(client, booking):
    client.force_login(booking.provider.user)
    with _at(booking.starts_at):
        response = call(
            client, "POST", f"/api/bookings/{booking.pk}/check-in", {"latitude": 40.712776, "longitude": -74.005974}
        )
    assert response.status_code == 200
    booking.refresh_from_db()
    assert (booking.check_in_latitude, booking.check_in_longitude) == (Decimal("40.713"), Decimal("-74.006"))
    assert "latitude" not in response.json()  # never sent back to anyone


@pytest.mark.parametrize("body", [{"latitude": 91, "longitude": 0}, {"latitude": "north", "longitude": 3}])
def test_a_bad_position_is_a_400_and_changes_nothing(client, booking, body):
    client.force_login(booking.provider.user)
    with _at(booking.starts_at):
        response = call(client, "POST", f"/api/bookings/{booking.pk}/check-in", body)
    assert response.status_code == 400
    assert set(response.json()) >= {"message", "errors"}
    booking.refresh_from_db()
    assert booking.checked_in_at is None


def test_positions_are_purged_after_90_days(booking):
    with _at(booking.starts_at):
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user, latitude=1.2345, longitude=2)
    services.visit_locations_purge(now=booking.starts_at + dt.timedelta(days=89))
    booking.refresh_from_db()
    assert booking.check_in_latitude == Decimal("1.235")
    assert services.visit_locations_purge(now=booking.starts_at + dt.timedelta(days=91)) == 1
    booking.refresh_from_db()
    assert (booking.check_in_latitude, booking.check_in_longitude) == (None, None)
    assert booking.checked_in_at is not None  # the time stays: only the place goes


# ------------------------------------------------------------------ check-out and the report


def test_check_out_completes_the_visit_with_its_report(client, booking):
    client.force_login(booking.provider.user)
    with _at(booking.starts_at):
        call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {})
    with _at(booking.ends_at):
        response = call(client, "POST", f"/api/bookings/{booking.pk}/check-out", {"report": REPORT})
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["status"], body["hasReport"], body["visitState"]) == ("completed", True, VisitState.DONE)
    booking.refresh_from_db()
    assert booking.checked_out_at == booking.ends_at
    assert booking.service_request.status == "completed"
    report = VisitReport.objects.get(booking=booking)
    assert (report.wellbeing, report.follow_up_suggested) == (4, True)
    # The brother (a member) reads it; the circle was told.
    client.force_login(booking.brother)
    read = call(client, "GET", f"/api/bookings/{booking.pk}/report")
    assert read.status_code == 200
    assert read.json()["wellbeingLabel"] == "Good"
    assert read.json()["forFamily"] == REPORT["forFamily"]
    assert any(text.startswith("Visit report ready") for text in _notices(booking.brother))


@pytest.mark.parametrize(
    ("change", "field"),
    [({"wellbeing": 9}, "report.wellbeing"), ({"tasksDone": ["Mowed the lawn"]}, "tasksDone")],
)
def test_a_report_that_breaks_a_rule_is_a_400_and_the_visit_stays_open(client, booking, change, field):
    client.force_login(booking.provider.user)
    with _at(booking.ends_at):
        response = call(client, "POST", f"/api/bookings/{booking.pk}/check-out", {"report": {**REPORT, **change}})
    assert response.status_code == 400
    assert field in response.json()["errors"]
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED
    assert not VisitReport.objects.exists()


def test_check_out_before_the_start_is_refused(client, booking):
    client.force_login(booking.provider.user)
    with _at(booking.starts_at - dt.timedelta(minutes=10)):
        call(client, "POST", f"/api/bookings/{booking.pk}/check-in", {})
        response = call(client, "POST", f"/api/bookings/{booking.pk}/check-out", {"report": REPORT})
    assert response.status_code == 409


def test_the_report_can_be_corrected_for_24_hours_and_keeps_its_history(client, booking):
    with _at(booking.ends_at):
        services.booking_check_out(booking_id=booking.pk, actor=booking.provider.user)
    client.force_login(booking.provider.user)
    url = f"/api/bookings/{booking.pk}/report"
    with _at(booking.ends_at + dt.timedelta(hours=1)):
        first = call(client, "PUT", url, REPORT)
    assert first.status_code == 200, first.content
    with _at(booking.ends_at + dt.timedelta(hours=23)):
        second = call(client, "PUT", url, {**REPORT, "wellbeing": 3})
    assert second.status_code == 200
    assert second.json()["wellbeing"] == 3
    assert [edit["before"]["wellbeing"] for edit in second.json()["edits"]] == [4]
    with _at(booking.ends_at + dt.timedelta(hours=24, minutes=1)):
        late = call(client, "PUT", url, {**REPORT, "wellbeing": 5})
    assert late.status_code == 409
    assert VisitReport.objects.get(booking=booking).wellbeing == 3
    # Only the provider writes it.
    client.force_login(booking.client)
    with _at(booking.ends_at + dt.timedelta(hours=2)):
        assert call(client, "PUT", url, REPORT).status_code == 403


def test_mark_as_completed_is_a_check_out_without_a_report(client, booking):
    client.force_login(booking.provider.user)
    with _at(booking.starts_at + dt.timedelta(minutes=5)):
        response = call(client, "POST", f"/api/bookings/{booking.pk}/complete")
    assert response.status_code == 200
    assert (response.json()["status"], response.json()["hasReport"]) == ("completed", False)
    client.force_login(booking.client)
    assert call(client, "GET", f"/api/bookings/{booking.pk}/report").status_code == 404


def test_a_stranger_cannot_read_the_report(client, booking):
    with _at(booking.ends_at):
        services.booking_check_out(
            booking_id=booking.pk, actor=booking.provider.user, report={"wellbeing": 5, "notes": "All well."}
        )
    client.force_login(UserFactory())
    assert call(client, "GET", f"/api/bookings/{booking.pk}/report").status_code == 404


# ------------------------------------------------------------------ alerts


def test_no_check_in_by_the_latest_start_that_fits_the_window_alerts_the_circle_and_admins_once(booking, admin_user):
    # A 60-minute morning visit (8 AM - 12 PM) still fits with a start at 11 AM.
    assert booking.check_in_by == booking.starts_at + dt.timedelta(hours=3)
    with _at(booking.check_in_by - dt.timedelta(seconds=1)):
        assert VisitAlertKind.LATE not in {kind for _, kind in visits_needing_alert(now=timezone.now())}
        assert visit_state(booking, now=timezone.now()) == VisitState.UPCOMING
    moment = booking.check_in_by
    with _at(moment):
        assert visits_needing_alert(now=moment) == [(booking.pk, VisitAlertKind.LATE)]
        assert services.visit_alert_raise(booking_id=booking.pk, kind=VisitAlertKind.LATE) is True
        # Idempotent: a second run (or a second worker) raises nothing more.
        assert services.visit_alert_raise(booking_id=booking.pk, kind=VisitAlertKind.LATE) is False
        assert visits_needing_alert(now=moment) == []
        assert visit_state(booking, now=moment) == VisitState.LATE
    assert VisitAlert.objects.filter(booking=booking).count() == 1
    for person in (booking.client, booking.brother, admin_user):
        assert sum("has not checked in" in text for text in _notices(person)) == 1
    assert not any("has not checked in" in text for text in _notices(booking.provider.user))


def test_no_check_out_2_hours_after_the_end_alerts_again(booking):
    with _at(booking.starts_at):
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user)
    with _at(booking.ends_at + dt.timedelta(hours=2) - dt.timedelta(seconds=1)):
        assert visits_needing_alert(now=timezone.now()) == []
    moment = booking.ends_at + dt.timedelta(hours=2)
    with _at(moment):
        assert visits_needing_alert(now=moment) == [(booking.pk, VisitAlertKind.NO_CHECK_OUT)]
        assert services.visit_alert_raise(booking_id=booking.pk, kind=VisitAlertKind.NO_CHECK_OUT)
        assert not services.visit_alert_raise(booking_id=booking.pk, kind=VisitAlertKind.NO_CHECK_OUT)
    assert sum("has not checked out" in text for text in _notices(booking.brother)) == 1


def test_a_visit_never_checked_in_is_missed_once_its_window_is_over(booking):
    with _at(booking.window_ends_at - dt.timedelta(seconds=1)):
        assert visit_state(booking, now=timezone.now()) == VisitState.LATE
        assert VisitAlertKind.NO_CHECK_OUT not in {kind for _, kind in visits_needing_alert(now=timezone.now())}
    moment = booking.window_ends_at
    with _at(moment):
        assert visit_state(booking, now=moment) == VisitState.MISSED
        due = visits_needing_alert(now=moment)
        assert sorted(kind for _, kind in due) == [VisitAlertKind.LATE, VisitAlertKind.NO_CHECK_OUT]
        for booking_id, kind in due:
            services.visit_alert_raise(booking_id=booking_id, kind=kind)
    assert any("looks missed" in text for text in _notices(booking.client))


def test_a_checked_in_or_cancelled_visit_raises_no_late_alert(booking, db):
    with _at(booking.starts_at):
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user)
    cancelled = BookingFactory(status=BookingStatus.CANCELLED)
    with _at(booking.starts_at + dt.timedelta(minutes=30)):
        assert visits_needing_alert(now=timezone.now()) == []
        assert not services.visit_alert_raise(booking_id=cancelled.pk, kind=VisitAlertKind.LATE)


# ------------------------------------------------------------------ today


def test_the_provider_and_admins_see_the_visits_of_the_day(client, booking, admin_user):
    other_day = BookingFactory(
        provider=booking.provider,
        status=BookingStatus.CONFIRMED,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=4),
    )
    with _at(booking.check_in_by + dt.timedelta(minutes=5)):
        client.force_login(booking.provider.user)
        mine = call(client, "GET", "/api/bookings/today")
        assert mine.status_code == 200
        assert [b["id"] for b in mine.json()] == [booking.pk]
        assert other_day.pk not in [b["id"] for b in mine.json()]
        client.force_login(admin_user)
        today = call(client, "GET", "/api/admin/today")
        assert today.status_code == 200
        assert [(b["id"], b["visitState"]) for b in today.json()] == [(booking.pk, VisitState.LATE)]
        client.force_login(booking.client)
        assert call(client, "GET", "/api/admin/today").status_code == 403


def test_the_days_lists_follow_each_change_and_the_clock(client, booking, admin_user):
    """Today's lists are cached (bench: 450 visits a day): a check-in, a report written later and the
    clock turning a visit late each show at once."""
    from bookings.api.serializers import visits_max_age

    client.force_login(admin_user)
    with _at(booking.starts_at - dt.timedelta(minutes=40)):
        (row,) = call(client, "GET", "/api/admin/today").json()
        assert row["visitState"] == VisitState.UPCOMING
        # Cached until the visit would turn late (past the latest start that fits its window).
        assert visits_max_age([row]) == pytest.approx((40 + 180) * 60)
    # The entry expires on Redis's clock, which time travel does not move: its age is checked above.
    listcache.forget()
    with _at(booking.check_in_by + dt.timedelta(minutes=1)):
        assert call(client, "GET", "/api/admin/today").json()[0]["visitState"] == VisitState.LATE
        services.booking_check_in(booking_id=booking.pk, actor=booking.provider.user)
        (row,) = call(client, "GET", "/api/admin/today").json()
        assert (row["visitState"], row["checkedInAt"] is not None) == (VisitState.IN_PROGRESS, True)
    with _at(booking.check_in_by + dt.timedelta(hours=1)):
        services.booking_check_out(booking_id=booking.pk, actor=booking.provider.user)
        client.force_login(booking.provider.user)
        assert call(client, "GET", "/api/bookings/today").json()[0]["hasReport"] is False
        services.visit_report_save(
            booking_id=booking.pk, actor=booking.provider.user, values={"wellbeing": 5, "notes": "All well."}
        )
        (row,) = call(client, "GET", "/api/bookings/today").json()
        assert (row["visitState"], row["hasReport"]) == (VisitState.DONE, True)
        assert "email" not in row["client"]
