"""The booking's side of its payment, driven by payments (services and refunds)."""

from __future__ import annotations

from django.db import transaction

from accounts.models import User
from bookings import lifecycle
from bookings.models import Booking, BookingStatus, PaymentStatus, RefundStatus
from bookings.services.base import notify_people, organizers_of, push_update, tell
from core.notices.bookings import InApp
from core.notifications import NoticeKind

# ---------------------------------------------------------------- payment (driven by payments.services)
#
# Called for gateway events, which may repeat and arrive out of order, so each one is safe to
# repeat and never moves paymentStatus backwards: pending -> failed -> paid -> refunded, where
# a failure only follows pending/failed and refunded is final. Each returns what it did:
# "paid", "failed", "refunded", "ignored" (nothing to change) or "unknown" (no such intent).


def booking_lock_by_payment_intent(*, payment_intent_id: str) -> Booking | None:
    """Like booking_lock, found by its payment intent id; None when no booking has it."""
    if not payment_intent_id:
        return None
    return (
        Booking.objects.select_for_update(of=("self",))
        .select_related("service_request", "client", "provider__user")
        .filter(payment_intent_id=payment_intent_id)
        .first()
    )


def booking_payment_succeeded(*, payment_intent_id: str, card_last4: str = "", payer: User | None = None) -> str:
    """The gateway took the money: paymentStatus paid, and a scheduled booking becomes confirmed.

    A booking already paid or refunded is left alone. A booking cancelled before the money
    arrived (paid in another tab) is refunded in full right after this transaction commits.
    Returns "refunding" for that one. `payer`: who paid, when known (thanked; the other organizers
    read that they paid).
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        if booking.payment_status in (PaymentStatus.PAID, PaymentStatus.REFUNDED):
            return "ignored"
        lifecycle.paid(booking)
        if booking.status == BookingStatus.CANCELLED:
            lifecycle.request_refund(booking)
            # Money news goes to those who pay, never to the circle's plain members.
            notify_people(organizers_of(booking), InApp.PAID_AFTER_CANCEL, booking, total=str(booking.total_amount))
            push_update(booking)
            return "refunding"
        # The payer is thanked (with the card, when the gateway said which); the other organizers
        # read who paid; plain members get no money news (they see the booking confirmed).
        tell(
            NoticeKind.PAYMENT_RECEIVED,
            booking,
            payer=payer,
            total=str(booking.total_amount),
            last4=card_last4,
            payer_name=(payer.full_name or payer.email) if payer is not None else "",
        )
        tell(NoticeKind.BOOKING_PAID, booking)
        push_update(booking)
    return "paid"


def booking_payment_failed(
    *, payment_intent_id: str, message: str = "", payer: User | None = None, notify: bool = True
) -> str:
    """A payment attempt was declined: paymentStatus failed (the client may try again).

    Ignored once the booking is paid or refunded (a late failure of an earlier attempt). `payer`:
    who tried, when known (told alone: the other organizers did not try). `notify` False: the
    caller tells her in its own words (a saved card's automatic charge, payments.cards).
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        if booking.payment_status not in (PaymentStatus.PENDING, PaymentStatus.FAILED):
            return "ignored"
        if booking.payment_status != PaymentStatus.FAILED:
            booking.payment_status = PaymentStatus.FAILED
            booking.save(update_fields=["payment_status", "updated_at"])
        if notify:
            notify_people(
                [payer] if payer is not None else organizers_of(booking),
                InApp.PAYMENT_FAILED,
                booking,
                message=message,
            )
        push_update(booking)
    return "failed"


def booking_refunded(*, payment_intent_id: str) -> str:
    """The gateway says the payment was refunded in full: paymentStatus refunded, refundStatus succeeded.

    Confirms a refund asked for on cancel (pending, or failed when the answer never arrived) and
    records one made elsewhere (e.g. Stripe's dashboard). Final: a late "succeeded" for the same
    intent changes nothing afterwards.
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        if booking.payment_status == PaymentStatus.REFUNDED:
            if booking.refund_status != RefundStatus.SUCCEEDED:
                booking.refund_status = RefundStatus.SUCCEEDED
                booking.save(update_fields=["refund_status", "updated_at"])
            return "ignored"
        ours = booking.refund_status in (RefundStatus.PENDING, RefundStatus.FAILED)
        booking.payment_status = PaymentStatus.REFUNDED
        booking.refund_status = RefundStatus.SUCCEEDED
        booking.save(update_fields=["payment_status", "refund_status", "updated_at"])
        if ours:
            _notify_refunded(booking)
        else:
            notify_people(
                [*organizers_of(booking), booking.provider.user],
                InApp.REFUNDED_ELSEWHERE,
                booking,
                total=str(booking.total_amount),
            )
        push_update(booking)
    return "refunded"


# ---------------------------------------------------------------- refunds
#
# A paid booking that is cancelled is refunded in full. The booking's side lives here: in the
# cancel's transaction (bookings.lifecycle.request_refund) refundStatus becomes pending and payments is asked,
# through the core.events.RefundRequested event, to record the refund and send it to the
# gateway once the transaction has committed (payments.refunds: the gateway is never called
# inside a transaction, and a cancel that rolls back never returns money). The gateway's answer
# comes back through booking_refund_succeeded / booking_refund_failed below.


def _notify_refunded(booking: Booking) -> None:
    notify_people(organizers_of(booking), InApp.REFUNDED, booking, total=str(booking.total_amount))


def booking_refund_succeeded(booking: Booking) -> bool:
    """The gateway refunded a pending refund: paymentStatus refunded, refundStatus succeeded; the
    client is told. Caller holds the row lock. False when the webhook was quicker (nothing changes)."""
    if booking.payment_status == PaymentStatus.REFUNDED:
        return False
    booking.payment_status = PaymentStatus.REFUNDED
    booking.refund_status = RefundStatus.SUCCEEDED
    booking.save(update_fields=["payment_status", "refund_status", "updated_at"])
    _notify_refunded(booking)
    push_update(booking)
    return True


def booking_refund_failed(booking: Booking) -> None:
    """The refund failed: refundStatus failed; the client hears that support will see to it.
    Caller holds the row lock (payments.refunds records why and how to retry)."""
    booking.refund_status = RefundStatus.FAILED
    booking.save(update_fields=["refund_status", "updated_at"])
    notify_people(organizers_of(booking), InApp.REFUND_FAILED, booking, total=str(booking.total_amount))
    push_update(booking)


def booking_refund_retried(booking: Booking) -> None:
    """An admin retries a failed refund: refundStatus pending again. Caller holds the row lock."""
    booking.refund_status = RefundStatus.PENDING
    booking.save(update_fields=["refund_status", "updated_at"])
