"""A cancelled, paid booking is refunded in full: the cancel commits first, the gateway is called
after the commit (never with the booking's row lock held), its answer is recorded on the booking,
and Stripe's webhook confirms it. A refund that fails leaves the booking cancelled, marked failed,
for an admin to retry (manage.py retry_refunds).

Transactional tests: the refund runs on commit, as it does in production.
"""

from __future__ import annotations

import datetime as dt
import logging

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from bookings.models import Booking, BookingStatus, PaymentStatus, RefundStatus
from bookings.services import booking_cancel_by_client
from bookings.tests.factories import BookingFactory
from core import events
from marketplace.testing.stripe import pay_with_stripe, signed_webhook, stripe_event
from messaging.models import Message
from payments.gateways import TestGateway
from payments.models import Refund
from payments.refunds import booking_refund_send

pytestmark = pytest.mark.django_db(transaction=True)

REFUNDED_TEXT = 'Your payment of $45.50 for "Set up video calls" has been refunded in full.'
DISPUTED = (400, {"error": {"type": "invalid_request_error", "message": "charge disputed"}})


def client_cancel(booking, api_as):
    return api_as(booking.client).post(f"/api/bookings/{booking.pk}/cancel", {"reason": "Plans changed"}, format="json")


def admin_cancel(booking, admin, api_as):
    return api_as(admin).put(
        f"/api/admin/bookings/{booking.pk}/cancel", {"reason": "Provider unavailable"}, format="json"
    )


def state(booking) -> tuple[str, str, str]:
    booking.refresh_from_db()
    return booking.status, booking.payment_status, booking.refund_status


def charge_refunded(booking):
    return stripe_event(
        "charge.refunded",
        {"id": "ch_fake_1", "object": "charge", "payment_intent": booking.payment_intent_id, "refunded": True},
    )


def refund_keys(fake) -> list[str | None]:
    return [r.idempotency_key for r in fake.posts("/v1/refunds")]


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
    record = Refund.objects.get(booking=booking)
    assert (record.gateway, record.attempt, record.refund_id) == ("stripe", 1, next(iter(stripe_backend.refunds)))
    assert record.attempted_at is not None and record.last_error == ""
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    assert Message.objects.filter(receiver=booking.client, content=REFUNDED_TEXT).count() == 1
    # Sending again (a second worker, a retried job) calls nothing.
    assert booking_refund_send(booking_id=booking.pk) == "ignored"
    assert len(stripe_backend.posts("/v1/refunds")) == 1


