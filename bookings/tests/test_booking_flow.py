"""The booking state machine through the API: accept, cancel (48-hour rule), complete, review."""

from __future__ import annotations

import asyncio
import datetime as dt
import zoneinfo
from decimal import Decimal

import pytest
import time_machine
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.utils import timezone

from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.services import booking_total
from bookings.tests.factories import BookingFactory, ReviewFactory
from core.realtime import user_group
from marketplace.testing.api import call
from messaging.models import Message, MessageType
from providers.models import VerificationStatus
from requests_app.models import RequestStatus, TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

SITE = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)


def _system_messages(user) -> list[str]:
    return list(
        Message.objects.filter(receiver=user, message_type=MessageType.SYSTEM).values_list("content", flat=True)
    )


# ------------------------------------------------------------------ accept


def test_accept_creates_the_booking_from_the_request(client, verified_provider):
    verified_provider.hourly_rate = Decimal("35.00")
    verified_provider.save()
    service_request = ServiceRequestFactory(
        preferred_time=TimeWindow.AFTERNOON, estimated_duration=45, title="Tablet lessons"
    )
    client.force_login(verified_provider.user)

    response = call(client, "POST", f"/api/service-requests/{service_request.pk}/accept")

    assert response.status_code == 201
    body = response.json()
    booking = Booking.objects.get(service_request=service_request)
    assert body["id"] == booking.pk
    assert booking.provider == verified_provider
    assert booking.client == service_request.client
    assert booking.scheduled_date == service_request.preferred_date
    assert booking.scheduled_time == TimeWindow.AFTERNOON
    assert booking.duration == 45
    assert booking.total_amount == Decimal("26.25")
    assert (booking.status, booking.payment_status) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)
    assert body["totalAmount"] == 26.25
    assert body["provider"]["user"]["id"] == verified_provider.user_id
    assert body["client"]["id"] == service_request.client_id
    assert body["serviceRequest"]["title"] == "Tablet lessons"
    service_request.refresh_from_db()
    assert service_request.status == RequestStatus.BOOKED
    assert any("accepted your request" in m for m in _system_messages(service_request.client))
    assert any('You accepted "Tablet lessons"' in m for m in _system_messages(verified_provider.user))


@pytest.mark.parametrize(
    ("rate", "minutes", "total"),
    [("30", 60, "30.00"), ("35", 45, "26.25"), ("35", 7, "4.08"), ("25", 1, "0.42"), ("100", 1440, "2400.00")],
)
def test_booking_total_is_rate_times_duration_rounded_to_cents(rate, minutes, total):
    assert booking_total(hourly_rate=Decimal(rate), duration_minutes=minutes) == Decimal(total)


def _drain(layer, channel) -> list[dict]:
    """Every event waiting on the channel (stops after a short quiet period)."""

    async def receive_all():
        out = []
        while True:
            try:
                out.append(await asyncio.wait_for(layer.receive(channel), timeout=0.5))
            except TimeoutError:
                return out

    return async_to_sync(receive_all)()


def test_accept_pushes_booking_updated_to_both_parties_on_commit(
    client, verified_provider, django_capture_on_commit_callbacks
):
    service_request = ServiceRequestFactory()
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(service_request.client_id), channel)
    client.force_login(verified_provider.user)

    with django_capture_on_commit_callbacks(execute=True):
        response = call(client, "POST", f"/api/service-requests/{service_request.pk}/accept")

    events = _drain(layer, channel)
    booking_events = [e for e in events if e["event"] == "booking.updated"]
    assert len(booking_events) == 1, events
    event = booking_events[0]
    assert event["payload"] == {"id": response.json()["id"], "status": "scheduled", "paymentStatus": "pending"}
    async_to_sync(layer.group_discard)(user_group(service_request.client_id), channel)


def test_accepting_a_request_that_is_no_longer_open_is_a_conflict(client, verified_provider):
    booking = BookingFactory()
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{booking.service_request_id}/accept")
    assert response.status_code == 409
    assert Booking.objects.count() == 1


def test_rejected_provider_cannot_accept(client, verified_provider):
    verified_provider.verification_status = VerificationStatus.REJECTED
    verified_provider.save()
    service_request = ServiceRequestFactory()
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/service-requests/{service_request.pk}/accept").status_code == 403
    assert not Booking.objects.exists()


