"""Money on Celery (thin: they call payments.refunds and payments.payouts).

Each task is enqueued once the transaction that decided it has committed (never from inside one),
acknowledged late (a worker that dies mid-way leaves it to run again), and safe to run twice: the
gateway call carries the idempotency key of the booking (and of the refund's attempt), so Stripe
moves the money once. A gateway error is tried again with exponential backoff
(PAYMENTS_RETRY_BASE x 2^try, at most PAYMENTS_RETRY_CAP); after PAYMENTS_MAX_RETRIES it counts as
failed (recorded, logged; the client is told support will see to a refund). Beat runs the sweeps
(settings.CELERY_BEAT_SCHEDULE): what a lost task or a failed transfer left behind.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from payments import cards, latefees, payouts, refunds, tips
from payments.selectors import refunds_unanswered


def retry_countdown(retries: int) -> float:
    """Seconds before the next try: exponential backoff, capped."""
    return min(settings.PAYMENTS_RETRY_BASE * (2**retries), settings.PAYMENTS_RETRY_CAP)


def _last_try(task) -> bool:
    return task.request.retries >= settings.PAYMENTS_MAX_RETRIES


@shared_task(bind=True, name="payments.tasks.send_refund", acks_late=True, max_retries=None)
def send_refund(self, booking_id: int) -> str:
    """Refund a cancelled, paid booking in full (its refund is pending)."""
    outcome = refunds.booking_refund_send(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="payments.tasks.release_earning", acks_late=True, max_retries=None)
def release_earning(self, booking_id: int) -> str:
    """Transfer the provider's share of a completed, paid visit to their connected account."""
    outcome = payouts.earning_release(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="payments.tasks.reverse_earning", acks_late=True, max_retries=None)
def reverse_earning(self, booking_id: int) -> str:
    """Take back the transfer of a refunded booking's share."""
    outcome = payouts.earning_reverse_send(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(name="payments.tasks.release_waiting_earnings", acks_late=True)
def release_waiting_earnings(provider_id: int | None = None) -> int:
    """One transfer task per share that waits (a provider's, once their payouts turn on; everyone's,
    from beat: transfers that failed), and one reversal task per reversal that failed."""
    waiting = payouts.earnings_waiting(provider_id=provider_id)
    for booking_id in waiting:
        release_earning.delay(booking_id)
    reversals = payouts.reversals_waiting() if provider_id is None else []
    for booking_id in reversals:
        reverse_earning.delay(booking_id)
    waiting_tips = tips.tips_waiting(provider_id=provider_id)  # her tips too, once her payouts are on
    for booking_id in waiting_tips:
        release_tip.delay(booking_id)
    return len(waiting) + len(reversals) + len(waiting_tips)


@shared_task(name="payments.tasks.sweep_refunds", acks_late=True)
def sweep_refunds() -> int:
    """Beat: enqueue again the pending refunds the gateway never answered (a task lost with a
    broker down at the commit, or a worker gone). The same idempotency key: refunded once."""
    waiting = list(refunds_unanswered(now=timezone.now()).values_list("booking_id", flat=True))
    for booking_id in waiting:
        send_refund.delay(booking_id)
    return len(waiting)


@shared_task(bind=True, name="payments.tasks.release_late_fee", acks_late=True, max_retries=None)
def release_late_fee(self, booking_id: int) -> str:
    """Transfer a late fee, all of it, to the helper (the cancellation policy)."""
    outcome = latefees.late_fee_release(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="payments.tasks.refund_late_fee", acks_late=True, max_retries=None)
def refund_late_fee(self, booking_id: int) -> str:
    """Refund a late fee staff waived after the family disputed it."""
    outcome = latefees.late_fee_refund_send(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(name="payments.tasks.release_late_fees", acks_late=True)
def release_late_fees() -> int:
    """Beat: nobody-home fees whose time for a dispute is over, and fees that waited for the
    helper's payouts, are transferred."""
    due = latefees.late_fees_due(now=timezone.now())
    for booking_id in due:
        release_late_fee.delay(booking_id)
    return len(due)


@shared_task(bind=True, name="payments.tasks.charge_visit", acks_late=True, max_retries=None)
def charge_visit(self, booking_id: int) -> str:
    """Charge a visit to its organizer's saved card, off-session (payments.cards)."""
    outcome = cards.visit_charge_send(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="payments.tasks.release_tip", acks_late=True, max_retries=None)
def release_tip(self, booking_id: int) -> str:
    """Transfer a paid tip, all of it, to the helper (payments.tips)."""
    outcome = tips.tip_release(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="payments.tasks.refund_tip", acks_late=True, max_retries=None)
def refund_tip(self, booking_id: int) -> str:
    """The visit was refunded in full: its tip is refunded too, or flagged for staff when it has
    already reached the helper (payments.tips)."""
    outcome = tips.tip_refund_send(booking_id=booking_id, last_try=_last_try(self))
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(name="payments.tasks.sweep_visit_charges", acks_late=True)
def sweep_visit_charges() -> int:
    """Beat: charges still pending long after their accept (a task lost with the broker) are sent
    again, with the same idempotency key: each visit is charged once."""
    waiting = cards.visit_charges_unsent(now=timezone.now())
    for booking_id in waiting:
        charge_visit.delay(booking_id)
    return len(waiting)


@shared_task(name="payments.tasks.release_waiting_tips", acks_late=True)
def release_waiting_tips() -> int:
    """Beat: paid tips whose transfer failed or waited for the helper's payouts."""
    waiting = tips.tips_waiting()
    for booking_id in waiting:
        release_tip.delay(booking_id)
    return len(waiting)
