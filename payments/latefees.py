"""The cancellation policy's late fee, paid in full to the helper (docs/payments.md "Cancellation policy").

    staff cancel inside 48 hours (not waived) -> LateFee pending -> transferred: on its way
    the helper reports nobody home             -> LateFee held for LATE_FEE_DISPUTE_HOURS
        the family disputes it                 -> disputed: staff decide
            staff: the fee stands              -> pending -> transferred
            staff: the fee is waived           -> waived: the fee is refunded to the card
        nobody disputes in time (beat)         -> pending -> transferred
    staff waive it when they cancel            -> waived: the whole payment is refunded

The fee is kept from the refund of the booking's payment (bookings.lifecycle.cancel asks for the
total less the fee: payments.Refund.amount), so nothing new is charged, and the transfer uses the
same charge (source_transaction). One idempotency key per booking for the transfer
(kindly-booking-<id>-late-fee-transfer) and one for the refund of a waived, disputed fee
(kindly-booking-<id>-late-fee-refund). As in payments.payouts, the gateway is never called inside
a transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext

from accounts.models import UserType
from bookings.models import Booking
from bookings.services import booking_lock, check_admin, check_booking_client
from bookings.services.base import organizers_and_members
from core.errors import Conflict, InvalidInput, NotFound
from core.events import LateFeeCharged
from core.notices.bookings import InApp
from core.notifications import Audience, notify
from payments.gateways import GatewayError, gateway_named, get_gateway
from payments.models import ConnectedAccount, LateFee, LateFeeKind, LateFeeState, PaymentIntent
from payments.payouts import cents, earning_refunded, transfer_in_full
from payments.tips import tip_refund_on_commit

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

DISPUTE_REASON_REQUIRED = gettext_lazy("Say what happened, so that our staff can look into it.")
DISPUTE_CLOSED = gettext_lazy(
    "This fee can no longer be disputed: its time for a dispute is over, or it was already decided."
)
DECIDE_REASON_REQUIRED = gettext_lazy("Say why, for the family and the helper.")
NOT_DISPUTED = gettext_lazy("This fee is not disputed.")


def transfer_key(booking_id: int) -> str:
    return f"kindly-booking-{booking_id}-late-fee-transfer"


def refund_key(booking_id: int) -> str:
    return f"kindly-booking-{booking_id}-late-fee-refund"


def _tasks():
    from payments import tasks

    return tasks


def _enqueue_release(booking_id: int) -> None:
    transaction.on_commit(lambda: _tasks().release_late_fee.delay(booking_id), robust=True)


def on_late_fee_charged(event: LateFeeCharged) -> None:
    """Subscriber of LateFeeCharged (inside the cancel's transaction, before its refund is
    recorded): the fee's record; the visit's own share is not earned (the earning is reversed);
    a staff cancel's fee goes out after the commit, a nobody-home fee waits for a dispute."""
    booking = Booking.objects.get(pk=event.booking_id)
    intent = PaymentIntent.objects.filter(booking=booking).first()
    now = timezone.now()
    if event.waived:
        state, release_after = LateFeeState.WAIVED, now
    elif event.kind == LateFeeKind.NOBODY_HOME:
        state, release_after = LateFeeState.HELD, now + dt.timedelta(hours=settings.LATE_FEE_DISPUTE_HOURS)
    else:
        state, release_after = LateFeeState.PENDING, now
    LateFee.objects.create(
        booking=booking,
        kind=event.kind,
        amount=Decimal(event.amount),
        currency=intent.currency if intent else settings.PAYMENTS_CURRENCY.lower(),
        gateway=intent.gateway if intent else get_gateway().name,
        state=state,
        waive_reason=event.waive_reason,
        release_after=release_after,
    )
    if not event.waived:
        earning_refunded(booking=booking)
    if state == LateFeeState.PENDING:
        _enqueue_release(booking.pk)


def late_fee_kept(*, booking: Booking) -> Decimal:
    """What a late fee keeps from the refund of this booking (0 without one, or when waived)."""
    fee = LateFee.objects.filter(booking=booking).exclude(state=LateFeeState.WAIVED).first()
    return fee.amount if fee is not None else Decimal("0.00")


# ---------------------------------------------------------------- the transfer


def late_fee_release(*, booking_id: int, last_try: bool = True) -> str:
    """Transfer a pending late fee, all of it, to the helper's connected account. Outside any
    transaction; safe to repeat (one idempotency key per booking). Returns "transferred",
    "waiting" (payouts not on), "retry", "failed" or "ignored"."""
    sent = transfer_in_full(
        LateFee,
        booking_id=booking_id,
        pending=LateFeeState.PENDING,
        kind="late_fee",
        key=transfer_key(booking_id),
        source=lambda fee: fee.booking.payment_intent_id,  # the visit's own charge
        last_try=last_try,
    )
    if isinstance(sent, str):
        return sent
    fee, result = sent
    with transaction.atomic():
        fee = LateFee.objects.select_for_update().get(pk=fee.pk)
        fee.transfer_id = result.transfer_id
        fee.transferred_at = timezone.now()
        fee.last_error = ""
        fee.state = LateFeeState.ON_ITS_WAY
        fee.save(update_fields=["transfer_id", "transferred_at", "last_error", "state", "updated_at"])
    logger.info("Booking %s: late fee %s transferred (%s)", booking_id, fee.amount, result.transfer_id)
    return "transferred"


