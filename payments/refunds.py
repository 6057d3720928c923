"""The refund record of a cancelled, paid booking, and the gateway call; the booking's side
(refundStatus, paymentStatus, messages) is in bookings.services ("refunds"), which calls these.

Kept apart from payments.services so bookings.services can import it without an import cycle.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from payments.gateways import RefundResult, gateway_named, get_gateway
from payments.models import PaymentIntent, Refund

if TYPE_CHECKING:
    from bookings.models import Booking

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
        return Refund.objects.create(
            booking=booking,
            gateway=intent.gateway if intent else get_gateway().name,
            attempt=1,
            idempotency_key=refund_key(booking_id=booking.pk, attempt=1),
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
    return gateway_named(refund.gateway).refund(booking, idempotency_key=refund.idempotency_key)
