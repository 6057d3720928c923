"""The lifecycle of a request once a helper takes it, and of its bookings: every move of a
request's status that a booking causes, and every move of a booking's status, is made here.

    request  open --a helper accepts (take_request)--> booked
             booked --its last visit still ahead ends (settle_request)--> completed, when any visit
                                                                         took place; else cancelled
    booking  (accept) scheduled, payment pending
             scheduled --payment succeeded (paid)--> confirmed
             scheduled|confirmed --cancel (cancel)--> cancelled; a paid one is refunded in full
             confirmed --the helper checks out (complete)--> completed
             scheduled|confirmed --its helper leaves--> replacing --a new helper takes it--> scheduled|confirmed
                                                         (bookings.services.replacement; cancel ends it too)
             cancelled and completed are final; an admin's reassignment keeps the status.

A request that no helper has taken is moved by requests_app.services alone (edited, cancelled,
deleted, expired, declined, opened to all): no booking is involved. A series (one booking per visit)
keeps its request booked while any of its visits is ahead.

The booking services (bookings.services) check who may do what, call these, and tell the people
concerned. Each function runs inside the caller's transaction, on rows the caller has locked;
none tells anyone, none calls an outside service (a refund is asked for with an event and sent
after the commit by payments).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal

from django.conf import settings
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from accounts.models import User
from bookings.models import (
    CENT,
    REPLACEMENT_OPEN,
    Booking,
    BookingStatus,
    PaymentStatus,
    RefundStatus,
    Replacement,
    ReplacementOffer,
    ReplacementOfferAnswer,
    ReplacementState,
)
from core import events
from core.errors import Conflict
from requests_app.models import CANCEL_WINDOW_HOURS, RequestStatus, ServiceRequest, still_cancellable
from requests_app.services import service_request_lock

REQUEST_NO_LONGER_OPEN = gettext_lazy("This request is no longer open: another provider may have accepted it.")
CANCEL_WINDOW_MESSAGE = format_lazy(
    gettext_lazy("This booking cannot be cancelled (less than {hours} hours remaining)."), hours=CANCEL_WINDOW_HOURS
)


# ---------------------------------------------------------------- the request


def take_request(*, service_request_id: int) -> None:
    """open -> booked, when a provider accepts (inside the caller's transaction).

    A conditional UPDATE: of N concurrent accepts exactly one moves the request, the others get a
    409. The UPDATE holds the row lock until the caller's transaction ends.
    """
    won = ServiceRequest.objects.filter(pk=service_request_id, status=RequestStatus.OPEN).update(
        status=RequestStatus.BOOKED, updated_at=timezone.now()
    )
    if not won:
        raise Conflict(REQUEST_NO_LONGER_OPEN)


def settle_request(booking: Booking) -> None:
    """The request's status once one of its visits ended (cancelled or completed).

    A series stays booked while any visit is still ahead; after its last one the request is
    completed when any visit took place, cancelled when none did. A one-off visit is the last
    one. The request's row is locked first, so two visits ending at once see each other's end.
    """
    service_request_lock(service_request_id=booking.service_request_id)
    visits = Booking.objects.filter(service_request_id=booking.service_request_id)
    statuses = set(visits.values_list("status", flat=True))
    if statuses & {BookingStatus.SCHEDULED, BookingStatus.CONFIRMED, BookingStatus.REPLACING}:
        return
    ended = RequestStatus.COMPLETED if BookingStatus.COMPLETED in statuses else RequestStatus.CANCELLED
    ServiceRequest.objects.filter(pk=booking.service_request_id).update(status=ended, updated_at=timezone.now())


# ---------------------------------------------------------------- the booking


def paid(booking: Booking) -> None:
    """The payment succeeded: paymentStatus paid, and a scheduled booking is confirmed (a cancelled
    one stays cancelled: the caller asks for its refund)."""
    booking.payment_status = PaymentStatus.PAID
    fields = ["payment_status", "updated_at"]
    if booking.status == BookingStatus.SCHEDULED:
        booking.status = BookingStatus.CONFIRMED
        fields.append("status")
    booking.save(update_fields=fields)


def cancel(booking: Booking, *, actor: User | None, reason: str, late_fee: LateFee | None = None) -> None:
    """Cancel a booking; the caller has checked the actor, the state and the rules.

    The one place every cancel goes through. A paid booking's refund is requested here and
    made once the caller's transaction has committed (request_refund): the cancel stands
    whatever the gateway answers, and a cancel that rolls back never refunds. With a late fee
    (the cancellation policy, late_fee_amount) that is not waived, the refund is the total less
    the fee, and payments pays the fee to the helper (LateFeeCharged). A search for a new helper
    still running ends with it. `actor` None: Kindly itself (a visit whose time came without a helper).
    """
    now = timezone.now()
    ended = Replacement.objects.filter(booking_id=booking.pk, state__in=REPLACEMENT_OPEN)
    ReplacementOffer.objects.filter(replacement__in=ended.values("pk"), answer=ReplacementOfferAnswer.WAITING).update(
        answer=ReplacementOfferAnswer.CLOSED, answered_at=now
    )
    ended.update(state=ReplacementState.ENDED, ended_at=now)
    booking.status = BookingStatus.CANCELLED
    booking.cancelled_at = timezone.now()
    booking.cancellation_reason = reason
    booking.cancelled_by = actor
    booking.save(update_fields=["status", "cancelled_at", "cancellation_reason", "cancelled_by", "updated_at"])
    settle_request(booking)
    kept = Decimal("0.00")
    if late_fee is not None and late_fee.amount > 0 and booking.payment_status == PaymentStatus.PAID:
        kept = Decimal("0.00") if late_fee.waive_reason else late_fee.amount
        events.publish(
            events.LateFeeCharged(
                booking_id=booking.pk,
                amount=str(late_fee.amount),
                kind=late_fee.kind,
                waived=bool(late_fee.waive_reason),
                waive_reason=late_fee.waive_reason,
            )
        )
    if cancel_refund_amount(booking) - kept > 0:
        request_refund(booking)


def complete(
    booking: Booking, *, now: dt.datetime, latitude: Decimal | None = None, longitude: Decimal | None = None
) -> None:
    """The helper checked out of a confirmed visit: completed (where she was, rounded, when given);
    the request settles, and payments releases her share (BookingCompleted)."""
    booking.status = BookingStatus.COMPLETED
    booking.checked_out_at = now
    booking.check_out_latitude, booking.check_out_longitude = latitude, longitude
    booking.save(update_fields=["status", "checked_out_at", "check_out_latitude", "check_out_longitude", "updated_at"])
    settle_request(booking)
    events.publish(events.BookingCompleted(booking_id=booking.pk))


def replacement_found(booking: Booking, *, provider_id: int, now: dt.datetime, accepted_by: int | None = None) -> None:
    """A booking waiting for a new helper has one (she took it from her offer, `accepted_by`, or
    staff reassigned it): back to scheduled, or confirmed when paid; its search found, the offers
    still waiting closed. The caller set booking.provider and holds the row lock; it saves the booking."""
    booking.status = (
        BookingStatus.CONFIRMED if booking.payment_status == PaymentStatus.PAID else BookingStatus.SCHEDULED
    )
    searches = Replacement.objects.filter(booking_id=booking.pk, state__in=REPLACEMENT_OPEN)
    waiting = ReplacementOffer.objects.filter(
        replacement__in=searches.values("pk"), answer=ReplacementOfferAnswer.WAITING
    )
    if accepted_by is not None:
        waiting.filter(provider_id=accepted_by).update(answer=ReplacementOfferAnswer.ACCEPTED, answered_at=now)
    waiting.update(answer=ReplacementOfferAnswer.CLOSED, answered_at=now)
    searches.update(state=ReplacementState.FOUND, found_provider_id=provider_id, found_at=now)


# ---------------------------------------------------------------- may the client cancel?


def booking_can_client_cancel(booking: Booking, now: dt.datetime | None = None) -> bool:
    """Would the client's cancel be allowed now: a scheduled or confirmed booking whose visit is
    still cancellable (requests_app.models.still_cancellable: up to 48 hours before it)."""
    return booking.status in (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED) and still_cancellable(
        booking.visit_start, now or timezone.now()
    )


def check_cancel_window(booking: Booking, now: dt.datetime) -> None:
    """409 when the visit is too close for a client to cancel (still_cancellable)."""
    if not still_cancellable(booking.visit_start, now):
        raise Conflict(CANCEL_WINDOW_MESSAGE)


# ---------------------------------------------------------------- the cancellation policy's late fee
#
# Cancelling 48 hours or more ahead is free. Inside 48 hours the family cannot cancel themselves
# (CANCEL_WINDOW_MESSAGE, "Contact support"); staff may, at the family's request, and then the
# helper is paid a late fee: one hour of the visit (the whole visit when shorter), at most
# settings.LATE_FEE_CAP, rounded down to the cent (in the family's favour). Staff may waive it
# with a reason. A helper who checked in and found nobody home is paid the same fee. The fee is
# kept from the refund of the booking's payment: nothing new is charged.

LATE_CANCEL = "late_cancel"
NOBODY_HOME = "nobody_home"


@dataclass(frozen=True)
class LateFee:
    """A late fee decided with a cancel: its amount, why (LATE_CANCEL, NOBODY_HOME), and the
    staff's reason when waived."""

    amount: Decimal
    kind: str
    waive_reason: str = ""


def late_fee_policy_amount(booking: Booking) -> Decimal:
    """The policy's fee for this booking: one hour of it (all of it when an hour or shorter), capped."""
    total = Decimal(booking.total_amount).quantize(CENT)
    hour = total if booking.duration <= 60 else (total * 60 / booking.duration).quantize(CENT, rounding=ROUND_DOWN)
    return min(hour, Decimal(settings.LATE_FEE_CAP).quantize(CENT, rounding=ROUND_DOWN))


def late_fee_amount(booking: Booking, now: dt.datetime | None = None) -> Decimal:
    """What staff cancelling the booking now would pay its helper: the policy's fee for a paid
    booking still ahead and less than 48 hours away; 0 otherwise (a free cancel, or nothing paid).
    The staff cancel and its dialog (BookingSerializer.lateFee) read it."""
    if booking.payment_status != PaymentStatus.PAID or booking.status not in (
        BookingStatus.SCHEDULED,
        BookingStatus.CONFIRMED,
    ):
        return Decimal("0.00")
    if still_cancellable(booking.visit_start, now or timezone.now()):
        return Decimal("0.00")
    return late_fee_policy_amount(booking)


# ---------------------------------------------------------------- its refund


def request_refund(booking: Booking) -> None:
    """Ask for the full refund of a paid booking (cancelled, or paid after it was cancelled)."""
    booking.refund_status = RefundStatus.PENDING
    booking.save(update_fields=["refund_status", "updated_at"])
    # payments records the refund now (with the cancel) and calls the gateway after the commit.
    events.publish(events.RefundRequested(booking_id=booking.pk))


def cancel_refund_amount(booking: Booking) -> Decimal:
    """What cancelling the booking returns to the card: a paid booking is refunded in full
    (cancel requests it), an unpaid one was never charged, so nothing. The one rule the cancel
    and its dialogs (BookingSerializer.cancelRefund) read."""
    if booking.payment_status != PaymentStatus.PAID:
        return Decimal("0.00")
    return Decimal(booking.total_amount).quantize(CENT)
