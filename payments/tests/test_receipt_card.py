"""The payment receipt names the card ("a receipt: amount, last 4 digits, booking"):
the test gateway knows the number it charged; from Stripe, the sync reads the intent with its
latest charge expanded (one call, outside any transaction)."""

from __future__ import annotations

import pytest

from notifications.content import build
from notifications.models import Event

pytestmark = pytest.mark.django_db


def _receipt(booking) -> tuple[Event, str]:
    event = Event.objects.get(kind="payment_received", booking=booking)
    return event, " ".join(build(event, booking.client).lines)


@pytest.mark.sqlite  # make run's gateway and database
def test_the_test_gateways_receipt_names_the_card_it_charged(offline_backend, booking, api_as):
    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200
    card = {"bookingId": booking.pk, "cardNumber": "4242 4242 4242 4242"}
    assert client.post("/api/payments/test/confirm", card, format="json").status_code == 200

    event, text = _receipt(booking)
    assert event.context["last4"] == "4242"
    assert f"Amount: ${booking.total_amount} with the card ending in 4242." in text


def test_stripes_receipt_names_the_card_of_the_latest_charge(stripe_backend, booking, api_as):
    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200
    booking.refresh_from_db()
    stripe_backend.succeed(booking.payment_intent_id)
    stripe_backend.card_last4 = "1881"

    assert client.post("/api/payments/stripe/sync", {"bookingId": booking.pk}, format="json").status_code == 200

    reads = [r for r in stripe_backend.requests if r.method == "GET"]
    assert [(r.path, r.params.get("expand[0]")) for r in reads] == [
        (f"/v1/payment_intents/{booking.payment_intent_id}", "latest_charge")
    ]
    event, text = _receipt(booking)
    assert event.context["last4"] == "1881"
    assert "with the card ending in 1881." in text


def test_a_receipt_without_the_card_says_the_rest(stripe_backend, booking, api_as):
    """The webhook path carries no card details: the receipt leaves the card out, nothing else."""
    from marketplace.testing.stripe import signed_webhook, stripe_event

    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200
    booking.refresh_from_db()
    event = stripe_event("payment_intent.succeeded", {"id": booking.payment_intent_id})
    assert signed_webhook(api_as(None), event).json()["outcome"] == "paid"

    receipt, text = _receipt(booking)
    assert receipt.context.get("last4", "") == ""
    assert f"Amount: ${booking.total_amount}." in text
