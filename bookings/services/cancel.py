"""Cancels: the client's (one visit, or the rest of a series), an admin's, and one caused by closing
an account. Each goes through bookings.lifecycle.cancel (the booking, its request and its
refund move together) and tells the people of the booking."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from accounts.models import User
from bookings import lifecycle
from bookings.lifecycle import booking_can_client_cancel, cancel_refund_amount, check_cancel_window, late_fee_amount
from bookings.models import CENT, Booking, BookingStatus, RefundStatus
from bookings.services.base import (
    booking_lock,
    check_admin,
    check_booking_client,
    check_booking_status,
    day_text,
    push_update,
    refund_due_text,
    tell,
)
from core.errors import Conflict, InvalidInput, PermissionDenied
from core.notifications import NoticeKind


def _after_refund_sent(booking: Booking) -> Booking:
    """The booking as the refund after the commit left it (when that ran: outside any outer transaction)."""
    if booking.refund_status == RefundStatus.PENDING:
        booking.refresh_from_db(fields=["payment_status", "refund_status", "updated_at"])
    return booking


def _cancel_by_client(booking_id: int, actor: User, reason: str, *, announce: bool = True) -> Booking:
    """booking_cancel_by_client; without `announce`, nobody is told (cancel-rest tells once for the batch)."""
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, pgettext("booking action", "cancel"))
        check_booking_status(
            booking, (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED), pgettext("booking state change", "cancelled")
        )
        check_cancel_window(booking, timezone.now())
        lifecycle.cancel(booking, actor=actor, reason=reason.strip())
        if announce:
            tell(
                NoticeKind.BOOKING_CANCELLED,
                booking,
                how="client",
                reason=booking.cancellation_reason,
                by=actor.full_name or "an organizer",
                by_helper="the client",
                actor=actor.pk,
                refund=refund_due_text(booking),
            )
        push_update(booking)
    return _after_refund_sent(booking)


def booking_cancel_by_client(*, booking_id: int, actor: User, reason: str = "") -> Booking:
    """The client cancels a scheduled or confirmed booking at least 48 hours before the visit. One
    visit of a series leaves the others, and the request, booked."""
    return _cancel_by_client(booking_id, actor, reason)


NOT_IN_SERIES = gettext_lazy("This visit is not part of a series.")
NOTHING_TO_CANCEL = gettext_lazy("None of the remaining visits can be cancelled.")


def _stays(visit: Booking) -> str:
    return gettext("The visit on %(day)s is less than 48 hours away and stays booked.") % {
        "day": day_text(visit.scheduled_date)
    }


def _series_rest(booking: Booking) -> list[Booking]:
    """This visit of a series and every later one still to come, in order."""
    return list(
        Booking.objects.filter(
            service_request_id=booking.service_request_id,
            series_index__gte=booking.series_index,
            status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED),
        ).order_by("series_index")
    )


def booking_cancel_rest_preview(*, booking_id: int, actor: User) -> dict[str, Any]:
    """What cancelling the rest of the series from this visit would do now, for its dialog: the
    visits it would cancel and keep (booking_cancel_rest_by_client's rules) and what comes back to
    the card (cancel_refund_amount of each visit cancelled). The same checks as the cancel: the
    organizer (403), a visit of a series (409).

    Returns {"cancelled": [booking ids], "kept": [booking ids], "refund": Decimal}.
    """
    booking = Booking.objects.get(pk=booking_id)
    check_booking_client(booking, actor, pgettext("booking action", "cancel"))
    if booking.series_index is None:
        raise Conflict(NOT_IN_SERIES)
    now = timezone.now()
    rest = _series_rest(booking)
    cancelled = [visit for visit in rest if booking_can_client_cancel(visit, now)]
    return {
        "cancelled": [visit.pk for visit in cancelled],
        "kept": [visit.pk for visit in rest if visit not in cancelled],
        "refund": sum((cancel_refund_amount(visit) for visit in cancelled), Decimal("0.00")),
    }


def booking_cancel_rest_by_client(*, booking_id: int, actor: User, reason: str = "") -> dict[str, Any]:
    """The client cancels this visit of a series and every later one still ahead, each
    through the one-visit cancel (its own transaction, the 48-hour rule, a refund when paid). Visits
    less than 48 hours away stay booked, and the answer says which; 409 when none can be cancelled.
    The provider and the circle are told once for the batch.

    Returns {"message", "cancelled": [booking ids], "kept": [booking ids]}.
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, pgettext("booking action", "cancel"))
        if booking.series_index is None:
            raise Conflict(NOT_IN_SERIES)
        rest = _series_rest(booking)
    now = timezone.now()
    cancelled: list[Booking] = []
    kept: list[Booking] = []
    for visit in rest:
        if not booking_can_client_cancel(visit, now):
            kept.append(visit)
            continue
        try:
            cancelled.append(_cancel_by_client(visit.pk, actor, reason, announce=False))
        except Conflict:
            continue  # cancelled meanwhile (another tab), or its 48 hours began: not this batch's
    notes = [_stays(visit) for visit in kept]
    if not cancelled:
        raise Conflict(" ".join([str(NOTHING_TO_CANCEL), *notes]))
    first, last = cancelled[0], cancelled[-1]
    count = len(cancelled)
    # The days are kept as data (span_on) and put into each reader's words (core.notices).
    span_on = [first.scheduled_date.isoformat(), last.scheduled_date.isoformat()]
    refund = sum((b.total_amount for b in cancelled if b.refund_status != RefundStatus.NONE), Decimal(0))
    refund_text = str(refund) if refund else ""
    with transaction.atomic():
        tell(
            NoticeKind.BOOKING_CANCELLED,
            first,
            how="series_rest",
            count=count,
            span_on=span_on,
            reason=first.cancellation_reason,
            by=actor.full_name or "an organizer",
            by_helper="the client",
            actor=actor.pk,
            refund=refund_text,
        )
    done = ngettext("%(count)s visit cancelled.", "%(count)s visits cancelled.", count) % {"count": count}
    message = " ".join([done, *notes])
    return {"message": message, "cancelled": [b.pk for b in cancelled], "kept": [b.pk for b in kept]}


