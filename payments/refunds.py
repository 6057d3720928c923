"""The full refund of a cancelled, paid booking, in three steps, so that the gateway is never
called while a transaction (and so the booking's row lock) is open, and a cancel that rolls back
never returns money:
  1. in the cancel's transaction bookings.services sets refundStatus pending and sends
     core.events.RefundRequested: on_refund_requested records the payments.Refund
     with the attempt's idempotency key and schedules step 2 on commit;
  2. after that transaction commits, the Celery task payments.tasks.send_refund calls
     booking_refund_send, which calls the gateway outside any transaction; a gateway error is
     tried again with backoff and the same idempotency key before it counts as failed;
  3. the gateway's answer is recorded in a short transaction of its own through the booking's
     transitions (bookings.services): succeeded -> paymentStatus refunded, refundStatus
     succeeded; pending -> the webhook confirms it later (bookings.services.booking_refunded);
     refused or unreachable -> refundStatus failed: the booking stays cancelled (and paid), the
     client is told that support will see to it, an error is logged, and an admin retries with
     `manage.py retry_refunds` (booking_refund_retry). A refund whose task was lost (a broker
     down at the commit) is enqueued again by beat (payments.tasks.sweep_refunds).
Stripe's charge.refunded webhook confirms every refund, also one whose answer was lost.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from bookings.models import Booking, PaymentStatus, RefundStatus
from bookings.services import (
    booking_lock,
    booking_lock_by_payment_intent,
    booking_refund_failed,
    booking_refund_retried,
    booking_refund_succeeded,
)
from core.events import RefundRequested
from payments.gateways import REFUND_FAILED, REFUND_SUCCEEDED, GatewayError, RefundResult, gateway_named, get_gateway
from payments.latefees import late_fee_kept
from payments.models import PaymentIntent, Refund
from payments.payouts import cents, earning_refunded
from payments.tips import tip_refund_on_commit

logger = logging.getLogger(__name__)


def refund_key(*, booking_id: int, attempt: int) -> str:
    """The idempotency key of one refund attempt of a booking: one key per booking, and a new one
    only for an admin's new attempt after a failure."""
    key = f"kindly-booking-{booking_id}-refund"
    return key if attempt == 1 else f"{key}-{attempt}"


def refund_open(*, booking: Booking) -> Refund:
    """Record that this booking is to be refunded in full, or start the next attempt of a failed one.

    Caller holds the booking's row lock inside transaction.atomic. The refund goes through the
    gateway that took the payment (the current one when no intent was recorded).
    """
    refund = Refund.objects.select_for_update().filter(booking=booking).first()
    if refund is None:
        intent = PaymentIntent.objects.filter(booking=booking).first()
        # A late fee (the cancellation policy) is kept from the refund for the helper.
        kept = late_fee_kept(booking=booking)
        return Refund.objects.create(
            booking=booking,
            gateway=intent.gateway if intent else get_gateway().name,
            attempt=1,
            idempotency_key=refund_key(booking_id=booking.pk, attempt=1),
            amount=booking.total_amount - kept if kept else None,
        )
    refund.attempt += 1
    refund.idempotency_key = refund_key(booking_id=booking.pk, attempt=refund.attempt)
    refund.last_error = ""
    refund.save(update_fields=["attempt", "idempotency_key", "last_error", "updated_at"])
    return refund


def refund_call(*, refund: Refund, booking: Booking) -> RefundResult:
    """Ask the gateway for the refund with the attempt's idempotency key. Never inside a transaction.

    Raises payments.gateways.GatewayError when the gateway refuses or cannot be reached.
    """
    logger.info("Refunding booking %s through %s (%s)", booking.pk, refund.gateway, refund.idempotency_key)
    return gateway_named(refund.gateway).refund(
        booking,
        idempotency_key=refund.idempotency_key,
        amount_cents=None if refund.amount is None else cents(refund.amount),
    )


def on_refund_requested(event: RefundRequested) -> None:
    """Step 1 (subscriber of RefundRequested, inside the cancel's transaction, which holds the
    booking's row lock): record the refund; send it once that transaction has committed."""
    refund_open(booking=Booking.objects.get(pk=event.booking_id))
    refund_enqueue_on_commit(booking_id=event.booking_id)


def refund_enqueue_on_commit(*, booking_id: int) -> None:
    """Send the refund from Celery (payments.tasks.send_refund) once the transaction commits.

    robust: the cancel has committed; a broker that cannot be reached leaves the refund pending,
    and beat's sweep (payments.tasks.sweep_refunds) enqueues it again."""
    from payments.tasks import send_refund

    transaction.on_commit(lambda: send_refund.delay(booking_id), robust=True)


