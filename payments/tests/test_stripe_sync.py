"""POST /api/payments/stripe/sync: the server asks Stripe itself whether the booking's intent succeeded."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from marketplace.testing.stripe import signed_webhook, stripe_event
from messaging.models import Message

URL = "/api/payments/stripe/sync"
pytestmark = pytest.mark.django_db


@pytest.fixture
def started(stripe_backend, booking, api_as):
    assert (
        api_as(booking.client).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code
        == 200
    )
    booking.refresh_from_db()
    return booking


def state(booking):
    booking.refresh_from_db()
    return booking.status, booking.payment_status


def test_nothing_changes_until_stripe_says_succeeded(started, stripe_backend, api_as):
    response = api_as(started.client).post(URL, {"bookingId": started.pk}, format="json")

    assert response.status_code == 200
    assert response.json() == {"status": "scheduled", "paymentStatus": "pending"}
    assert [r.path for r in stripe_backend.requests if r.method == "GET"] == [
        f"/v1/payment_intents/{started.payment_intent_id}"
    ]
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_when_stripe_says_succeeded_the_booking_is_paid_once(started, stripe_backend, api_as):
    stripe_backend.intents[started.payment_intent_id]["status"] = "succeeded"
    client = api_as(started.client)

    first = client.post(URL, {"bookingId": started.pk}, format="json")
    again = client.post(URL, {"bookingId": started.pk}, format="json")
    webhook = signed_webhook(api_as(None), stripe_event("payment_intent.succeeded", {"id": started.payment_intent_id}))

    assert first.json() == again.json() == {"status": "confirmed", "paymentStatus": "paid"}
    assert webhook.json()["outcome"] == "ignored"
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    assert Message.objects.filter(booking=started, content__contains="is confirmed").count() == 2


def test_the_browser_cannot_tell_it_the_status(started, api_as):
    response = api_as(started.client).post(URL, {"bookingId": started.pk, "status": "succeeded"}, format="json")

    assert response.status_code == 400
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_only_the_client_404_for_others_403_for_the_provider(started, stripe_backend, api_as):
    stripe_backend.intents[started.payment_intent_id]["status"] = "succeeded"

    assert api_as(UserFactory()).post(URL, {"bookingId": started.pk}, format="json").status_code == 404
    assert api_as(started.provider.user).post(URL, {"bookingId": started.pk}, format="json").status_code == 403
    assert api_as(None).post(URL, {"bookingId": started.pk}, format="json").status_code == 401
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_stripe_unreachable_is_502_not_500(settings, started, api_as):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"

    response = api_as(started.client).post(URL, {"bookingId": started.pk}, format="json")

    assert response.status_code == 502
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_sync_does_not_exist_with_the_test_gateway(offline_backend, booking, api_as):
    assert api_as(booking.client).post(URL, {"bookingId": booking.pk}, format="json").status_code == 404