LATE_FEE_WAIVE_REASON_REQUIRED = gettext_lazy("Say why the late fee is waived.")


def late_fee_changed_message(amount: Decimal) -> str:
    return gettext(
        "The late fee is now $%(amount)s, not what the dialog showed. Check it with the family and confirm again."
    ) % {"amount": amount}


def booking_cancel_by_admin(
    *,
    booking_id: int,
    actor: User,
    reason: str,
    waive_late_fee: bool = False,
    waive_reason: str = "",
    late_fee_shown: Decimal | None = None,
) -> Booking:
    """An admin cancels a confirmed booking; a reason is required (audited by adminpanel.services).

    Inside 48 hours of a paid visit the cancellation policy's late fee (lifecycle.late_fee_amount)
    goes to the helper and the refund is the rest, unless the admin waives it with a reason.
    `late_fee_shown` is the fee the dialog showed (and staff told the family): a 409 when the
    server's differs now (the 48 hours began meanwhile), so nobody is charged an amount unseen.
    """
    check_admin(actor)
    reason = (reason or "").strip()
    waive_reason = (waive_reason or "").strip()
    if not reason:
        raise InvalidInput(
            gettext("A cancellation reason is required."),
            errors={"reason": [gettext("A cancellation reason is required.")]},
        )
    if waive_late_fee and not waive_reason:
        raise InvalidInput(LATE_FEE_WAIVE_REASON_REQUIRED, errors={"waiveReason": [LATE_FEE_WAIVE_REASON_REQUIRED]})
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_status(
            booking,
            (BookingStatus.CONFIRMED, BookingStatus.REPLACING),
            pgettext("booking state change", "cancelled by an admin"),
        )
        # A helper who left a visit being replaced is not told of its end: it is no longer hers.
        skip = [booking.provider.user] if booking.status == BookingStatus.REPLACING else []
        amount = late_fee_amount(booking, timezone.now())
        if late_fee_shown is not None and Decimal(late_fee_shown).quantize(CENT) != amount:
            raise Conflict(late_fee_changed_message(amount))
        fee = (
            lifecycle.LateFee(
                amount=amount, kind=lifecycle.LATE_CANCEL, waive_reason=waive_reason if waive_late_fee else ""
            )
            if amount > 0
            else None
        )
        lifecycle.cancel(booking, actor=actor, reason=reason, late_fee=fee)
        kept = fee.amount if fee is not None and not fee.waive_reason else Decimal("0.00")
        tell(
            NoticeKind.BOOKING_CANCELLED,
            booking,
            skip=skip,
            how="support",
            reason=reason,
            by="Kindly support",
            refund=refund_due_text(booking, kept),
            late_fee=str(kept) if kept else "",
        )
        push_update(booking)
    return _after_refund_sent(booking)


def booking_cancel_on_account_closure(*, booking_id: int, actor: User) -> Booking:
    """The client or the provider of a booking closes their Kindly account: the booking is cancelled.

    Only for a scheduled or confirmed booking that starts at least 48 hours from now (closing
    an account never undoes the 48-hour rule; marketplace.account_lifecycle.services.account_close refuses to close
    while a visit is nearer). A paid booking is refunded in full after the commit; the other party is told.
    A client's own closure goes through booking_cancel_by_client; this covers both parties.
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        is_client = booking.client_id == actor.pk
        if not is_client and booking.provider.user_id != actor.pk:
            raise PermissionDenied(gettext("Only the parties of this booking can cancel it."))
        # A visit waiting for a new helper is the client's alone (the helper who left has no part in it).
        active = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED)
        check_booking_status(
            booking,
            (*active, BookingStatus.REPLACING) if is_client else active,
            pgettext("booking state change", "cancelled"),
        )
        check_cancel_window(booking, timezone.now())
        left = [booking.provider.user] if booking.status == BookingStatus.REPLACING else []
        party = "client" if is_client else "provider"
        lifecycle.cancel(booking, actor=actor, reason=f"The {party} closed their Kindly account.")
        # Who closed the account hears nothing; the rest of the kind's audience is told.
        tell(
            NoticeKind.BOOKING_CANCELLED,
            booking,
            skip=[actor, *left],
            how="account_closed",
            party=party,
            by=f"the {party}, who closed their Kindly account",
            refund=refund_due_text(booking),
        )
        push_update(booking)
    return _after_refund_sent(booking)