def test_a_provider_cannot_accept_their_own_request(client, verified_provider):
    service_request = ServiceRequestFactory(client=verified_provider.user)
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/service-requests/{service_request.pk}/accept")
    assert response.status_code == 403
    assert "own" in response.json()["message"]
    service_request.refresh_from_db()
    assert service_request.status == RequestStatus.OPEN


def test_a_request_whose_date_has_passed_cannot_be_accepted(client, verified_provider):
    service_request = ServiceRequestFactory(preferred_date=timezone.localdate() - dt.timedelta(days=1))
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/service-requests/{service_request.pk}/accept").status_code == 409
    service_request.refresh_from_db()
    assert service_request.status == RequestStatus.OPEN


# ------------------------------------------------------------------ cancel: the 48-hour rule

# The visit is Monday 15 March 2027, Morning (8 AM New York, already summer time: 12:00 UTC).
# Clocks went forward on Sunday 14 March, so 48 real hours before is Saturday 07:00 EST
# (12:00 UTC), not 08:00 local: the rule counts real time in the site's zone.
VISIT_DATE = dt.date(2027, 3, 15)
FORTY_EIGHT_HOURS_BEFORE = dt.datetime(2027, 3, 13, 12, 0, tzinfo=dt.UTC)


@pytest.fixture
def confirmed_booking(client_user):
    return BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=VISIT_DATE,
        service_request__preferred_time=TimeWindow.MORNING,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )


def test_visit_start_is_the_window_start_in_the_site_zone(confirmed_booking):
    assert confirmed_booking.visit_start == dt.datetime(2027, 3, 15, 8, 0, tzinfo=SITE)
    assert confirmed_booking.visit_start - FORTY_EIGHT_HOURS_BEFORE == dt.timedelta(hours=48)
    assert FORTY_EIGHT_HOURS_BEFORE.astimezone(SITE).hour == 7


def test_client_can_cancel_exactly_48_hours_before_the_visit(client, client_user, confirmed_booking):
    with time_machine.travel(FORTY_EIGHT_HOURS_BEFORE, tick=False):
        client.force_login(client_user)
        assert call(client, "GET", f"/api/bookings/{confirmed_booking.pk}").json()["canCancel"] is True
        response = call(client, "POST", f"/api/bookings/{confirmed_booking.pk}/cancel", {"reason": "Feeling unwell"})

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "cancelled"
    confirmed_booking.refresh_from_db()
    assert confirmed_booking.status == BookingStatus.CANCELLED
    assert confirmed_booking.cancelled_by == client_user
    assert confirmed_booking.cancellation_reason == "Feeling unwell"
    assert confirmed_booking.cancelled_at == FORTY_EIGHT_HOURS_BEFORE
    assert confirmed_booking.service_request.status == RequestStatus.CANCELLED
    title = confirmed_booking.service_request.title
    assert f'Your booking for "{title}" was cancelled.' in _system_messages(client_user)
    assert any("The client cancelled" in m for m in _system_messages(confirmed_booking.provider.user))


def test_client_cannot_cancel_47_hours_59_minutes_before_the_visit(client, client_user, confirmed_booking):
    with time_machine.travel(FORTY_EIGHT_HOURS_BEFORE + dt.timedelta(minutes=1), tick=False):
        client.force_login(client_user)
        assert call(client, "GET", f"/api/bookings/{confirmed_booking.pk}").json()["canCancel"] is False
        response = call(client, "POST", f"/api/bookings/{confirmed_booking.pk}/cancel", {"reason": ""})

    assert response.status_code == 409
    assert response.json()["message"] == "This booking cannot be cancelled (less than 48 hours remaining)."
    confirmed_booking.refresh_from_db()
    assert confirmed_booking.status == BookingStatus.CONFIRMED


def test_client_can_cancel_a_scheduled_unpaid_booking_without_a_reason(client, client_user):
    booking = BookingFactory(service_request__client=client_user)
    client.force_login(client_user)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/cancel", {})
    assert response.status_code == 200
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CANCELLED
    assert booking.cancellation_reason == ""


