"""Where a booking's status and its request's status move together.

The booking services (bookings.services) check who may do what and tell people; the moves
themselves are made here, inside the caller's transaction, on rows the caller has locked:

    cancel   the booking is cancelled; its request settles (settle_request); a paid booking's
             full refund is asked for (refund_request)
"""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from accounts.models import User
from bookings.models import CENT, Booking, BookingStatus, PaymentStatus, RefundStatus
from core import events
from requests_app.services import service_request_lock, service_request_mark_cancelled, service_request_mark_completed


def booking_cancel_transition(booking: Booking, *, actor: User, reason: str) -> None:
    """Cancel a booking. Caller holds the row lock and has checked actor, state and rules.

    The one place every cancel goes through. A paid booking's full refund is requested here and
    made once the caller's transaction has committed (refund_request): the cancel stands
    whatever the gateway answers, and a cancel that rolls back never refunds.
    """
    booking.status = BookingStatus.CANCELLED
    booking.cancelled_at = timezone.now()
    booking.cancellation_reason = reason
    booking.cancelled_by = actor
    booking.save(update_fields=["status", "cancelled_at", "cancellation_reason", "cancelled_by", "updated_at"])
    settle_request(booking)
    if cancel_refund_amount(booking):
        refund_request(booking)


def settle_request(booking: Booking) -> None:
    """The request's status once one of its visits ended (cancelled or completed; caller's transaction).

    A series (issue 18) stays booked while any visit is still ahead; after its last one the request
    is completed when any visit took place, cancelled when none did. A one-off visit is the last
    one. The request's row is locked first, so two visits ending at once see each other's end.
    """
    service_request_lock(service_request_id=booking.service_request_id)
    visits = Booking.objects.filter(service_request_id=booking.service_request_id)
    statuses = set(visits.values_list("status", flat=True))
    if statuses & {BookingStatus.SCHEDULED, BookingStatus.CONFIRMED}:
        return
    if BookingStatus.COMPLETED in statuses:
        service_request_mark_completed(service_request_id=booking.service_request_id)
    else:
        service_request_mark_cancelled(service_request_id=booking.service_request_id)


def refund_request(booking: Booking) -> None:
    """Ask for the full refund of a paid booking. Caller holds its row lock inside transaction.atomic."""
    booking.refund_status = RefundStatus.PENDING
    booking.save(update_fields=["refund_status", "updated_at"])
    # payments records the refund now (with the cancel) and calls the gateway after the commit.
    events.publish(events.RefundRequested(booking_id=booking.pk))


def cancel_refund_amount(booking: Booking) -> Decimal:
    """What cancelling the booking returns to the card: a paid booking is refunded in full
    (booking_cancel_transition requests it), an unpaid one was never charged, so nothing. The one rule the cancel
    and its dialogs (BookingSerializer.cancelRefund) read."""
    if booking.payment_status != PaymentStatus.PAID:
        return Decimal("0.00")
    return Decimal(booking.total_amount).quantize(CENT)
