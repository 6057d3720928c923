"""No call to an outside service runs inside a database transaction: while Stripe creates a
payment intent, the booking's row is free, so a slow Stripe never blocks a cancel of the same
booking. (The fake Stripe also fails any transactional test that calls it inside a transaction.)

Transactional tests: each step commits as it does in production.
"""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import DatabaseError, connection, transaction

from bookings.models import Booking, BookingStatus
from bookings.services import booking_cancel_by_client
from bookings.tests.factories import BookingFactory
from payments.models import PaymentIntent

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def booking(client_user, verified_provider):
    return BookingFactory(service_request__client=client_user, provider=verified_provider, total_amount=Decimal("30"))


def _pay(booking, api_as):
    return api_as(booking.client).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")


def test_stripe_creates_the_intent_outside_any_transaction(stripe_backend, booking, api_as):
    assert _pay(booking, api_as).status_code == 200

    (created,) = stripe_backend.posts("/v1/payment_intents")
    assert created.caller_in_transaction is False
    booking.refresh_from_db()
    assert booking.payment_intent_id == PaymentIntent.objects.get(booking=booking).intent_id


def test_a_cancel_while_stripe_answers_goes_through_and_the_payment_is_then_refused(stripe_backend, booking, api_as):
    seen: list = []

    def cancel_from_another_connection(request):
        """In the fake Stripe's thread (its own database connection), while the intent is created."""
        if request.path != "/v1/payment_intents":
            return
        try:
            with transaction.atomic():
                Booking.objects.select_for_update(nowait=True).get(pk=booking.pk)
            seen.append("free")
        except DatabaseError as exc:  # the payment's transaction holds the row lock
            seen.append(exc)
        if seen == ["free"]:
            booking_cancel_by_client(booking_id=booking.pk, actor=booking.client, reason="Plans changed")
        connection.close()

    stripe_backend.on_post = cancel_from_another_connection

    response = _pay(booking, api_as)

    assert seen == ["free"]
    assert response.status_code == 409
    assert response.json()["message"] == "This booking was cancelled, so it cannot be paid."
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CANCELLED and booking.payment_intent_id in ("", None)
    assert not PaymentIntent.objects.filter(booking=booking).exists()