@pytest.mark.parametrize("status", [BookingStatus.CANCELLED, BookingStatus.COMPLETED])
def test_final_bookings_cannot_be_cancelled(client, client_user, status):
    booking = BookingFactory(service_request__client=client_user, status=status)
    client.force_login(client_user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/cancel", {}).status_code == 409


def test_cancel_rejects_unknown_fields_and_wrong_types(client, client_user):
    booking = BookingFactory(service_request__client=client_user)
    client.force_login(client_user)
    unknown = call(client, "POST", f"/api/bookings/{booking.pk}/cancel", {"reason": "x", "refund": True})
    wrong_type = call(client, "POST", f"/api/bookings/{booking.pk}/cancel", {"reason": 42})
    assert (unknown.status_code, wrong_type.status_code) == (400, 400)
    assert "refund" in unknown.json()["errors"]
    assert "reason" in wrong_type.json()["errors"]
    booking.refresh_from_db()
    assert booking.status == BookingStatus.SCHEDULED


# ------------------------------------------------------------------ complete


def test_provider_completes_a_confirmed_booking_after_the_visit_starts(client, verified_provider):
    booking = BookingFactory(
        provider=verified_provider,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=1),
        status=BookingStatus.CONFIRMED,
    )
    client.force_login(verified_provider.user)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/complete")
    assert response.status_code == 200
    assert response.json()["status"] == "completed"
    booking.refresh_from_db()
    assert booking.status == BookingStatus.COMPLETED
    assert booking.service_request.status == RequestStatus.COMPLETED
    assert any("marked completed" in m for m in _system_messages(booking.client))


def test_provider_cannot_complete_before_the_visit_starts(client, verified_provider):
    booking = BookingFactory(provider=verified_provider, status=BookingStatus.CONFIRMED)
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/complete").status_code == 409
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED


def test_an_unpaid_booking_cannot_be_completed(client, verified_provider):
    booking = BookingFactory(
        provider=verified_provider, service_request__preferred_date=timezone.localdate() - dt.timedelta(days=1)
    )
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/complete").status_code == 409


# ------------------------------------------------------------------ reviews


def test_client_reviews_a_completed_booking_once_and_the_rating_is_recomputed(client, client_user, verified_provider):
    ReviewFactory(booking__provider=verified_provider, rating=2)
    booking = BookingFactory(
        service_request__client=client_user, provider=verified_provider, status=BookingStatus.COMPLETED
    )
    client.force_login(client_user)

    response = call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": 5, "comment": " Lovely "})
    again = call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": 4})

    assert response.status_code == 201
    assert response.json()["rating"] == 5
    assert response.json()["comment"] == "Lovely"
    assert again.status_code == 409
    verified_provider.refresh_from_db()
    assert verified_provider.total_reviews == 2
    assert verified_provider.rating == Decimal("3.50")
    public = call(client, "GET", f"/api/providers/{verified_provider.pk}/reviews")
    assert [r["rating"] for r in public.json()] == [5, 2]
    assert "email" not in public.json()[0]["reviewer"]


@pytest.mark.parametrize("rating", [0, 6, "5", 4.5, None, True])
def test_review_rating_must_be_a_whole_number_from_1_to_5(client, client_user, rating):
    booking = BookingFactory(service_request__client=client_user, status=BookingStatus.COMPLETED)
    client.force_login(client_user)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": rating})
    assert response.status_code == 400
    assert "rating" in response.json()["errors"]


def test_a_booking_that_is_not_completed_cannot_be_reviewed(client, client_user):
    booking = BookingFactory(service_request__client=client_user, status=BookingStatus.CONFIRMED)
    client.force_login(client_user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": 5}).status_code == 409


def test_bookings_list_shows_own_bookings_only(client, client_user, verified_provider):
    mine = BookingFactory(service_request__client=client_user)
    as_provider = BookingFactory(provider=verified_provider)
    BookingFactory()
    client.force_login(client_user)
    assert [b["id"] for b in call(client, "GET", "/api/bookings").json()] == [mine.pk]
    client.force_login(verified_provider.user)
    response = call(client, "GET", "/api/bookings")
    assert [b["id"] for b in response.json()] == [as_provider.pk]
    assert response["X-Total-Count"] == "1"
    assert response.json()[0]["serviceRequest"]["location"] == as_provider.service_request.location


def test_bookings_list_puts_active_bookings_first_soonest_first(client, client_user):
    today = timezone.localdate()

    def booking(days, status):
        return BookingFactory(
            service_request__client=client_user,
            service_request__preferred_date=today + dt.timedelta(days=days),
            status=status,
        )

    old_done = booking(-30, BookingStatus.COMPLETED)
    later = booking(9, BookingStatus.CONFIRMED)
    sooner = booking(2, BookingStatus.SCHEDULED)
    cancelled = booking(1, BookingStatus.CANCELLED)
    client.force_login(client_user)
    ids = [b["id"] for b in call(client, "GET", "/api/bookings").json()]
    assert ids == [sooner.pk, later.pk, old_done.pk, cancelled.pk]
