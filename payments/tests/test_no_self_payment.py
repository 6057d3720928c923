"""A client cannot mark its own booking paid by any API call (Stripe is the only source of "paid")."""

from __future__ import annotations

import json

import pytest

from bookings.models import BookingStatus, PaymentStatus
from marketplace.testing.stripe import signed_webhook, stripe_event

pytestmark = pytest.mark.django_db


def test_client_cannot_mark_its_own_booking_paid(stripe_backend, booking, api_as):
    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200
    booking.refresh_from_db()
    paid_event = stripe_event("payment_intent.succeeded", {"id": booking.payment_intent_id})
    body = json.dumps(paid_event)
    attempts = [
        # the webhook, signed out, unsigned or signed with a made-up secret, and with the session
        client.generic("POST", "/api/payments/stripe/webhook", body, content_type="application/json"),
        signed_webhook(client, paid_event, secret="whsec_guessed"),
        # the offline gateway's confirm does not exist while Stripe is the gateway
        client.post(
            "/api/payments/test/confirm", {"bookingId": booking.pk, "cardNumber": "4242424242424242"}, format="json"
        ),
        # the create call does not take a status
        client.post("/api/create-payment-intent", {"bookingId": booking.pk, "paymentStatus": "paid"}, format="json"),
        # the booking endpoints have no way to write paymentStatus or status
        client.put(f"/api/bookings/{booking.pk}", {"paymentStatus": "paid", "status": "confirmed"}, format="json"),
        client.patch(f"/api/bookings/{booking.pk}", {"paymentStatus": "paid", "status": "confirmed"}, format="json"),
        client.post(f"/api/bookings/{booking.pk}/complete", {}, format="json"),
        client.put(f"/api/admin/bookings/{booking.pk}/reassign", {"newProviderId": 1, "reason": "x"}, format="json"),
    ]

    assert all(r.status_code >= 400 for r in attempts), [(r.status_code, r.content) for r in attempts]
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)
