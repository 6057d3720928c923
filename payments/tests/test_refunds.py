"""A client cancel (48-hour rule) or an admin cancel of a paid booking refunds it in full."""

from __future__ import annotations

import pytest

from bookings.models import BookingStatus, PaymentStatus
from messaging.models import Message
from payments.errors import REFUND_FAILED_MESSAGE
from payments.models import PaymentIntent
from payments.tests.conftest import signed_webhook, stripe_event

pytestmark = pytest.mark.django_db


def pay_with_stripe(booking, api_as):
    """Create the intent through the API, then let Stripe's webhook say it succeeded."""
    assert (
        api_as(booking.client).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code
        == 200
    )
    booking.refresh_from_db()
    event = stripe_event("payment_intent.succeeded", {"id": booking.payment_intent_id, "object": "payment_intent"})
    assert signed_webhook(api_as(None), event).json()["outcome"] == "paid"
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    return booking


def client_cancel(booking, api_as):
    return api_as(booking.client).post(f"/api/bookings/{booking.pk}/cancel", {"reason": "Plans changed"}, format="json")


def admin_cancel(booking, admin, api_as):
    return api_as(admin).put(
        f"/api/admin/bookings/{booking.pk}/cancel", {"reason": "Provider unavailable"}, format="json"
    )


def test_client_cancel_of_a_paid_booking_refunds_it_in_full_through_stripe(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)

    response = client_cancel(booking, api_as)

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "cancelled"
    assert response.json()["paymentStatus"] == "refunded"
    [refund] = stripe_backend.posts("/v1/refunds")
    assert refund.params["payment_intent"] == booking.payment_intent_id
    assert "amount" not in refund.params  # no amount: Stripe refunds the whole charge
    assert refund.idempotency_key == f"kindly-booking-{booking.pk}-refund"
    assert PaymentIntent.objects.get(booking=booking).refund_id == next(iter(stripe_backend.refunds))
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)
    assert Message.objects.filter(
        receiver=booking.client, content='Your payment of $45.50 for "Set up video calls" has been refunded in full.'
    ).exists()


def test_admin_cancel_of_a_paid_booking_refunds_it_in_full(stripe_backend, booking, admin_user, api_as):
    pay_with_stripe(booking, api_as)

    response = admin_cancel(booking, admin_user, api_as)

    assert response.status_code == 200, response.content
    assert len(stripe_backend.posts("/v1/refunds")) == 1
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)


def test_the_refund_webhook_that_follows_changes_nothing_more(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    client_cancel(booking, api_as)
    messages = Message.objects.count()
    event = stripe_event(
        "charge.refunded", {"id": "ch_1", "payment_intent": booking.payment_intent_id, "refunded": True}
    )

    assert signed_webhook(api_as(None), event).json()["outcome"] == "ignored"
    assert Message.objects.count() == messages


def test_cancelling_an_unpaid_booking_refunds_nothing(stripe_backend, booking, api_as):
    response = client_cancel(booking, api_as)

    assert response.status_code == 200
    assert stripe_backend.posts("/v1/refunds") == []
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.PENDING)


def test_when_stripe_refuses_the_refund_nothing_is_cancelled(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "charge disputed"}}))

    response = client_cancel(booking, api_as)

    assert response.status_code == 502
    assert response.json()["message"] == REFUND_FAILED_MESSAGE
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)

    retried = client_cancel(booking, api_as)

    assert retried.status_code == 200
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.REFUNDED
    assert {r.idempotency_key for r in stripe_backend.posts("/v1/refunds")} == {f"kindly-booking-{booking.pk}-refund"}


def test_the_refund_goes_through_the_gateway_that_took_the_payment(settings, offline_backend, booking, api_as):
    client = api_as(booking.client)
    client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")
    assert client.post(
        "/api/payments/test/confirm", {"bookingId": booking.pk, "cardNumber": "4242424242424242"}, format="json"
    ).json() == {"status": "succeeded"}
    settings.PAYMENTS_BACKEND = "stripe"  # switched later: this payment was offline, nothing to call

    response = client_cancel(booking, api_as)

    assert response.status_code == 200
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.REFUNDED
    assert PaymentIntent.objects.get(booking=booking).refund_id.startswith("re_test_")
