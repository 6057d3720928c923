"""Reads for payments: which booking a user may pay or see on the checkout page."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from bookings.models import Booking, BookingStatus, PaymentStatus
from marketplace.errors import NotFound, PermissionDenied

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
