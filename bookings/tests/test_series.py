"""Recurring visits: one provider accepts a series, each visit its own booking;
a series with one visit that clashes is refused whole; the request stays booked while visits are
ahead; the client cancels the rest of a series (48-hour rule per visit)."""

from __future__ import annotations

import datetime as dt
import threading
from decimal import Decimal

import pytest
import time_machine
from django.db import close_old_connections, connection
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus
from bookings.services import PROVIDER_BUSY, booking_check_out, service_request_accept
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from core.errors import Conflict
from marketplace.testing.api import call
from messaging.models import Message, MessageType
from providers.models import TimeOff
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import Repeat, RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory


def _tuesday(days_ahead: int) -> dt.date:
    day = timezone.localdate() + dt.timedelta(days=days_ahead)
    return day + dt.timedelta(days=(1 - day.weekday()) % 7)


def _weekly(first: dt.date, count: int = 4, **kwargs) -> ServiceRequest:
    return ServiceRequestFactory(
        preferred_date=first, preferred_time="morning", repeat=Repeat.WEEKLY, repeat_count=count, **kwargs
    )


def _day(day: dt.date) -> str:
    return f"{day:%A, %B} {day.day}"


def _system_messages(user) -> list[str]:
    return list(
        Message.objects.filter(receiver=user, message_type=MessageType.SYSTEM).values_list("content", flat=True)
    )


def test_accepting_a_series_books_every_visit_priced_per_visit(client, verified_provider):
    verified_provider.hourly_rate = Decimal("30.00")
    verified_provider.save()
    first = _tuesday(10)
    request = _weekly(first, 4, title="Wellness check")
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
    assert response.status_code == 201, response.content
    visits = list(Booking.objects.filter(service_request=request).order_by("series_index"))
    assert [(v.series_index, v.scheduled_date) for v in visits] == [
        (k + 1, first + dt.timedelta(weeks=k)) for k in range(4)
    ]
    assert {(v.total_amount, v.status, v.provider_id) for v in visits} == {
        (Decimal("30.00"), BookingStatus.SCHEDULED, verified_provider.pk)
    }
    assert response.json()["series"] == {
        "requestId": request.pk,
        "index": 1,
        "count": 4,
        "repeat": "weekly",
        "payNote": "This is visit 1 of 4 in a weekly series; each visit is paid separately.",
    }
    request.refresh_from_db()
    assert request.status == RequestStatus.BOOKED
    # Told once for the series, not once per visit.
    told = [m for m in _system_messages(request.client) if "Wellness check" in m]
    assert len(told) == 1 and "every week for 4 visits" in told[0]
    assert len([m for m in _system_messages(verified_provider.user) if "Wellness check" in m]) == 1
    # The client's list shows each visit with its place in the series.
    client.force_login(request.client)
    rows = call(client, "GET", "/api/bookings").json()
    assert sorted(row["series"]["index"] for row in rows) == [1, 2, 3, 4]


def test_a_series_with_one_conflicting_visit_is_refused_whole(client, verified_provider):
    first = _tuesday(10)
    third = first + dt.timedelta(weeks=2)
    BookingFactory(provider=verified_provider, scheduled_date=third, scheduled_time="morning", duration=60)
    request = _weekly(first, 4)
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
    assert response.status_code == 409
    assert response.json()["message"] == (
        f"You already have a visit on {_day(third)}. You can accept the other 3 visits without it; "
        "the family will be told."
    )
    assert response.json()["errors"] == {"unavailableDates": [third.isoformat()]}
    assert not Booking.objects.filter(service_request=request).exists()
    request.refresh_from_db()
    assert request.status == RequestStatus.OPEN


def test_a_series_with_one_visit_on_time_off_is_refused_whole(client, verified_provider):
    first = _tuesday(10)
    fourth = first + dt.timedelta(weeks=3)
    TimeOff.objects.create(provider=verified_provider, first_day=fourth, last_day=fourth + dt.timedelta(days=2))
    request = _weekly(first, 4)
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
    assert response.status_code == 409
    # Time off is named as time off, not as "outside your available hours".
    assert response.json()["message"] == (
        f"{_day(fourth)} is your time off. You can accept the other 3 visits without it; the family will be told."
    )
    assert not Booking.objects.filter(service_request=request).exists()


