"""Payment writes: create the booking's payment intent, the test gateway's card confirm, Stripe events.

The amount always comes from the booking. Booking state changes go through the payment
transitions in bookings.services; the full refund on cancel is made by payments.refunds after the commit.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext

from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.services import (
    booking_lock,
    booking_lock_by_payment_intent,
    booking_payment_failed,
    booking_payment_succeeded,
    booking_refunded,
)
from core.errors import Conflict, InvalidInput, NotFound
from payments import tips
from payments.errors import PaymentGatewayUnavailable
from payments.gateways import (
    AccountState,
    CardResult,
    Gateway,
    GatewayError,
    StripeGateway,
    TestGateway,
    get_gateway,
    is_test_gateway_active,
)
from payments.instant import instant_payout_settled
from payments.models import PaymentIntent, ProcessedEvent, Refund, VisitCharge, VisitChargeState
from payments.payouts import (
    cents,
    connected_account_apply,
    earning_open,
    earning_refunded,
    payout_settled,
    transfer_reversed,
)
from payments.refunds import booking_refund_failed_at_gateway
from payments.selectors import booking_for_payer, booking_is_payable

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

# Stripe's smallest card charge in USD.
MINIMUM_CHARGE_CENTS = 50


def amount_in_cents(amount: Decimal) -> int:
    return int((Decimal(amount) * 100).quantize(Decimal(1), rounding=ROUND_HALF_UP))


def check_booking_payable(booking: Booking) -> None:
    """409 unless the booking is scheduled and unpaid (pending, or failed and tried again)."""
    if booking_is_payable(booking):
        return
    if booking.status == BookingStatus.CANCELLED:
        raise Conflict(gettext("This booking was cancelled, so it cannot be paid."))
    if booking.payment_status == PaymentStatus.PAID:
        raise Conflict(gettext("This booking is already paid."))
    if booking.payment_status == PaymentStatus.REFUNDED:
        raise Conflict(gettext("The payment for this booking was refunded, so it cannot be paid again."))
    raise Conflict(gettext("A %(status)s booking cannot be paid.") % {"status": booking.status})


def check_client_amount(booking: Booking, amount: Decimal | None) -> None:
    """The browser may send the amount it shows; it must be the booking's total (it is never charged)."""
    if amount is not None and Decimal(amount) != booking.total_amount:
        message = gettext("The amount does not match this booking's total of $%(total)s.") % {
            "total": booking.total_amount
        }
        raise InvalidInput(message, errors={"amount": [message]})


def _intent_checked(booking: Booking, amount: Decimal | None) -> int:
    """The booking's total in cents, once it may be paid (400 / 409 otherwise). Caller holds the row lock."""
    from payments.cards import check_not_auto_charged  # cards builds on this module

    check_client_amount(booking, amount)
    check_booking_payable(booking)
    check_not_auto_charged(booking)
    cents = amount_in_cents(booking.total_amount)
    if cents < MINIMUM_CHARGE_CENTS:
        raise Conflict(gettext("The total of this booking is below the smallest card payment ($0.50)."))
    return cents


def _intent_reusable(booking: Booking, *, gateway_name: str, cents: int, currency: str) -> PaymentIntent | None:
    """The booking's stored intent when it is still the one to pay (same gateway, amount, currency)."""
    existing = PaymentIntent.objects.filter(booking=booking).first()
    if (
        existing
        and existing.gateway == gateway_name
        and existing.amount_cents == cents
        and existing.currency == currency
        and booking.payment_intent_id == existing.intent_id
    ):
        return existing
    return None


