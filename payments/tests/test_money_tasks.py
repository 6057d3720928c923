"""Money on Celery (payments.tasks): refunds and transfers are sent by a real worker after the
commit, outside any transaction, tried again with backoff when the gateway fails, with the same
idempotency key; beat's sweeps pick up what a lost task left behind.

Transactional tests: each step commits as it does in production.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus, RefundStatus
from bookings.tests.factories import BookingFactory
from marketplace.celery import app
from marketplace.testing.celery import wait_until
from marketplace.testing.stripe import pay_with_stripe
from payments import tasks
from payments.models import Earning, PayoutState, Refund
from payments.tests.test_payouts import ACCOUNT_ON, complete, connect, pay
from payments.tests.test_refunds import DISPUTED, client_cancel, state

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def past_booking(client_user, verified_provider):
    """A $45.50 booking whose visit was yesterday, payment pending (as in test_payouts)."""
    return BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=1),
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )


def test_a_refund_the_gateway_fails_once_is_sent_again_by_the_worker(celery_worker, stripe_backend, booking, api_as):
    pay_with_stripe(booking, api_as)
    stripe_backend.fail_next.append(DISPUTED)

    assert client_cancel(booking, api_as).status_code == 200

    wait_until(lambda: state(booking)[2] == RefundStatus.SUCCEEDED)
    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    tries = stripe_backend.posts("/v1/refunds")
    assert [r.idempotency_key for r in tries] == [f"kindly-booking-{booking.pk}-refund"] * 2
    assert [r.caller_in_transaction for r in tries] == [False, False]
    assert Refund.objects.get(booking=booking).attempt == 1  # one attempt, tried twice: refunded once


def test_a_transfer_the_gateway_fails_once_is_sent_again_by_the_worker(
    celery_worker, stripe_backend, past_booking, api_as
):
    connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "insufficient"}}))

    complete(past_booking, api_as)

    wait_until(lambda: Earning.objects.get(booking=past_booking).state == PayoutState.ON_ITS_WAY)
    earning = Earning.objects.get(booking=past_booking)
    assert earning.last_error == ""
    tries = stripe_backend.posts("/v1/transfers")
    assert [r.idempotency_key for r in tries] == [f"kindly-booking-{past_booking.pk}-transfer"] * 2
    assert [r.caller_in_transaction for r in tries] == [False, False]


def test_a_refund_whose_task_was_lost_is_sent_by_the_sweep(stripe_backend, booking, api_as, monkeypatch):
    pay_with_stripe(booking, api_as)
    in_process = tasks.send_refund.delay  # marketplace.testing.celery.money_tasks_in_process
    monkeypatch.setattr(tasks.send_refund, "delay", lambda *args, **kwargs: None)  # the broker was down
    assert client_cancel(booking, api_as).status_code == 200
    assert state(booking)[2] == RefundStatus.PENDING and not stripe_backend.posts("/v1/refunds")
    monkeypatch.setattr(tasks.send_refund, "delay", in_process)
    assert tasks.sweep_refunds.apply().get() == 0  # not yet: a task may still be trying
    Refund.objects.filter(booking=booking).update(requested_at=timezone.now() - dt.timedelta(minutes=11))

    assert tasks.sweep_refunds.apply().get() == 1

    assert state(booking) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    assert [r.idempotency_key for r in stripe_backend.posts("/v1/refunds")] == [f"kindly-booking-{booking.pk}-refund"]


def test_a_transfer_that_failed_is_sent_again_by_the_sweep(stripe_backend, past_booking, api_as, client_user):
    """The shares that wait for a provider without payouts are left alone; a failed transfer goes."""
    waiting_for_setup = BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=1),
        total_amount=Decimal("30"),
    )
    pay(stripe_backend, waiting_for_setup, api_as)
    complete(waiting_for_setup, api_as)
    connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "insufficient"}}))
    complete(past_booking, api_as)  # the task's last try (in process): failed, kept pending
    assert Earning.objects.get(booking=past_booking).state == PayoutState.PENDING

    assert tasks.release_waiting_earnings.apply().get() == 1

    assert Earning.objects.get(booking=past_booking).state == PayoutState.ON_ITS_WAY
    assert Earning.objects.get(booking=waiting_for_setup).state == PayoutState.PENDING
    assert [r.idempotency_key for r in stripe_backend.posts("/v1/transfers")] == [
        f"kindly-booking-{past_booking.pk}-transfer"
    ] * 2


def test_the_sweeps_run_on_beat():
    app.loader.import_default_modules()
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"payments.tasks.sweep_refunds", "payments.tasks.release_waiting_earnings"} <= scheduled
    assert scheduled <= set(app.tasks)
    for name in ("send_refund", "release_earning", "reverse_earning"):
        assert getattr(tasks, name).acks_late is True