def test_a_series_is_accepted_without_the_dates_she_cannot_make_and_the_family_is_told(client, verified_provider):
    first = _tuesday(10)
    second, fourth = first + dt.timedelta(weeks=1), first + dt.timedelta(weeks=3)
    TimeOff.objects.create(provider=verified_provider, first_day=second, last_day=second)
    BookingFactory(provider=verified_provider, scheduled_date=fourth, scheduled_time="morning", duration=60)
    request = _weekly(first, 4, title="Weekly tablet help")
    client.force_login(verified_provider.user)
    refused = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
    assert refused.status_code == 409
    assert refused.json()["message"] == (
        f"{_day(second)} is your time off. You already have a visit on {_day(fourth)}. "
        "You can accept the other 2 visits without them; the family will be told."
    )
    assert refused.json()["errors"] == {"unavailableDates": [second.isoformat(), fourth.isoformat()]}

    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept", {"skipUnavailable": True})
    assert response.status_code == 201, response.content
    visits = Booking.objects.filter(service_request=request).order_by("scheduled_date")
    # The visits kept keep their places in the series.
    assert [(v.series_index, v.scheduled_date) for v in visits] == [(1, first), (3, first + dt.timedelta(weeks=2))]
    told = [m for m in _system_messages(request.client) if "Weekly tablet help" in m]
    assert len(told) == 1
    assert f"cannot come on {_day(second)} and {_day(fourth)}, so those dates are not booked" in told[0]
    # ...and so is the email.
    from notifications.content import build
    from notifications.models import Event

    event = Event.objects.get(kind="request_accepted", booking__service_request=request)
    name = verified_provider.user.first_name
    lines = build(event, request.client).lines
    assert f"Not booked ({name} cannot come): {_day(second)} and {_day(fourth)}." in lines


def test_skipping_needs_a_date_she_can_make(client, verified_provider):
    first = _tuesday(10)
    TimeOff.objects.create(provider=verified_provider, first_day=first, last_day=first + dt.timedelta(weeks=2))
    request = _weekly(first, 2)
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/accept", {"skipUnavailable": True})
    assert response.status_code == 409
    assert response.json()["message"].startswith("You cannot make any visit of this series:")
    assert not Booking.objects.filter(service_request=request).exists()


def _race(provider, requests: dict[str, int]) -> dict[str, str]:
    """Accept each request in its own thread, at the same moment; what each got."""
    barrier = threading.Barrier(len(requests))
    outcomes: dict[str, str] = {}

    def accept(name: str, request_id: int) -> None:
        try:
            barrier.wait(timeout=10)
            service_request_accept(service_request_id=request_id, actor=provider.user)
            outcomes[name] = "booked"
        except Conflict as exc:
            outcomes[name] = str(exc)
        finally:
            close_old_connections()
            connection.close()

    threads = [threading.Thread(target=accept, args=item) for item in requests.items()]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes


@pytest.mark.django_db(transaction=True)
def test_a_series_and_an_overlapping_one_off_accepted_at_once_one_wins_and_no_partial_series():
    for _ in range(3):
        provider = VerifiedProviderFactory()
        first = _tuesday(10)
        series = _weekly(first, 4)
        one_off = ServiceRequestFactory(preferred_date=first + dt.timedelta(weeks=3), preferred_time="morning")
        outcomes = _race(provider, {"series": series.pk, "one_off": one_off.pk})
        assert list(outcomes.values()).count("booked") == 1, outcomes
        booked = Booking.objects.filter(provider=provider)
        if outcomes["series"] == "booked":
            assert booked.count() == 4 and outcomes["one_off"] == PROVIDER_BUSY
        else:
            assert booked.count() == 1 and booked.get().service_request_id == one_off.pk
            # Refused by the overlap constraint ("at that time"), or, when the one-off committed
            # before the series read her visits, by the check, which names the date.
            assert outcomes["series"].startswith("You already have a visit")
            assert ServiceRequest.objects.get(pk=series.pk).status == RequestStatus.OPEN