def test_stripe_is_called_after_the_cancel_committed_and_without_the_row_lock(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    seen: list = []

    def look_from_another_connection(request):
        """In the fake Stripe's thread (its own database connection), while the refund is asked for."""
        if request.path != "/v1/refunds":
            return
        try:
            with transaction.atomic():
                locked = Booking.objects.select_for_update(nowait=True).get(pk=booking.pk)
                seen.append((locked.status, locked.payment_status, locked.refund_status))
        except DatabaseError as exc:  # the row is locked by the cancel's transaction
            seen.append(exc)
        finally:
            connection.close()

    stripe_backend.on_post = look_from_another_connection

    assert client_cancel(booking, api_as).status_code == 200

    # The cancel was committed and its lock released before Stripe was called.
    assert seen == [(BookingStatus.CANCELLED, PaymentStatus.PAID, RefundStatus.PENDING)]
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def test_a_cancel_that_rolls_back_refunds_nothing(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)

    # As in account closing: the cancel is one step of a larger transaction that then fails.
    with pytest.raises(RuntimeError), transaction.atomic():
        booking_cancel_by_client(booking_id=booking.pk, actor=booking.client, reason="Closing")
        raise RuntimeError("a later step failed")

    assert stripe_backend.posts("/v1/refunds") == []
    assert state(booking) == (BookingStatus.CONFIRMED, PaymentStatus.PAID, RefundStatus.NONE)
    assert not Refund.objects.filter(booking=booking).exists()


def test_admin_cancel_of_a_paid_booking_refunds_it_in_full(stripe_backend, booking, admin_user, api_as):
    pay_with_stripe(booking, api_as)

    response = admin_cancel(booking, admin_user, api_as)

    assert response.status_code == 200, response.content
    assert refund_keys(stripe_backend) == [f"kindly-booking-{booking.pk}-refund"]
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def test_each_booking_has_its_own_idempotency_key(stripe_backend, booking, api_as, verified_provider):
    other = BookingFactory(service_request__client=booking.client, provider=verified_provider, total_amount="20.00")
    for paid in (booking, other):
        pay_with_stripe(paid, api_as)
        assert client_cancel(paid, api_as).status_code == 200

    assert refund_keys(stripe_backend) == [f"kindly-booking-{booking.pk}-refund", f"kindly-booking-{other.pk}-refund"]
    assert {r["payment_intent"] for r in stripe_backend.refunds.values()} == {
        booking.payment_intent_id,
        other.payment_intent_id,
    }


def test_the_refund_webhook_that_follows_changes_nothing_more(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    client_cancel(booking, api_as)
    messages = Message.objects.count()

    assert signed_webhook(api_as(None), charge_refunded(booking)).json()["outcome"] == "ignored"
    assert Message.objects.count() == messages
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def test_cancelling_an_unpaid_booking_refunds_nothing(stripe_backend, booking, api_as):
    response = client_cancel(booking, api_as)

    assert response.status_code == 200
    assert stripe_backend.posts("/v1/refunds") == []
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.PENDING, RefundStatus.NONE)
    assert not Refund.objects.exists()


def test_when_stripe_refuses_the_booking_stays_cancelled_and_an_admin_retries(
    stripe_backend, booking, api_as, caplog, capsys
):
    """The rule: the cancel stands; the refund is marked failed and retried by an admin."""
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append(DISPUTED)

    with caplog.at_level(logging.ERROR, logger="payments.refunds"):
        response = client_cancel(booking, api_as)

    assert response.status_code == 200, response.content
    assert (response.json()["status"], response.json()["paymentStatus"]) == ("cancelled", "paid")
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.PAID, RefundStatus.FAILED)
    assert "charge disputed" in Refund.objects.get(booking=booking).last_error
    assert f"manage.py retry_refunds --booking {booking.pk}" in caplog.text
    assert Message.objects.filter(
        receiver=booking.client, content__startswith="We could not refund your payment of $45.50"
    ).exists()
    assert not Message.objects.filter(content=REFUNDED_TEXT).exists()

    call_command("retry_refunds", "--dry-run")

    assert (
        f"would retry booking {booking.pk}: $45.50 via stripe, refund failed after attempt 1" in capsys.readouterr().out
    )
    assert len(stripe_backend.posts("/v1/refunds")) == 1
    assert state(booking)[2] == RefundStatus.FAILED

    call_command("retry_refunds")

    assert "refunded in full" in capsys.readouterr().out
    # A new attempt, a new key: Stripe would answer the first key with its stored failure for 24 hours.
    assert refund_keys(stripe_backend) == [
        f"kindly-booking-{booking.pk}-refund",
        f"kindly-booking-{booking.pk}-refund-2",
    ]
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    assert Message.objects.filter(receiver=booking.client, content=REFUNDED_TEXT).count() == 1

    call_command("retry_refunds")

    assert "No refund is waiting to be retried." in capsys.readouterr().out


def test_a_retry_that_fails_again_exits_with_an_error(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next += [DISPUTED, DISPUTED]
    client_cancel(booking, api_as)

    with pytest.raises(CommandError, match="1 refund"):
        call_command("retry_refunds")

    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.PAID, RefundStatus.FAILED)
    assert Refund.objects.get(booking=booking).attempt == 2


def test_when_an_answer_was_lost_stripe_already_refunded_counts_as_done(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append(DISPUTED)
    client_cancel(booking, api_as)
    stripe_backend.fail_next.append(
        (400, {"error": {"type": "invalid_request_error", "code": "charge_already_refunded", "message": "refunded"}})
    )

    call_command("retry_refunds", "--booking", str(booking.pk))

    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def test_a_refund_never_sent_is_sent_again_with_the_same_key(stripe_backend, booking, api_as):
    """The process stopped between the cancel's commit and the call: the refund stays pending."""
    pay_with_stripe(booking, api_as)
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.CANCELLED, refund_status=RefundStatus.PENDING)
    Refund.objects.create(booking=booking, gateway="stripe", idempotency_key=f"kindly-booking-{booking.pk}-refund")

    call_command("retry_refunds")  # just asked for: the on-commit call may still be under way

    assert stripe_backend.posts("/v1/refunds") == []

    Refund.objects.filter(booking=booking).update(requested_at=timezone.now() - dt.timedelta(minutes=11))
    call_command("retry_refunds")

    assert refund_keys(stripe_backend) == [f"kindly-booking-{booking.pk}-refund"]
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def test_a_pending_refund_is_confirmed_by_the_webhook(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append(
        (200, {"id": "re_fake_pending", "object": "refund", "status": "pending", "payment_intent": "pi"})
    )

    response = client_cancel(booking, api_as)

    assert response.json()["paymentStatus"] == "paid"
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.PAID, RefundStatus.PENDING)
    assert Refund.objects.get(booking=booking).refund_id == "re_fake_pending"
    Refund.objects.filter(booking=booking).update(attempted_at=timezone.now() - dt.timedelta(hours=1))
    call_command("retry_refunds")
    assert len(stripe_backend.posts("/v1/refunds")) == 1  # accepted by Stripe: waits for the webhook

    assert signed_webhook(api_as(None), charge_refunded(booking)).json()["outcome"] == "refunded"

    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    assert Message.objects.filter(receiver=booking.client, content=REFUNDED_TEXT).count() == 1
    assert not Message.objects.filter(receiver=booking.provider.user, content__contains="refunded").exists()