def payment_intent_create(*, actor: User, booking_id: int, amount: Decimal | None = None) -> str:
    """Start (or resume) paying a booking; returns the client secret for the browser.

    Only an organizer of the recipient's circle, only while it is scheduled and unpaid. One intent per booking:
    a repeat call returns the stored client secret, and the gateway call carries an
    idempotency key per booking and amount, so a retried or concurrent call makes no second
    intent. A gateway error becomes a 502 with the spec's "Failed to create payment" text.

    In three steps, so that no lock is held while the gateway answers (a slow Stripe must not
    block a cancel of the same booking): check under the booking's row lock and commit; create
    the intent at the gateway outside any transaction; record it in a short second transaction
    that checks again (a booking cancelled meanwhile is a 409, and its intent is never shown).
    """
    booking_for_payer(user=actor, booking_id=booking_id)  # 404 / 403 before any lock
    gateway = get_gateway()
    currency = settings.PAYMENTS_CURRENCY.lower()
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        cents = _intent_checked(booking, amount)
        existing = _intent_reusable(booking, gateway_name=gateway.name, cents=cents, currency=currency)
        if existing is not None:
            if existing.payer_id != actor.pk:  # the one who resumes the checkout is thanked for it
                PaymentIntent.objects.filter(pk=existing.pk).update(payer=actor)
            return existing.client_secret
        metadata = {"booking_id": str(booking.pk), "client_id": str(booking.client_id)}

    key = f"kindly-booking-{booking_id}-intent-{cents}{currency}"
    try:
        created = gateway.create_intent(amount_cents=cents, currency=currency, idempotency_key=key, metadata=metadata)
    except GatewayError:
        raise PaymentGatewayUnavailable() from None

    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        if _intent_checked(booking, amount) != cents:
            raise Conflict(gettext("The total of this booking changed. Please reload the payment page."))
        existing = _intent_reusable(booking, gateway_name=gateway.name, cents=cents, currency=currency)
        if existing is not None:  # a concurrent call recorded it first (the same key: the same intent)
            if existing.payer_id != actor.pk:
                PaymentIntent.objects.filter(pk=existing.pk).update(payer=actor)
            return existing.client_secret
        PaymentIntent.objects.update_or_create(
            booking=booking,
            defaults={
                "gateway": gateway.name,
                "intent_id": created.intent_id,
                "client_secret": created.client_secret,
                "amount_cents": cents,
                "currency": currency,
                "idempotency_key": key,
                "last_error": "",
                "payer": actor,
            },
        )
        booking.payment_intent_id = created.intent_id
        booking.save(update_fields=["payment_intent_id", "updated_at"])
    return created.client_secret


def payment_test_confirm(*, actor: User, booking_id: int, card_number: str) -> CardResult:
    """The offline test gateway charges a card: 4242 4242 4242 4242 succeeds, others are declined.

    Exists only while the test gateway is active (404 otherwise), so nobody can mark a real
    booking paid through it. Drives the same booking transitions as Stripe's webhook.
    """
    if not is_test_gateway_active():
        raise NotFound(gettext("Not found."))
    booking = booking_for_payer(user=actor, booking_id=booking_id)
    check_booking_payable(booking)
    record = PaymentIntent.objects.filter(booking=booking, gateway=Gateway.TEST).first()
    if record is None or booking.payment_intent_id != record.intent_id:
        raise Conflict(gettext("This payment has not been started. Please reload the payment page."))
    result = TestGateway.charge_card(card_number)
    if result.succeeded:
        payment_succeeded(
            payment_intent_id=record.intent_id, card_last4=re.sub(r"\D", "", card_number)[-4:], payer=actor
        )
    else:
        with transaction.atomic():
            booking_payment_failed(payment_intent_id=record.intent_id, message=result.message, payer=actor)
            PaymentIntent.objects.filter(pk=record.pk).update(last_error=result.message)
    return result


def _payer_of(intent_id: str) -> User | None:
    """Who opened the checkout of this intent (the receipt thanks them), None when unknown."""
    record = PaymentIntent.objects.select_related("payer").filter(intent_id=intent_id).first()
    return record.payer if record is not None else None


def payment_succeeded(*, payment_intent_id: str, card_last4: str = "", payer: User | None = None) -> str:
    """The gateway took the money: the booking is paid (bookings.services) and the split of its
    total recorded (payments.payouts.earning_open), in one transaction. Returns the booking's outcome.
    card_last4: the card's last 4 digits for the receipt, when the gateway said them."""
    with transaction.atomic():
        if payer is None:  # a webhook: whoever opened the checkout paid
            payer = _payer_of(payment_intent_id)
        charge = VisitCharge.objects.filter(intent_id=payment_intent_id).first()
        if charge is not None:  # a saved card's automatic charge (payments.cards): paid
            VisitCharge.objects.filter(pk=charge.pk).update(state=VisitChargeState.SUCCEEDED, updated_at=timezone.now())
            card_last4 = card_last4 or charge.card_label[-4:]
        outcome = booking_payment_succeeded(payment_intent_id=payment_intent_id, card_last4=card_last4, payer=payer)
        if outcome in ("paid", "refunding"):
            earning_open(booking=booking_lock_by_payment_intent(payment_intent_id=payment_intent_id))
    return outcome


