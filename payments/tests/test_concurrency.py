"""Concurrent calls on PostgreSQL: one intent per booking, one application per event."""

from __future__ import annotations

import threading
from decimal import Decimal

import pytest
from django.db import connection

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.stripe import signed_webhook, stripe_event
from messaging.models import Message
from payments.models import PaymentIntent, ProcessedEvent

pytestmark = pytest.mark.django_db(transaction=True)
N = 6


def run_together(n: int, call) -> list:
    barrier = threading.Barrier(n)
    results: list = [None] * n

    def worker(i: int) -> None:
        try:
            barrier.wait(timeout=10)
            results[i] = call(i)
        finally:
            connection.close()

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    return results


@pytest.fixture
def booking(client_user, verified_provider):
    return BookingFactory(service_request__client=client_user, provider=verified_provider, total_amount=Decimal("30"))


def test_concurrent_create_calls_make_one_intent_and_share_its_secret(stripe_backend, booking, api_as):
    clients = [api_as(booking.client) for _ in range(N)]

    responses = run_together(
        N, lambda i: clients[i].post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")
    )

    assert [r.status_code for r in responses] == [200] * N
    assert len({r.json()["clientSecret"] for r in responses}) == 1
    assert len(stripe_backend.intents) == 1
    assert PaymentIntent.objects.count() == 1


def test_one_event_delivered_concurrently_is_applied_once(stripe_backend, booking, api_as):
    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200
    booking.refresh_from_db()
    event = stripe_event("payment_intent.succeeded", {"id": booking.payment_intent_id})
    anonymous = [api_as(None) for _ in range(N)]
    before = Message.objects.count()

    responses = run_together(N, lambda i: signed_webhook(anonymous[i], event))

    assert [r.status_code for r in responses] == [200] * N
    assert sorted(r.json()["outcome"] for r in responses) == ["duplicate"] * (N - 1) + ["paid"]
    assert ProcessedEvent.objects.count() == 1
    assert Message.objects.count() - before == 2  # client and provider, once
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