def late_fees_due(*, now: dt.datetime | None = None) -> list[int]:
    """Beat: held fees whose time for a dispute is over become pending; returns every pending fee
    not yet transferred whose helper's payouts are on (to transfer)."""
    now = now or timezone.now()
    with transaction.atomic():
        LateFee.objects.filter(state=LateFeeState.HELD, release_after__lte=now).update(
            state=LateFeeState.PENDING, updated_at=now
        )
    on = ConnectedAccount.objects.filter(charges_enabled=True, payouts_enabled=True).values("provider_id")
    return list(
        LateFee.objects.filter(state=LateFeeState.PENDING, transfer_id="", booking__provider_id__in=on).values_list(
            "booking_id", flat=True
        )
    )


# ---------------------------------------------------------------- the family's dispute, staff's decision


def _fee_locked(booking_id: int) -> tuple[Booking, LateFee]:
    booking = booking_lock(booking_id=booking_id)
    fee = LateFee.objects.select_for_update().filter(booking=booking).first()
    if fee is None:
        raise NotFound(gettext("This booking has no late fee."))
    return booking, fee


def _staff() -> list[User]:
    from accounts.models import User

    return list(User.objects.filter(user_type=UserType.ADMIN, is_active=True))


def late_fee_dispute(*, booking_id: int, actor: User, reason: str) -> LateFee:
    """An organizer of the circle disputes a nobody-home fee while it is held: staff decide,
    and the fee waits for them. 403 for anyone else, 409 once it can no longer be disputed."""
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(DISPUTE_REASON_REQUIRED, errors={"reason": [DISPUTE_REASON_REQUIRED]})
    with transaction.atomic():
        booking, fee = _fee_locked(booking_id)
        check_booking_client(booking, actor, pgettext("booking action", "dispute the fee of"))
        if fee.state != LateFeeState.HELD:
            raise Conflict(DISPUTE_CLOSED)
        fee.state = LateFeeState.DISPUTED
        fee.dispute_reason = reason
        fee.disputed_at = timezone.now()
        fee.save(update_fields=["state", "dispute_reason", "disputed_at", "updated_at"])
        notify(
            receivers=_staff(),
            notice=InApp.LATE_FEE_DISPUTED,
            facts={"booking": booking.pk, "amount": str(fee.amount), "by": actor.full_name or actor.email},
            booking=booking,
        )
    return fee


def late_fee_decide(*, booking_id: int, actor: User, pay: bool, reason: str) -> LateFee:
    """Staff decide a disputed fee: it stands (paid to the helper) or is waived (refunded to the
    card after the commit). A reason is required; 409 when the fee is not disputed."""
    check_admin(actor)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(DECIDE_REASON_REQUIRED, errors={"reason": [DECIDE_REASON_REQUIRED]})
    with transaction.atomic():
        booking, fee = _fee_locked(booking_id)
        if fee.state != LateFeeState.DISPUTED:
            raise Conflict(NOT_DISPUTED)
        fee.state = LateFeeState.PENDING if pay else LateFeeState.WAIVED
        fee.decided_reason = reason
        if not pay:
            fee.waive_reason = reason
        fee.save(update_fields=["state", "decided_reason", "waive_reason", "updated_at"])
        organizers, _members = organizers_and_members(booking)
        helper = booking.provider.user
        notify(
            receivers=[*organizers, helper],
            notice=InApp.LATE_FEE_DECIDED,
            facts={"amount": str(fee.amount), "reason": reason, "paid": pay, "title": booking.service_request.title},
            booking=booking,
            roles={helper.pk: Audience.HELPER},
        )
        booking_id = booking.pk
        if pay:
            _enqueue_release(booking_id)
        else:
            transaction.on_commit(lambda: _tasks().refund_late_fee.delay(booking_id), robust=True)
    return fee


def late_fee_refund_send(*, booking_id: int, last_try: bool = True) -> str:
    """Refund a waived, disputed fee to the card (its own idempotency key). Outside any transaction.
    Returns "refunded", "retry", "failed" or "ignored"."""
    fee = LateFee.objects.select_related("booking").filter(booking_id=booking_id, state=LateFeeState.WAIVED).first()
    if fee is None or not fee.disputed_at or fee.refund_id:
        return "ignored"
    try:
        result = gateway_named(fee.gateway).refund(
            fee.booking, idempotency_key=refund_key(booking_id), amount_cents=cents(fee.amount)
        )
    except GatewayError as exc:
        LateFee.objects.filter(pk=fee.pk).update(last_error=exc.message[:2000], updated_at=timezone.now())
        if not last_try:
            return "retry"
        logger.error("Refund of the late fee of booking %s failed: %s", booking_id, exc.message)
        return "failed"
    LateFee.objects.filter(pk=fee.pk).update(refund_id=result.refund_id or "refunded", updated_at=timezone.now())
    # The visit's payment is now back in full: a tip follows the refund rule (payments.tips).
    tip_refund_on_commit(booking_id=booking_id)
    return "refunded"
