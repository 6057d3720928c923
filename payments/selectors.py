"""Reads for payments: which booking a user may pay or see on the checkout page; refunds to retry."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet
from django.utils import timezone

from bookings.models import Booking, BookingStatus, PaymentStatus, RefundStatus
from marketplace.errors import NotFound, PermissionDenied
from payments.models import Refund

if TYPE_CHECKING:
    from accounts.models import User

PAYABLE_PAYMENT_STATUSES = (PaymentStatus.PENDING, PaymentStatus.FAILED)


def booking_visible_to(*, user: User) -> QuerySet[Booking]:
    """Bookings the user may see (ARCHITECTURE.md permission table): own as client or provider; all for admins."""
    qs = Booking.objects.select_related("service_request", "client", "provider__user")
    if user.is_admin:
        return qs
    return qs.filter(Q(client=user) | Q(provider__user=user))


def booking_for_payer(*, user: User, booking_id: int) -> Booking:
    """The booking the user wants to pay: another user's is a 404, one they see but are not the client of a 403."""
    booking = booking_visible_to(user=user).filter(pk=booking_id).first()
    if booking is None:
        raise NotFound("Booking not found.")
    if booking.client_id != user.pk:
        raise PermissionDenied("Only the client of this booking can pay for it.")
    return booking


def booking_is_payable(booking: Booking) -> bool:
    """Scheduled and not paid yet (pending, or failed and being tried again)."""
    return booking.status == BookingStatus.SCHEDULED and booking.payment_status in PAYABLE_PAYMENT_STATUSES


def checkout_booking(*, user: User, booking_id: int) -> Booking | None:
    """The booking for the /checkout page: only its client sees it there."""
    return booking_visible_to(user=user).filter(pk=booking_id, client=user).first()


# A pending refund with no answer from the gateway after this long was never sent (the process
# stopped between the cancel's commit and the call): retry_refunds sends it.
REFUND_UNANSWERED_AFTER = dt.timedelta(minutes=10)


def refunds_to_retry(*, now: dt.datetime | None = None) -> QuerySet[Refund]:
    """Refunds an admin should retry, oldest first: failed ones, and pending ones the gateway has
    not answered for REFUND_UNANSWERED_AFTER. A pending one the gateway accepted (it has a refund
    id) waits for its webhook and is not listed."""
    cutoff = (now or timezone.now()) - REFUND_UNANSWERED_AFTER
    unanswered = Q(booking__refund_status=RefundStatus.PENDING, refund_id="") & (
        Q(attempted_at__lt=cutoff) | Q(attempted_at__isnull=True, requested_at__lt=cutoff)
    )
    return (
        Refund.objects.select_related("booking")
        .filter(Q(booking__refund_status=RefundStatus.FAILED) | unanswered)
        .order_by("requested_at", "pk")
    )
