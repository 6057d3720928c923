"""Tips: a family's thank-you for a visit, all of it to the helper (docs/payments.md "Tips").

    an organizer adds a tip within TIP_WINDOW_HOURS of the check-out -> Tip awaiting payment,
        its own PaymentIntent (key kindly-tip-<booking>-intent-<cents><currency>)
    the card is declined (payment_intent.payment_failed)              -> failed: she may try again
    payment_intent.succeeded (Stripe) / the test gateway at once      -> pending; the helper is told
    the helper's payouts on                                           -> transferred in full
        (key kindly-tip-<booking>-transfer, source_transaction = the tip's charge): on its way

    the visit is refunded in full (refunds: a cancel's, a waived dispute's, one made on Stripe)
        the tip not transferred yet                                   -> refunded to the card too
            (key kindly-tip-<booking>-refund, the tip's own intent)
        the tip already transferred                                   -> flagged for staff (refund_flagged_at)

The refund rule: a tip thanks the helper for a visit. When the family gets the visit's whole
payment back, Kindly treats the visit as not given, and the tip goes back too, unless it has
already reached the helper: money in a helper's account is not taken back without a person
deciding, so staff see the tip flagged (payments admin, "Refund flagged at") and decide. A
partial refund (a late fee kept) leaves the tip alone.

One tip per visit: while unpaid it may be changed (a new amount is a new intent, as a booking's
payment), once paid it is final. Amounts come from the server only: a percentage of the visit's
total is rounded down to the cent (the one rounding money has, as the platform and late fees).
As in payments.payouts, the gateway is never called inside a transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
from decimal import ROUND_DOWN, Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.services import booking_lock
from core.errors import Conflict, InvalidInput
from core.notices.bookings import InApp
from core.notifications import Audience, notify
from payments.errors import PaymentGatewayUnavailable
from payments.gateways import REFUND_FAILED, REFUND_SUCCEEDED, GatewayError, gateway_named, get_gateway
from payments.models import ConnectedAccount, Gateway, LateFee, LateFeeState, Tip, TipState
from payments.payouts import CENT, cents, transfer_in_full
from payments.selectors import tip_booking

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

TIP_CHOOSE_ONE = gettext_lazy("Choose a suggested tip or type an amount.")
TIP_NOT_COMPLETED = gettext_lazy("A tip can be added once the visit is completed.")
TIP_NOT_PAID = gettext_lazy("A tip can be added once the visit itself is paid.")
TIP_WINDOW_OVER = gettext_lazy("Tips can be added for {hours} hours after the visit. That time is over for this visit.")
TIP_ALREADY = gettext_lazy("You already added a tip for this visit. Thank you.")
TIP_STARTED_BY_OTHER = gettext_lazy("Another organizer is adding a tip for this visit.")


def transfer_key(booking_id: int) -> str:
    return f"kindly-tip-{booking_id}-transfer"


def refund_key(booking_id: int) -> str:
    return f"kindly-tip-{booking_id}-refund"


def intent_key(booking_id: int, amount_cents: int, currency: str) -> str:
    return f"kindly-tip-{booking_id}-intent-{amount_cents}{currency}"


def _tasks():
    from payments import tasks

    return tasks


# ---------------------------------------------------------------- the rules


def tip_window_end(booking: Booking) -> dt.datetime | None:
    """Until when a tip may be added: TIP_WINDOW_HOURS after the check-out (the visit report)."""
    if booking.checked_out_at is None:
        return None
    return booking.checked_out_at + dt.timedelta(hours=settings.TIP_WINDOW_HOURS)


def tip_suggestions(booking: Booking) -> list[dict]:
    """The suggested tips: TIP_SUGGESTED_PERCENTS of the visit's total, rounded down to the cent,
    within TIP_MIN and TIP_MAX (a suggestion outside them is left out)."""
    out = []
    for percent in settings.TIP_SUGGESTED_PERCENTS:
        amount = tip_of_percent(booking, percent)
        if settings.TIP_MIN <= amount <= settings.TIP_MAX:
            out.append({"percent": percent, "amount": amount})
    return out


def tip_of_percent(booking: Booking, percent: int) -> Decimal:
    return (Decimal(booking.total_amount) * Decimal(percent) / 100).quantize(CENT, rounding=ROUND_DOWN)


def tip_amount(booking: Booking, *, amount: Decimal | None, percent: int | None) -> Decimal:
    """The tip asked for, checked: one suggested percentage or one amount, from TIP_MIN to TIP_MAX
    (400 in plain words otherwise)."""
    if (amount is None) == (percent is None):
        raise InvalidInput(TIP_CHOOSE_ONE, errors={"amount": [TIP_CHOOSE_ONE]})
    if percent is not None:
        if percent not in settings.TIP_SUGGESTED_PERCENTS:
            choices = ", ".join(f"{p}%" for p in settings.TIP_SUGGESTED_PERCENTS)
            message = f"Choose one of the suggested tips ({choices}) or type an amount."
            raise InvalidInput(message, errors={"percent": [message]})
        value, field = tip_of_percent(booking, percent), "percent"
    else:
        value, field = Decimal(amount).quantize(CENT, rounding=ROUND_DOWN), "amount"
    if value < settings.TIP_MIN:
        message = f"A tip must be at least ${settings.TIP_MIN:.2f}."
        raise InvalidInput(message, errors={field: [message]})
    if value > settings.TIP_MAX:
        message = f"A tip can be at most ${settings.TIP_MAX:.2f}. For a larger thank-you, please contact support."
        raise InvalidInput(message, errors={field: [message]})
    return value


def check_tippable(booking: Booking, *, now: dt.datetime) -> None:
    """409 unless the visit is completed, paid and its check-out less than TIP_WINDOW_HOURS ago."""
    if booking.status != BookingStatus.COMPLETED:
        raise Conflict(TIP_NOT_COMPLETED)
    if booking.payment_status != PaymentStatus.PAID:
        raise Conflict(TIP_NOT_PAID)
    end = tip_window_end(booking)
    if end is None or now > end:
        raise Conflict(TIP_WINDOW_OVER.format(hours=settings.TIP_WINDOW_HOURS))


def tip_can_be_added(booking: Booking, *, now: dt.datetime | None = None) -> bool:
    try:
        check_tippable(booking, now=now or timezone.now())
    except Conflict:
        return False
    tip = Tip.objects.filter(booking=booking).first()
    return tip is None or tip.state in (TipState.AWAITING_PAYMENT, TipState.FAILED)


# ---------------------------------------------------------------- the family adds a tip


def _checked(booking_id: int, actor: User, amount: Decimal | None, percent: int | None) -> tuple[Booking, Decimal]:
    """Under the booking's row lock: the visit may be tipped now, and the tip's amount (400/409)."""
    booking = booking_lock(booking_id=booking_id)
    check_tippable(booking, now=timezone.now())
    tip = Tip.objects.filter(booking=booking).first()
    if tip is not None and tip.state in (TipState.PENDING, TipState.ON_ITS_WAY):
        raise Conflict(TIP_ALREADY)
    return booking, tip_amount(booking, amount=amount, percent=percent)


def tip_start(*, actor: User, booking_id: int, amount: Decimal | None = None, percent: int | None = None) -> Tip:
    """An organizer of the recipient's circle adds a tip (404 not theirs to see, 403 not an
    organizer, 400 a bad amount, 409 not completed, not paid, too late or already tipped).

    As payments.services.payment_intent_create: checked under the row lock and committed; the
    intent made at the gateway outside any transaction (one idempotency key per tip and amount);
    recorded in a second short transaction that checks again. With the offline test gateway the
    tip is charged at once (its simulated card always succeeds); with Stripe the browser confirms
    the intent's client secret and payment_intent.succeeded says it was paid.
    """
    tip_booking(user=actor, booking_id=booking_id)  # 404 / 403 before any lock
    gateway = get_gateway()
    currency = settings.PAYMENTS_CURRENCY.lower()
    with transaction.atomic():
        booking, value = _checked(booking_id, actor, amount, percent)
        tip = Tip.objects.filter(booking=booking).first()
        amount_cents = cents(value)
        if (
            tip is not None
            and tip.state == TipState.AWAITING_PAYMENT
            and tip.gateway == gateway.name
            and tip.intent_id
            and cents(tip.amount) == amount_cents
        ):
            if tip.payer_id != actor.pk:
                tip.payer = actor
                tip.save(update_fields=["payer", "updated_at"])
            return tip
        metadata = {"kind": "tip", "booking_id": str(booking.pk), "client_id": str(actor.pk)}

    key = intent_key(booking_id, amount_cents, currency)
    try:
        created = gateway.create_intent(
            amount_cents=amount_cents, currency=currency, idempotency_key=key, metadata=metadata
        )
    except GatewayError:
        raise PaymentGatewayUnavailable(gettext("We could not start the tip just now. Please try again.")) from None

    with transaction.atomic():
        booking, again = _checked(booking_id, actor, amount, percent)
        if again != value:
            raise Conflict(gettext("The visit's total changed. Please reload the page."))
        tip, _created = Tip.objects.update_or_create(
            booking=booking,
            defaults={
                "payer": actor,
                "amount": value,
                "currency": currency,
                "gateway": gateway.name,
                "state": TipState.AWAITING_PAYMENT,
                "intent_id": created.intent_id,
                "client_secret": created.client_secret,
                "idempotency_key": key,
                "last_error": "",
            },
        )
    if gateway.name == Gateway.TEST:
        tip_paid(intent_id=created.intent_id)
        tip.refresh_from_db()
    return tip


def _tip_locked(intent_id: str) -> Tip | None:
    return Tip.objects.select_for_update().select_related("booking", "payer").filter(intent_id=intent_id).first()


def tip_paid(*, intent_id: str, booking_id: int | None = None, amount_cents: int | None = None) -> str:
    """The tip's intent succeeded (payment_intent.succeeded, or the test gateway): pending, the
    helper is told, the transfer follows the commit. A repeat changes nothing ("duplicate").

    An earlier intent of the same tip (the organizer changed the amount before paying, and an old
    page paid the old one anyway: the event's metadata names the booking) is what the family paid:
    an unpaid tip takes its intent and amount. When the tip was already paid that way, the second
    charge is logged for staff to refund ("tip_superseded")."""
    with transaction.atomic():
        tip = _tip_locked(intent_id)
        if tip is None and booking_id is not None and amount_cents:
            tip = (
                Tip.objects.select_for_update().select_related("booking", "payer").filter(booking_id=booking_id).first()
            )
            if tip is None:
                return "unknown"
            if tip.state in (TipState.PENDING, TipState.ON_ITS_WAY):
                logger.error("Booking %s: a superseded tip intent %s was paid too; refund it", booking_id, intent_id)
                return "tip_superseded"
            tip.intent_id = intent_id
            tip.amount = Decimal(amount_cents) / 100
            tip.save(update_fields=["intent_id", "amount", "updated_at"])
        if tip is None:
            return "unknown"
        if tip.state in (TipState.PENDING, TipState.ON_ITS_WAY):
            return "duplicate"
        tip.state = TipState.PENDING
        tip.paid_at = timezone.now()
        tip.last_error = ""
        tip.save(update_fields=["state", "paid_at", "last_error", "updated_at"])
        booking = tip.booking
        helper = booking.provider.user
        notify(
            receivers=[helper],
            notice=InApp.TIP_RECEIVED,
            facts={"name": tip.payer.first_name or tip.payer.full_name or "The family", "amount": str(tip.amount)},
            booking=booking,
            roles={helper.pk: Audience.HELPER},
        )
        booking_id = booking.pk
        # An old page paid the tip of a visit refunded in full meanwhile: it goes back, not out.
        task = _tasks().refund_tip if visit_refunded_in_full(booking) else _tasks().release_tip
        transaction.on_commit(lambda: task.delay(booking_id), robust=True)
    return "tip_paid"


def tip_failed(*, intent_id: str, message: str) -> str:
    """The card was declined: the organizer may try again (the same or another amount)."""
    with transaction.atomic():
        tip = _tip_locked(intent_id)
        if tip is None:
            return "unknown"
        if tip.state != TipState.AWAITING_PAYMENT:
            return "ignored"
        tip.state = TipState.FAILED
        tip.last_error = message[:2000]
        tip.save(update_fields=["state", "last_error", "updated_at"])
    return "tip_failed"


def is_tip_intent(intent_id: str) -> bool:
    return bool(intent_id) and Tip.objects.filter(intent_id=intent_id).exists()


# ---------------------------------------------------------------- the transfer, all of it the helper's


def tip_release(*, booking_id: int, last_try: bool = True) -> str:
    """Transfer a paid tip, all of it, to the helper's connected account, from the tip's own charge.
    Outside any transaction; safe to repeat (one idempotency key per tip). Returns "transferred",
    "waiting" (payouts not on), "retry", "failed" or "ignored"."""
    sent = transfer_in_full(
        Tip,
        booking_id=booking_id,
        pending=TipState.PENDING,
        kind="tip",
        key=transfer_key(booking_id),
        source=lambda tip: tip.intent_id,  # the tip's own charge
        last_try=last_try,
    )
    if isinstance(sent, str):
        return sent
    tip, result = sent
    with transaction.atomic():
        tip = Tip.objects.select_for_update().get(pk=tip.pk)
        tip.transfer_id = result.transfer_id
        tip.destination_payment_id = result.destination_payment_id
        tip.transferred_at = timezone.now()
        tip.last_error = ""
        if tip.state == TipState.REFUNDED:
            # The visit was refunded in full while this transfer was under way: the tip went both
            # ways. Staff decide (the refund rule never takes money back from a helper by itself).
            tip.refund_flagged_at = tip.transferred_at
            logger.error("Booking %s: its tip was transferred and refunded at once; staff decide", booking_id)
        else:
            tip.state = TipState.ON_ITS_WAY
        tip.save(
            update_fields=[
                "transfer_id",
                "destination_payment_id",
                "transferred_at",
                "last_error",
                "state",
                "refund_flagged_at",
                "updated_at",
            ]
        )
    logger.info("Booking %s: tip %s transferred (%s)", booking_id, tip.amount, result.transfer_id)
    return "transferred"


def tips_waiting(*, provider_id: int | None = None) -> list[int]:
    """Paid tips not yet transferred whose helper's payouts are on (beat, and when they turn on)."""
    on = ConnectedAccount.objects.filter(charges_enabled=True, payouts_enabled=True)
    if provider_id is not None:
        on = on.filter(provider_id=provider_id)
    return list(
        Tip.objects.filter(
            state=TipState.PENDING, transfer_id="", booking__provider_id__in=on.values("provider_id")
        ).values_list("booking_id", flat=True)
    )


# ---------------------------------------------------------------- the visit refunded in full


def visit_refunded_in_full(booking: Booking) -> bool:
    """The family got the visit's whole payment back: refunded, and no late fee kept (none; one
    waived when staff cancelled; or one waived after a dispute and refunded by its own refund)."""
    if booking.payment_status != PaymentStatus.REFUNDED:
        return False
    fee = LateFee.objects.filter(booking=booking).first()
    if fee is None:
        return True
    return fee.state == LateFeeState.WAIVED and (fee.disputed_at is None or bool(fee.refund_id))


def tip_refund_on_commit(*, booking_id: int) -> None:
    """The visit's payment was refunded (payments.refunds, payments.services, payments.latefees):
    once that commits, its tip follows the refund rule (tip_refund_send)."""
    transaction.on_commit(lambda: _tasks().refund_tip.delay(booking_id), robust=True)


def tip_refund_send(*, booking_id: int, last_try: bool = True) -> str:
    """The refund rule for the tip of a visit refunded in full (module docstring). Outside any
    transaction; safe to repeat (one idempotency key per tip). Returns "refunded", "pending" (the
    gateway accepted it), "flagged" (already the helper's: staff decide), "retry", "failed" or
    "ignored" (no paid tip, the visit not refunded in full, or done already).

    The tip is marked refunded under its row lock before the gateway is called, so tip_release,
    which transfers only a pending tip, sends nothing after that. A transfer already under way
    when the visit was refunded is caught by tip_release (it flags the tip)."""
    with transaction.atomic():
        tip = Tip.objects.select_for_update().select_related("booking").filter(booking_id=booking_id).first()
        if tip is None or not visit_refunded_in_full(tip.booking):
            return "ignored"
        if tip.state == TipState.ON_ITS_WAY or tip.transfer_id:
            if tip.refund_flagged_at is None:
                tip.refund_flagged_at = timezone.now()
                tip.save(update_fields=["refund_flagged_at", "updated_at"])
                logger.error(
                    "Booking %s was refunded in full after its tip of %s reached the helper (%s): staff decide",
                    booking_id,
                    tip.amount,
                    tip.transfer_id,
                )
            return "flagged"
        if tip.state == TipState.PENDING:
            tip.state = TipState.REFUNDED
            tip.save(update_fields=["state", "updated_at"])
        elif tip.state != TipState.REFUNDED or tip.refunded_at is not None:
            return "ignored"  # never paid (nothing to give back), or its refund is recorded
    try:
        result = gateway_named(tip.gateway).refund(
            tip.booking,
            idempotency_key=refund_key(booking_id),
            amount_cents=cents(tip.amount),
            payment_intent_id=tip.intent_id,
        )
    except GatewayError as exc:
        Tip.objects.filter(pk=tip.pk).update(last_error=exc.message[:2000], updated_at=timezone.now())
        if not last_try:
            return "retry"
        logger.error("The refund of the tip of booking %s failed: %s", booking_id, exc.message)
        return "failed"
    if result.status == REFUND_FAILED:
        message = f"The gateway answered the tip's refund {result.refund_id} as failed."
        Tip.objects.filter(pk=tip.pk).update(refund_id=result.refund_id, last_error=message, updated_at=timezone.now())
        logger.error("Booking %s: %s", booking_id, message)
        return "failed"
    Tip.objects.filter(pk=tip.pk).update(
        refund_id=result.refund_id or "refunded", refunded_at=timezone.now(), last_error="", updated_at=timezone.now()
    )
    logger.info("Booking %s: tip %s refunded with the visit (%s)", booking_id, tip.amount, result.refund_id)
    return "refunded" if result.status == REFUND_SUCCEEDED else "pending"