def _accepted_series(provider, first: dt.date, count: int = 4) -> tuple[ServiceRequest, list[Booking]]:
    request = _weekly(first, count)
    service_request_accept(service_request_id=request.pk, actor=provider.user)
    return request, list(Booking.objects.filter(service_request=request).order_by("series_index"))


def test_cancelling_one_visit_keeps_the_request_and_the_other_visits_booked(client, verified_provider):
    request, visits = _accepted_series(verified_provider, _tuesday(10))
    client.force_login(request.client)
    response = call(client, "POST", f"/api/bookings/{visits[2].pk}/cancel", {})
    assert response.status_code == 200
    request.refresh_from_db()
    assert request.status == RequestStatus.BOOKED
    assert [Booking.objects.get(pk=v.pk).status for v in visits] == ["scheduled", "scheduled", "cancelled", "scheduled"]
    # The request's card points at the next visit ahead.
    assert call(client, "GET", f"/api/service-requests/{request.pk}").json()["bookingId"] == visits[0].pk
    for visit in visits:
        if visit.pk != visits[2].pk:
            assert call(client, "POST", f"/api/bookings/{visit.pk}/cancel", {}).status_code == 200
    request.refresh_from_db()
    assert request.status == RequestStatus.CANCELLED


def test_the_request_is_completed_when_its_last_visit_is(verified_provider):
    first = _tuesday(10)
    request, visits = _accepted_series(verified_provider, first, 2)
    Booking.objects.filter(service_request=request).update(status=BookingStatus.CONFIRMED)
    with time_machine.travel(visits[0].visit_start + dt.timedelta(hours=1)):
        booking_check_out(booking_id=visits[0].pk, actor=verified_provider.user)
    request.refresh_from_db()
    assert request.status == RequestStatus.BOOKED
    with time_machine.travel(visits[1].visit_start + dt.timedelta(hours=1)):
        booking_check_out(booking_id=visits[1].pk, actor=verified_provider.user)
    request.refresh_from_db()
    assert request.status == RequestStatus.COMPLETED


def test_cancel_the_rest_cancels_later_visits_and_keeps_those_within_48_hours(client, verified_provider):
    first = _tuesday(10)
    request, visits = _accepted_series(verified_provider, first, 5)
    organizer = request.client
    member = UserFactory()
    CircleMember.objects.create(recipient=request.recipient, user=member, role=CircleRole.MEMBER)
    before = len(_system_messages(verified_provider.user))
    # Two days before the second visit, a little less than 48 hours to go.
    with time_machine.travel(visits[1].visit_start - dt.timedelta(hours=47)):
        client.force_login(member)
        assert call(client, "POST", f"/api/bookings/{visits[1].pk}/cancel-rest", {}).status_code == 403
        client.force_login(UserFactory())
        assert call(client, "POST", f"/api/bookings/{visits[1].pk}/cancel-rest", {}).status_code == 404
        client.force_login(organizer)
        response = call(client, "POST", f"/api/bookings/{visits[1].pk}/cancel-rest", {"reason": "Moving away"})
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["cancelled"] == [v.pk for v in visits[2:]]
    assert body["kept"] == [visits[1].pk]
    assert body["message"] == (
        f"3 visits cancelled. The visit on {_day(visits[1].scheduled_date)} is less than 48 hours away "
        "and stays booked."
    )
    statuses = [Booking.objects.get(pk=v.pk).status for v in visits]
    assert statuses == ["scheduled", "scheduled", "cancelled", "cancelled", "cancelled"]
    request.refresh_from_db()
    assert request.status == RequestStatus.BOOKED
    # One notice for the batch.
    told = _system_messages(verified_provider.user)[before:]
    assert len(told) == 1 and "cancelled the rest of the series" in told[0] and "3 visits" in told[0]
    # Nothing left that may be cancelled: 409, saying why.
    with time_machine.travel(visits[1].visit_start - dt.timedelta(hours=47)):
        response = call(client, "POST", f"/api/bookings/{visits[1].pk}/cancel-rest", {})
    assert response.status_code == 409
    assert "less than 48 hours away" in response.json()["message"]