def booking_refund_send(*, booking_id: int, last_try: bool = True) -> str:
    """Steps 2 and 3 for a booking whose refund is pending: call the gateway, record its answer.

    Must run outside any transaction (the gateway call would otherwise hold the booking's row
    lock). Safe to repeat and to run twice at once: both calls carry the attempt's idempotency
    key, so the gateway refunds once. Returns "succeeded", "pending" (the webhook confirms),
    "failed", "retry" (the gateway refused or was unreachable and this is not the last try: the
    refund stays pending, the task tries again later with the same key), or "ignored" (no refund
    pending).
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        refund = Refund.objects.select_for_update().filter(booking=booking).first()
        if booking.refund_status != RefundStatus.PENDING or refund is None:
            return "ignored"
        refund.attempted_at = timezone.now()
        refund.save(update_fields=["attempted_at", "updated_at"])
    # Committed: the booking's row lock is released while the gateway answers.
    try:
        result = refund_call(refund=refund, booking=booking)
    except GatewayError as exc:
        if not last_try:
            logger.warning("Refund of booking %s: the gateway failed (%s); trying again", booking_id, exc.message)
            return "retry"
        return _refund_record_failure(booking_id=booking_id, attempt=refund.attempt, message=exc.message)
    if result.status == REFUND_SUCCEEDED:
        return _refund_record_success(booking_id=booking_id, refund_id=result.refund_id)
    if result.status == REFUND_FAILED:
        return _refund_record_failure(
            booking_id=booking_id,
            attempt=refund.attempt,
            message=f"The gateway answered refund {result.refund_id} as failed.",
            refund_id=result.refund_id,
        )
    Refund.objects.filter(pk=refund.pk, attempt=refund.attempt).update(
        refund_id=result.refund_id, updated_at=timezone.now()
    )
    logger.info("Booking %s: refund %s pending at the gateway", booking_id, result.refund_id)
    return "pending"


def _refund_record_success(*, booking_id: int, refund_id: str) -> str:
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        if refund_id:
            Refund.objects.filter(booking=booking).update(refund_id=refund_id, updated_at=timezone.now())
        # A tip of a visit refunded in full follows it (payments.tips), whoever recorded the refund.
        tip_refund_on_commit(booking_id=booking_id)
        if not booking_refund_succeeded(booking):  # the webhook was quicker
            return "succeeded"
        earning_refunded(booking=booking)
    logger.info("Booking %s refunded in full (%s)", booking_id, refund_id or "already refunded")
    return "succeeded"


def _refund_record_failure(*, booking_id: int, attempt: int, message: str, refund_id: str = "") -> str:
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        refund = Refund.objects.select_for_update().get(booking=booking)
        if booking.refund_status != RefundStatus.PENDING or refund.attempt != attempt:
            return "ignored"  # confirmed by the webhook meanwhile, or a newer attempt owns it
        if refund_id:
            refund.refund_id = refund_id
        _refund_failed(booking, refund, message)
    return "failed"


def _refund_failed(booking: Booking, refund: Refund, message: str) -> None:
    """Record why the refund failed and how to retry; refundStatus failed. Caller holds the locks."""
    refund.last_error = message[:2000]
    refund.save(update_fields=["refund_id", "last_error", "updated_at"])
    logger.error(
        "Refund of booking %s failed (attempt %s, %s): %s. Retry with: manage.py retry_refunds --booking %s",
        booking.pk,
        refund.attempt,
        refund.gateway,
        message,
        booking.pk,
    )
    booking_refund_failed(booking)


def booking_refund_retry(*, booking_id: int) -> str:
    """An admin retries a refund (manage.py retry_refunds). Outside any transaction.

    failed: a new attempt with its own idempotency key, sent now. pending with no answer from
    the gateway yet (the process stopped between the cancel and the call): sent again with the
    same key. pending and accepted by the gateway: "awaiting" its webhook, nothing sent.
    Otherwise "ignored". Returns what booking_refund_send returned, or one of those.
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        refund = Refund.objects.select_for_update().filter(booking=booking).first()
        if booking.refund_status == RefundStatus.FAILED and booking.payment_status == PaymentStatus.PAID:
            refund_open(booking=booking)
            booking_refund_retried(booking)
        elif booking.refund_status != RefundStatus.PENDING or refund is None:
            return "ignored"
        elif refund.refund_id:
            return "awaiting"
    return booking_refund_send(booking_id=booking_id)


def booking_refund_failed_at_gateway(*, payment_intent_id: str, message: str = "") -> str:
    """The gateway says a refund it had accepted failed (Stripe's refund.failed): refundStatus failed.

    Only a refund still pending changes; an admin retries it (retry_refunds).
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        refund = Refund.objects.select_for_update().filter(booking=booking).first()
        if refund is None or booking.refund_status != RefundStatus.PENDING:
            logger.error(
                "Booking %s: the gateway reports a failed refund while its refund is %s (%s)",
                booking.pk,
                booking.refund_status,
                message or "no reason given",
            )
            return "ignored"
        _refund_failed(booking, refund, message or "The gateway reported the refund as failed.")
    return "failed"