def payment_stripe_sync(*, actor: User, booking_id: int) -> Booking:
    """Ask Stripe (server to server) whether the booking's intent succeeded, and apply it if so.

    The page calls this right after Stripe.js reports success, so the booking is confirmed even
    before (or without) the webhook. Only Stripe's answer counts, never the browser's: nothing
    changes unless Stripe itself says "succeeded". Safe to repeat and to race the webhook.
    """
    if settings.PAYMENTS_BACKEND != Gateway.STRIPE:
        raise NotFound(gettext("Not found."))
    booking = booking_for_payer(user=actor, booking_id=booking_id)
    if booking.payment_status in (PaymentStatus.PENDING, PaymentStatus.FAILED) and booking.payment_intent_id:
        record = PaymentIntent.objects.filter(booking=booking, gateway=Gateway.STRIPE).first()
        if record is None or record.intent_id != booking.payment_intent_id:
            raise Conflict(gettext("This payment has not been started. Please reload the payment page."))
        try:
            intent = StripeGateway().intent_state(record.intent_id)
        except GatewayError:
            raise PaymentGatewayUnavailable(
                gettext("We could not check your payment just now. Please reload the page.")
            ) from None
        if intent.status == "succeeded":
            payment_succeeded(payment_intent_id=record.intent_id, card_last4=intent.card_last4, payer=actor)
    booking.refresh_from_db(fields=["status", "payment_status"])
    return booking


# ---------------------------------------------------------------- Stripe webhook events

HANDLED_EVENT_TYPES = ("payment_intent.succeeded", "payment_intent.payment_failed", "charge.refunded", "refund.failed")
# Stripe Connect (payments.payouts). account.updated and payout.* come from connected accounts
# (the Connect endpoint), transfer.reversed from Kindly's own account.
PAYOUT_EVENT_TYPES = ("payout.paid", "payout.failed")
CONNECT_EVENT_TYPES = ("account.updated", *PAYOUT_EVENT_TYPES, "transfer.reversed")


def _intent_id_of(event_type: str, obj: dict[str, Any]) -> str:
    if event_type.startswith("payment_intent."):
        return str(obj.get("id") or "")
    intent = obj.get("payment_intent")
    if isinstance(intent, dict):  # expanded
        intent = intent.get("id")
    return str(intent or "")


def _charge_refunded(intent_id: str) -> str:
    """A full refund: the booking is refunded and the provider's share reversed, in one transaction."""
    with transaction.atomic():
        outcome = booking_refunded(payment_intent_id=intent_id)
        booking = booking_lock_by_payment_intent(payment_intent_id=intent_id)
        if booking is not None and booking.payment_status == PaymentStatus.REFUNDED:
            earning_refunded(booking=booking)
            tips.tip_refund_on_commit(booking_id=booking.pk)
    return outcome


def _refund_expected(intent_id: str, amount_refunded: object) -> bool:
    """Is this the partial refund Kindly asked for (payments.Refund.amount: a late fee kept)?"""
    if not isinstance(amount_refunded, int) or not intent_id:
        return False
    refund = Refund.objects.filter(booking__payment_intent_id=intent_id, amount__isnull=False).first()
    return refund is not None and cents(refund.amount) == amount_refunded


def _payout_payments(event: dict[str, Any], obj: dict[str, Any]) -> list[str]:
    """The transfers' payments a payout carried, asked of Stripe before the event's transaction
    (never call the gateway while holding locks). A failure is a 503: Stripe retries the event."""
    account_id, payout_id = str(event.get("account") or ""), str(obj.get("id") or "")
    if not account_id or not payout_id:
        return []
    try:
        return StripeGateway().payout_payments(account_id=account_id, payout_id=payout_id)
    except GatewayError:
        raise PaymentGatewayUnavailable(gettext("Stripe could not list the payout; retry later.")) from None


def _connect_event_apply(
    event_type: str, obj: dict[str, Any], payout_payments: list[str], as_of: dt.datetime | None
) -> str:
    if event_type == "account.updated":
        return connected_account_apply(state=AccountState.from_stripe(obj, as_of=as_of))
    if event_type in PAYOUT_EVENT_TYPES:
        paid = event_type == "payout.paid"
        instant = instant_payout_settled(payout_id=str(obj.get("id") or ""), paid=paid)
        outcome = payout_settled(payout_id=str(obj.get("id") or ""), payments=payout_payments, paid=paid)
        return f"{instant} {outcome}" if instant else outcome
    # transfer.reversed: Stripe sends it for partial reversals too; only a full one counts.
    return transfer_reversed(
        transfer_id=str(obj.get("id") or ""),
        fully=obj.get("reversed") is True,
        reversal_id=str(((obj.get("reversals") or {}).get("data") or [{}])[0].get("id") or ""),
    )


