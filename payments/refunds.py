"""The full refund of a paid booking: the one hook every cancel path calls (bookings.services._cancel).

Kept apart from payments.services so bookings.services can import it without an import cycle.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from bookings.models import PaymentStatus
from payments.errors import REFUND_FAILED_MESSAGE, PaymentGatewayUnavailable
from payments.gateways import GatewayError, gateway_named, get_gateway
from payments.models import PaymentIntent

if TYPE_CHECKING:
    from bookings.models import Booking

logger = logging.getLogger(__name__)


def booking_payment_refund(*, booking: Booking) -> bool:
    """Refund a paid booking in full through the gateway that took the payment.

    Caller is inside transaction.atomic and holds the booking's row lock. Sets and saves
    paymentStatus refunded. Does nothing and returns False when the booking is not paid. If the
    gateway refuses, raises PaymentGatewayUnavailable (502) so the caller's change rolls back;
    the gateway call carries an idempotency key, so trying again never refunds twice.
    """
    if booking.payment_status != PaymentStatus.PAID:
        return False
    record = PaymentIntent.objects.select_for_update().filter(booking=booking).first()
    gateway = gateway_named(record.gateway) if record else get_gateway()
    try:
        refund_id = gateway.refund(booking)
    except GatewayError:
        raise PaymentGatewayUnavailable(REFUND_FAILED_MESSAGE) from None
    if record:
        record.refund_id = refund_id
        record.save(update_fields=["refund_id", "updated_at"])
    booking.payment_status = PaymentStatus.REFUNDED
    booking.save(update_fields=["payment_status", "updated_at"])
    logger.info("Booking %s refunded in full (%s)", booking.pk, refund_id)
    return True
