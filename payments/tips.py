"""Tips: a family's thank-you for a visit, all of it to the helper (docs/payments.md "Tips").

    an organizer adds a tip within TIP_WINDOW_HOURS of the check-out -> Tip awaiting payment,
        its own PaymentIntent (key kindly-tip-<booking>-intent-<cents><currency>)
    the card is declined (payment_intent.payment_failed)              -> failed: she may try again
    payment_intent.succeeded (Stripe) / the test gateway at once      -> pending; the helper is told
    the helper's payouts on                                           -> transferred in full
        (key kindly-tip-<booking>-transfer, source_transaction = the tip's charge): on its way

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
from payments.gateways import GatewayError, gateway_named, get_gateway
from payments.models import ConnectedAccount, Gateway, PayoutSetup, Tip, TipState
from payments.payouts import CENT, cents
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
        transaction.on_commit(lambda: _tasks().release_tip.delay(booking_id), robust=True)
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
    with transaction.atomic():
        tip = Tip.objects.select_for_update().select_related("booking").filter(booking_id=booking_id).first()
        if tip is None or tip.state != TipState.PENDING or tip.transfer_id:
            return "ignored"
        account = ConnectedAccount.objects.filter(provider_id=tip.booking.provider_id).first()
        if account is None or account.setup != PayoutSetup.ON or account.gateway != tip.gateway:
            return "waiting"
    try:
        result = gateway_named(tip.gateway).transfer(
            amount_cents=cents(tip.amount),
            currency=tip.currency,
            destination=account.account_id,
            payment_intent_id=tip.intent_id,
            idempotency_key=transfer_key(booking_id),
            metadata={"booking_id": str(booking_id), "provider_id": str(account.provider_id), "kind": "tip"},
        )
    except GatewayError as exc:
        Tip.objects.filter(pk=tip.pk).update(last_error=exc.message[:2000], updated_at=timezone.now())
        if not last_try:
            return "retry"
        logger.error("Tip transfer of booking %s failed: %s", booking_id, exc.message)
        return "failed"
    with transaction.atomic():
        tip = Tip.objects.select_for_update().get(pk=tip.pk)
        tip.transfer_id = result.transfer_id
        tip.destination_payment_id = result.destination_payment_id
        tip.transferred_at = timezone.now()
        tip.last_error = ""
        tip.state = TipState.ON_ITS_WAY
        tip.save(
            update_fields=[
                "transfer_id",
                "destination_payment_id",
                "transferred_at",
                "last_error",
                "state",
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