def test_the_webhook_confirms_a_refund_whose_answer_was_lost(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append(DISPUTED)
    client_cancel(booking, api_as)
    assert state(booking)[2] == RefundStatus.FAILED

    assert signed_webhook(api_as(None), charge_refunded(booking)).json()["outcome"] == "refunded"

    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def test_stripe_reporting_a_pending_refund_failed_marks_it_failed(stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append(
        (200, {"id": "re_fake_pending", "object": "refund", "status": "pending", "payment_intent": "pi"})
    )
    client_cancel(booking, api_as)
    event = stripe_event(
        "refund.failed",
        {
            "id": "re_fake_pending",
            "object": "refund",
            "payment_intent": booking.payment_intent_id,
            "status": "failed",
            "failure_reason": "expired_or_canceled_card",
        },
    )

    assert signed_webhook(api_as(None), event).json()["outcome"] == "failed"

    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.PAID, RefundStatus.FAILED)
    assert "expired_or_canceled_card" in Refund.objects.get(booking=booking).last_error


def test_the_refund_goes_through_the_gateway_that_took_the_payment(settings, offline_backend, booking, api_as):
    client = api_as(booking.client)
    client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")
    assert client.post(
        "/api/payments/test/confirm", {"bookingId": booking.pk, "cardNumber": "4242424242424242"}, format="json"
    ).json() == {"status": "succeeded"}
    settings.PAYMENTS_BACKEND = "stripe"  # switched later: this payment was offline, nothing to call

    response = client_cancel(booking, api_as)

    assert response.status_code == 200
    assert response.json()["paymentStatus"] == "refunded"
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    record = Refund.objects.get(booking=booking)
    assert (record.gateway, record.idempotency_key) == ("test", f"kindly-booking-{booking.pk}-refund")
    # The offline gateway answers the same key with the same refund, as Stripe does.
    assert record.refund_id == TestGateway().refund(booking, idempotency_key=record.idempotency_key).refund_id
    assert record.refund_id.startswith("re_test_")


def test_a_paid_booking_is_never_cancelled_without_its_refund(stripe_backend, booking, api_as, monkeypatch):
    """bookings asks for the refund through the RefundRequested event; without payments
    subscribed, the cancel fails and rolls back instead of keeping the money."""
    pay_with_stripe(booking, api_as)
    monkeypatch.setitem(events.SUBSCRIPTIONS, events.RefundRequested, [])
    with pytest.raises(ImproperlyConfigured, match="RefundRequested"):
        booking_cancel_by_client(booking_id=booking.pk, actor=booking.client, reason="Plans changed")
    assert state(booking) == (BookingStatus.CONFIRMED, PaymentStatus.PAID, RefundStatus.NONE)
    assert not Refund.objects.exists()


def test_the_cancel_dialog_is_told_what_the_cancel_refunds(stripe_backend, booking, api_as):
    """The booking says what a cancel returns to the card (the dialog's "You will get $45.50 back
    to your card"; "Nothing was charged" unpaid), from the rule the cancel itself follows."""
    client = api_as(booking.client)
    assert client.get(f"/api/bookings/{booking.pk}").json()["cancelRefund"] == 0.0
    pay_with_stripe(booking, api_as)
    promised = client.get(f"/api/bookings/{booking.pk}").json()["cancelRefund"]

    assert client_cancel(booking, api_as).status_code == 200

    assert promised == float(booking.total_amount) == 45.5
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    # Refunded: nothing more would come back.
    assert client.get(f"/api/bookings/{booking.pk}").json()["cancelRefund"] == 0.0