def _tip_event_apply(event_type: str, intent_id: str, obj: dict[str, Any]) -> str:
    if event_type == "payment_intent.succeeded":
        booking_id = str((obj.get("metadata") or {}).get("booking_id") or "")
        amount = obj.get("amount_received") or obj.get("amount")
        return tips.tip_paid(
            intent_id=intent_id,
            booking_id=int(booking_id) if booking_id.isdigit() else None,
            amount_cents=amount if isinstance(amount, int) else None,
        )
    error = obj.get("last_payment_error") or {}
    message = str(error.get("message") or "") if isinstance(error, dict) else ""
    return tips.tip_failed(intent_id=intent_id, message=message)


def stripe_event_process(*, event: dict[str, Any]) -> str:
    """Apply one verified Stripe event, at most once per event id; returns what it did.

    The event id is recorded in the same transaction as the change it causes, so a failure
    leaves it unrecorded and Stripe's retry applies it again; concurrent deliveries of one
    event wait on the unique index and the later one finds it done ("duplicate"). Order does
    not matter: the booking transitions never move paymentStatus backwards, nor the payout
    transitions an earning's state (payments.payouts).
    """
    event_id = str(event.get("id") or "")
    event_type = str(event.get("type") or "")
    data = event.get("data")
    obj = data.get("object") if isinstance(data, dict) else None
    if not isinstance(obj, dict):
        obj = {}
    if not event_id:
        raise InvalidInput(gettext("The event has no id."), errors={"id": ["Required."]})
    intent_id = _intent_id_of(event_type, obj) if event_type in HANDLED_EVENT_TYPES else ""
    payout_payments: list[str] = []
    if event_type in PAYOUT_EVENT_TYPES:
        if ProcessedEvent.objects.filter(event_id=event_id).exists():
            return "duplicate"
        payout_payments = _payout_payments(event, obj)

    with transaction.atomic():
        try:
            with transaction.atomic():
                processed = ProcessedEvent.objects.create(
                    event_id=event_id, event_type=event_type[:100], intent_id=intent_id, outcome="processing"
                )
        except IntegrityError:
            logger.info("Stripe event %s (%s) was already processed", event_id, event_type)
            return "duplicate"

        if event_type.startswith("payment_intent.") and (
            tips.is_tip_intent(intent_id) or (obj.get("metadata") or {}).get("kind") == "tip"
        ):
            # A tip's own intent (payments.tips), never a booking's.
            outcome = _tip_event_apply(event_type, intent_id, obj)
        elif event_type == "payment_intent.succeeded":
            outcome = payment_succeeded(payment_intent_id=intent_id)
        elif event_type == "payment_intent.payment_failed":
            from payments.cards import visit_charge_failed_event  # cards builds on this module

            error = obj.get("last_payment_error") or {}
            message = str(error.get("message") or "") if isinstance(error, dict) else ""
            code = str(error.get("code") or "") if isinstance(error, dict) else ""
            outcome = visit_charge_failed_event(intent_id=intent_id, code=code, message=message)
            if outcome is None:
                outcome = booking_payment_failed(
                    payment_intent_id=intent_id, message=message, payer=_payer_of(intent_id)
                )
            if outcome == "failed":
                PaymentIntent.objects.filter(intent_id=intent_id).update(last_error=message)
        elif event_type == "charge.refunded":
            # Stripe sends charge.refunded for partial refunds too; only a full refund counts, or
            # the refund Kindly asked for when a late fee is kept (the total less the fee).
            whole = obj.get("refunded") is True or _refund_expected(intent_id, obj.get("amount_refunded"))
            outcome = _charge_refunded(intent_id) if whole else "partial"
        elif event_type == "refund.failed":
            reason = str(obj.get("failure_reason") or "")
            outcome = booking_refund_failed_at_gateway(
                payment_intent_id=intent_id, message=f"Stripe: refund failed ({reason or 'no reason given'})."
            )
        elif event_type in CONNECT_EVENT_TYPES:
            created = event.get("created")
            as_of = dt.datetime.fromtimestamp(created, tz=dt.UTC) if isinstance(created, int) else None
            outcome = _connect_event_apply(event_type, obj, payout_payments, as_of)
        else:
            outcome = "unhandled"

        processed.outcome = outcome
        processed.save(update_fields=["outcome"])
    logger.info("Stripe event %s (%s) for %s: %s", event_id, event_type, intent_id or "-", outcome)
    return outcome