def test_cancel_the_rest_of_a_one_off_visit_is_a_409(client, verified_provider):
    booking = BookingFactory(provider=verified_provider)
    client.force_login(booking.client)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/cancel-rest", {})
    assert response.status_code == 409
    assert response.json()["message"] == "This visit is not part of a series."


def test_the_dashboard_counts_a_series_as_one_of_its_three_bookings(client, verified_provider):
    request, visits = _accepted_series(verified_provider, _tuesday(10), 4)
    # Three one-off visits for the same circle, all after the series' first visit.
    one_offs = [
        BookingFactory(
            service_request__client=request.client,
            provider=VerifiedProviderFactory(),
            scheduled_date=_tuesday(10) + dt.timedelta(days=1 + k),
        )
        for k in range(3)
    ]
    client.force_login(request.client)
    bookings = call(client, "GET", "/api/dashboard").json()["bookings"]
    assert [b["id"] for b in bookings] == [
        visits[0].pk,
        one_offs[0].pk,
        one_offs[1].pk,
        visits[1].pk,
        visits[2].pk,
        visits[3].pk,
    ]
    assert [b["series"] and b["series"]["index"] for b in bookings] == [1, None, None, 2, 3, 4]


def test_each_visit_of_a_series_says_it_is_paid_separately_on_the_dashboard_and_checkout(client, verified_provider):
    """Paying visit 1 pays visit 1 only: the booking (dashboard) and the checkout page say so."""
    from marketplace.testing.pages import island_props

    request = _weekly(_tuesday(10), 4, title="Wellness check")
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept").status_code == 201
    second = Booking.objects.get(service_request=request, series_index=2)
    client.force_login(request.client)

    rows = {row["id"]: row for row in call(client, "GET", "/api/bookings").json()}
    assert rows[second.pk]["series"]["payNote"] == (
        "This is visit 2 of 4 in a weekly series; each visit is paid separately."
    )
    props = island_props(client.get(f"/checkout/{second.pk}"), "checkout-props")
    assert props["booking"]["seriesNote"] == rows[second.pk]["series"]["payNote"]
    one_off = BookingFactory(service_request__client=request.client, provider=verified_provider)
    assert island_props(client.get(f"/checkout/{one_off.pk}"), "checkout-props")["booking"]["seriesNote"] == ""


def test_the_cancel_the_rest_dialog_is_told_what_it_cancels_keeps_and_refunds(client, verified_provider):
    """GET /api/bookings/{id}/cancel-rest: the visits the cancel would take and keep, and what comes
    back to the card (the paid ones cancelled), by the cancel's own rules; then the cancel does that."""
    from bookings.models import PaymentStatus

    request, visits = _accepted_series(verified_provider, _tuesday(10), 4)
    Booking.objects.filter(pk__in=[visits[1].pk, visits[2].pk]).update(payment_status=PaymentStatus.PAID)
    Booking.objects.filter(pk=visits[2].pk).update(status=BookingStatus.CONFIRMED)
    member = UserFactory()
    CircleMember.objects.create(recipient=request.recipient, user=member, role=CircleRole.MEMBER)
    path = f"/api/bookings/{visits[1].pk}/cancel-rest"

    with time_machine.travel(visits[1].visit_start - dt.timedelta(hours=47)):
        client.force_login(member)
        assert call(client, "GET", path).status_code == 403
        client.force_login(UserFactory())
        assert call(client, "GET", path).status_code == 404
        client.force_login(request.client)
        preview = call(client, "GET", path)
        assert preview.status_code == 200
        # Visit 2 is within 48 hours and stays; visit 3 (paid) and 4 (unpaid) go: one refund.
        assert preview.json() == {
            "cancelled": [visits[2].pk, visits[3].pk],
            "kept": [visits[1].pk],
            "refund": float(visits[2].total_amount),
        }
        done = call(client, "POST", path, {})
    assert done.json()["cancelled"] == preview.json()["cancelled"]
    one_off = BookingFactory(service_request__client=request.client, provider=verified_provider)
    assert call(client, "GET", f"/api/bookings/{one_off.pk}/cancel-rest").status_code == 409
