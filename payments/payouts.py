"""Providers get paid (Stripe Connect, separate charges and transfers; why: docs/payments.md).

    client pays the booking's total to Kindly  -> Earning (gross, fee, net), state pending
    visit completed and the provider's payouts on -> transfer of the net to their account: on its way
    payout.paid on their account carrying it     -> paid
    the client refunded (charge.refunded)        -> reversed (a transfer already made is reversed)

Onboarding: a verified provider gets a Stripe Express account and a one-time link to Stripe's
form; account.updated (or the test gateway's simulated form) says how far they got
(ConnectedAccount.setup). Earnings of completed visits wait, pending, until payouts are on and
then go out at once.

As in payments.refunds, the gateway is never called inside a transaction: a state change
commits first and the call follows on commit, with an idempotency key per booking, so a
repeated or concurrent call moves money once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from decimal import ROUND_DOWN, Decimal
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from bookings.models import Booking, BookingStatus, PaymentStatus
from core.errors import NotFound, PermissionDenied
from core.events import BookingCompleted
from core.notices.bookings import InApp
from core.notifications import notify
from payments.errors import PaymentGatewayUnavailable
from payments.gateways import (
    AccountState,
    GatewayError,
    TransferResult,
    gateway_named,
    get_gateway,
    is_test_gateway_active,
)
from payments.models import (
    ConnectedAccount,
    Earning,
    Gateway,
    LateFee,
    PaymentIntent,
    PayoutSetup,
    PayoutState,
    Tip,
)
from providers.models import Provider, VerificationStatus

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

CENT = Decimal("0.01")
SETUP_FAILED_MESSAGE = gettext_lazy(
    "We could not reach our payment partner just now. Please try again in a few minutes."
)
NOT_VERIFIED_MESSAGE = gettext_lazy("Payouts can be set up once your provider profile has been verified.")


# ---------------------------------------------------------------- the split


def earning_split(*, gross: Decimal, percent: Decimal | None = None) -> tuple[Decimal, Decimal]:
    """(fee, net) of a booking's total: the fee is `percent` of it (PLATFORM_FEE_PERCENT), rounded
    down to the cent, so any fraction of a cent stays with the provider; net = gross - fee."""
    percent = settings.PLATFORM_FEE_PERCENT if percent is None else percent
    gross = Decimal(gross).quantize(CENT)
    fee = (gross * Decimal(percent) / 100).quantize(CENT, rounding=ROUND_DOWN)
    return fee, gross - fee


def cents(amount: Decimal) -> int:
    return int(Decimal(amount).quantize(CENT) * 100)


def earning_open(*, booking: Booking) -> Earning:
    """Record the split of a booking whose payment succeeded. Caller holds the booking's row lock
    inside transaction.atomic; a second call (a repeated event) returns the first split."""
    intent = PaymentIntent.objects.filter(booking=booking).first()
    fee, net = earning_split(gross=booking.total_amount)
    earning, created = Earning.objects.get_or_create(
        booking=booking,
        defaults={
            "gross": booking.total_amount,
            "fee": fee,
            "net": net,
            "fee_percent": settings.PLATFORM_FEE_PERCENT,
            "currency": intent.currency if intent else settings.PAYMENTS_CURRENCY.lower(),
            "gateway": intent.gateway if intent else get_gateway().name,
        },
    )
    if created:
        logger.info("Booking %s paid: gross %s, fee %s, net %s", booking.pk, earning.gross, fee, net)
    return earning


# ---------------------------------------------------------------- onboarding


def _verified_provider(actor: User) -> Provider:
    provider = Provider.objects.select_related("user").filter(user=actor).first()
    if provider is None:
        raise PermissionDenied(gettext("Only providers have payouts."))
    if provider.verification_status != VerificationStatus.VERIFIED:
        raise PermissionDenied(NOT_VERIFIED_MESSAGE)
    return provider


def connected_account_start(*, actor: User, refresh_url: str, return_url: str) -> str:
    """A verified provider starts (or continues) payouts setup: their connected account is created
    once, and a fresh onboarding link returned. 403 for anyone else; 502 when the gateway fails."""
    provider = _verified_provider(actor)
    account = ConnectedAccount.objects.filter(provider=provider).first()
    gateway = gateway_named(account.gateway) if account else get_gateway()
    try:
        if account is None:
            account_id = gateway.account_create(
                email=actor.email,
                idempotency_key=f"kindly-provider-{provider.pk}-account",
                metadata={"provider_id": str(provider.pk), "user_id": str(actor.pk)},
            )
            try:
                with transaction.atomic():
                    account = ConnectedAccount.objects.create(
                        provider=provider, gateway=gateway.name, account_id=account_id
                    )
            except IntegrityError:  # a second tab got there first, with the same key: same account
                account = ConnectedAccount.objects.get(provider=provider)
        return gateway.account_link(account_id=account.account_id, refresh_url=refresh_url, return_url=return_url)
    except GatewayError:
        raise PaymentGatewayUnavailable(SETUP_FAILED_MESSAGE) from None


def connected_account_apply(*, state: AccountState) -> str:
    """Store what the gateway says about an account (account.updated, the return from Stripe's
    form, the test gateway's simulated form). When payouts turn on, the provider's waiting earnings
    go out after the commit. Stripe does not send events in order: a state older than the stored
    one changes nothing. Returns "updated", "unchanged", "stale" or "unknown"."""
    as_of = state.as_of or timezone.now()
    with transaction.atomic():
        account = ConnectedAccount.objects.select_for_update().filter(account_id=state.account_id).first()
        if account is None:
            return "unknown"
        if account.state_at is not None and as_of < account.state_at:
            return "stale"
        was_on = account.setup == PayoutSetup.ON
        fields = {
            "charges_enabled": state.charges_enabled,
            "payouts_enabled": state.payouts_enabled,
            "details_submitted": state.details_submitted,
            "requirements_due": state.requirements_due,
            "disabled_reason": state.disabled_reason,
        }
        if all(getattr(account, name) == value for name, value in fields.items()):
            return "unchanged"
        for name, value in fields.items():
            setattr(account, name, value)
        account.state_at = as_of
        account.save(update_fields=[*fields, "state_at", "updated_at"])
        if account.setup == PayoutSetup.ON and not was_on:
            provider_id = account.provider_id
            transaction.on_commit(lambda: _tasks().release_waiting_earnings.delay(provider_id), robust=True)
    logger.info("Connected account %s: %s", state.account_id, account.setup.label)
    return "updated"


def connected_account_refresh(*, actor: User) -> ConnectedAccount | None:
    """Ask the gateway for the provider's account state (they came back from Stripe's form) and
    store it; the webhook says the same a moment later. Outside any transaction."""
    account = ConnectedAccount.objects.filter(provider__user=actor).first()
    if account is None:
        return None
    try:
        state = gateway_named(account.gateway).account_state(account.account_id)
    except GatewayError:
        return account  # the webhook brings it
    if state is not None:
        connected_account_apply(state=state)
        account.refresh_from_db()
    return account


def test_onboarding_allowed(*, actor: User, account_id: str) -> bool:
    """The test gateway's simulated form exists only with the test gateway, for the account's own provider."""
    return (
        is_test_gateway_active()
        and ConnectedAccount.objects.filter(account_id=account_id, provider__user=actor, gateway=Gateway.TEST).exists()
    )


def test_onboarding_finish(*, actor: User, account_id: str, complete: bool) -> None:
    """The test gateway's simulated Stripe form: the provider finished it (payouts on) or stopped
    before the bank details (details needed). Only the account's own provider; 404 otherwise."""
    if not test_onboarding_allowed(actor=actor, account_id=account_id):
        raise NotFound(gettext("Not found."))
    connected_account_apply(
        state=AccountState(
            account_id=account_id,
            charges_enabled=complete,
            payouts_enabled=complete,
            details_submitted=True,
            requirements_due=[] if complete else ["external_account"],
        )
    )


# ---------------------------------------------------------------- transfers


def _tasks():
    """payments.tasks (imported late: the tasks call this module). Every transfer and reversal is
    sent from Celery once the transaction that decided it has committed."""
    from payments import tasks

    return tasks


def on_booking_completed(event: BookingCompleted) -> None:
    """Subscriber of BookingCompleted (inside the completion's transaction): the provider's share
    goes out after the commit, or, when payouts are not on, they are reminded (with the change)."""
    booking = Booking.objects.select_related("provider__user").get(pk=event.booking_id)
    earning = Earning.objects.filter(booking=booking).first()
    if earning is None or earning.state != PayoutState.PENDING:
        return
    account = ConnectedAccount.objects.filter(provider_id=booking.provider_id).first()
    if account is not None and account.setup == PayoutSetup.ON:
        booking_id = booking.pk
        transaction.on_commit(lambda: _tasks().release_earning.delay(booking_id), robust=True)
        return
    notify(
        receivers=[booking.provider.user],
        notice=InApp.EARNING_WAITING,
        facts={"net": str(earning.net)},
        booking=booking,
    )


def _release_check(booking_id: int) -> tuple[Earning, ConnectedAccount] | str:
    """The earning and account to transfer to, or why not. Caller holds the earning's row lock."""
    earning = (
        Earning.objects.select_for_update(of=("self",)).select_related("booking").filter(booking_id=booking_id).first()
    )
    if earning is None or earning.state != PayoutState.PENDING or earning.transfer_id:
        return "ignored"
    booking = earning.booking
    if booking.status != BookingStatus.COMPLETED or booking.payment_status != PaymentStatus.PAID:
        return "ignored"
    account = ConnectedAccount.objects.filter(provider_id=booking.provider_id).first()
    if account is None or account.setup != PayoutSetup.ON:
        return "waiting"
    if account.gateway != earning.gateway:
        logger.error("Booking %s was paid through %s; its provider's account is not", booking_id, earning.gateway)
        return "waiting"
    return earning, account


def earning_release(*, booking_id: int, last_try: bool = True) -> str:
    """Transfer the provider's share of a completed, paid booking to their connected account.

    Outside any transaction. Safe to repeat and to run twice at once (one idempotency key per
    booking). Returns "transferred", "waiting" (payouts not on), "failed" (kept pending with the
    error for admins; the next account.updated or `manage.py release_earnings` tries again) or
    "ignored".
    """
    with transaction.atomic():
        checked = _release_check(booking_id)
    if isinstance(checked, str):
        return checked
    earning, account = checked
    try:
        result = gateway_named(earning.gateway).transfer(
            amount_cents=cents(earning.net),
            currency=earning.currency,
            destination=account.account_id,
            payment_intent_id=earning.booking.payment_intent_id,
            idempotency_key=f"kindly-booking-{booking_id}-transfer",
            metadata={"booking_id": str(booking_id), "provider_id": str(account.provider_id)},
        )
    except GatewayError as exc:
        Earning.objects.filter(pk=earning.pk).update(last_error=exc.message[:2000], updated_at=timezone.now())
        if not last_try:
            logger.warning("Transfer for booking %s failed (%s); trying again", booking_id, exc.message)
            return "retry"
        logger.error(
            "Transfer for booking %s failed: %s. Retry with: manage.py release_earnings", booking_id, exc.message
        )
        return "failed"
    with transaction.atomic():
        earning = Earning.objects.select_for_update().get(pk=earning.pk)
        earning.transfer_id = result.transfer_id
        earning.destination_payment_id = result.destination_payment_id
        earning.transferred_at = timezone.now()
        earning.last_error = ""
        fields = ["transfer_id", "destination_payment_id", "transferred_at", "last_error", "updated_at"]
        if earning.state == PayoutState.PENDING:
            earning.state = PayoutState.ON_ITS_WAY
            fields.append("state")
        else:  # refunded while the transfer was being made: take it back
            transaction.on_commit(lambda: _tasks().reverse_earning.delay(booking_id), robust=True)
        earning.save(update_fields=fields)
    logger.info("Booking %s: %s %s transferred (%s)", booking_id, earning.net, earning.currency, result.transfer_id)
    return "transferred"


def transfer_in_full(
    model: type[LateFee] | type[Tip],
    *,
    booking_id: int,
    pending: str,
    kind: str,
    key: str,
    source: Callable[[Any], str],
    last_try: bool,
) -> tuple[Any, TransferResult] | str:
    """Send money that is all the helper's (a late fee, a tip: payments.latefees, payments.tips),
    the whole of the booking's record's amount, to her connected account by a transfer of its own
    from the charge of `source(record)`'s intent (Kindly keeps no fee), with one idempotency key.

    Checked under the record's row lock (`pending`, not yet sent; her payouts on, on the record's
    gateway); the gateway is called after that commit, outside any transaction. Returns the record
    and the gateway's answer, for the caller to record in a transaction of its own, or what the
    caller returns: "ignored", "waiting" (payouts not on), "retry" (the gateway failed, not the last
    try) or "failed" (the error kept on the record for admins)."""
    with transaction.atomic():
        record = model.objects.select_for_update().select_related("booking").filter(booking_id=booking_id).first()
        if record is None or record.state != pending or record.transfer_id:
            return "ignored"
        account = ConnectedAccount.objects.filter(provider_id=record.booking.provider_id).first()
        if account is None or account.setup != PayoutSetup.ON or account.gateway != record.gateway:
            return "waiting"
    try:
        result = gateway_named(record.gateway).transfer(
            amount_cents=cents(record.amount),
            currency=record.currency,
            destination=account.account_id,
            payment_intent_id=source(record),
            idempotency_key=key,
            metadata={"booking_id": str(booking_id), "provider_id": str(account.provider_id), "kind": kind},
        )
    except GatewayError as exc:
        model.objects.filter(pk=record.pk).update(last_error=exc.message[:2000], updated_at=timezone.now())
        if not last_try:
            return "retry"
        logger.error("The %s transfer of booking %s failed: %s", kind.replace("_", " "), booking_id, exc.message)
        return "failed"
    return record, result


def earnings_waiting(*, provider_id: int | None = None) -> list[int]:
    """The bookings whose provider's share waits to be transferred (one provider's, or everyone's),
    to providers whose payouts are on (the others' shares wait for their setup, which enqueues them)."""
    waiting = Earning.objects.filter(
        state=PayoutState.PENDING,
        transfer_id="",
        booking__status=BookingStatus.COMPLETED,
        booking__payment_status=PaymentStatus.PAID,
        # payouts on or nearly (_release_check reads the exact setup): not those never set up
        booking__provider_id__in=ConnectedAccount.objects.filter(charges_enabled=True, payouts_enabled=True).values(
            "provider_id"
        ),
    )
    if provider_id is not None:
        waiting = waiting.filter(booking__provider_id=provider_id)
    return list(waiting.order_by("pk").values_list("booking_id", flat=True))


def reversals_waiting() -> list[int]:
    """The refunded bookings whose transfer is still to be reversed (a reversal that failed)."""
    waiting = Earning.objects.filter(state=PayoutState.REVERSED, reversal_id="").exclude(transfer_id="")
    return list(waiting.order_by("pk").values_list("booking_id", flat=True))


def earnings_release_waiting(*, provider_id: int | None = None) -> dict[str, int]:
    """Release every pending earning of a completed, paid visit (one provider's, or everyone's),
    now: `manage.py release_earnings`. Returns how many ended how."""
    waiting = Earning.objects.filter(
        state=PayoutState.PENDING,
        transfer_id="",
        booking__status=BookingStatus.COMPLETED,
        booking__payment_status=PaymentStatus.PAID,
    )
    if provider_id is not None:
        waiting = waiting.filter(booking__provider_id=provider_id)
    outcomes: dict[str, int] = {}
    for booking_id in waiting.order_by("pk").values_list("booking_id", flat=True):
        outcome = earning_release(booking_id=booking_id)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes


# ---------------------------------------------------------------- refunds and reversals


def earning_refunded(*, booking: Booking) -> str:
    """The client got the booking's payment back in full (the refund returns the gross, Kindly's
    fee included): the provider's share is reversed. A share already transferred is taken back
    from their account after the commit (Stripe takes it from their balance, or from their next
    payouts when it was paid out already). Caller holds the booking's row lock."""
    earning = Earning.objects.select_for_update().filter(booking=booking).first()
    if earning is None or earning.state == PayoutState.REVERSED:
        return "ignored"
    earning.reversed_after_payout = earning.state == PayoutState.PAID
    earning.state = PayoutState.REVERSED
    earning.reversed_at = timezone.now()
    earning.save(update_fields=["state", "reversed_after_payout", "reversed_at", "updated_at"])
    if earning.transfer_id and not earning.reversal_id:
        booking_id = booking.pk
        transaction.on_commit(lambda: _tasks().reverse_earning.delay(booking_id), robust=True)
    return "reversed"


def earning_reverse_send(*, booking_id: int, last_try: bool = True) -> str:
    """Reverse the transfer of a refunded booking's share. Outside any transaction; safe to repeat
    (one idempotency key per booking). Returns "reversed", "failed", "retry" (failed, not the last
    try: the task tries again) or "ignored"."""
    earning = Earning.objects.filter(booking_id=booking_id, state=PayoutState.REVERSED, reversal_id="").first()
    if earning is None or not earning.transfer_id:
        return "ignored"
    try:
        reversal_id = gateway_named(earning.gateway).transfer_reverse(
            transfer_id=earning.transfer_id,
            idempotency_key=f"kindly-booking-{booking_id}-transfer-reversal",
            metadata={"booking_id": str(booking_id)},
        )
    except GatewayError as exc:
        Earning.objects.filter(pk=earning.pk).update(last_error=exc.message[:2000], updated_at=timezone.now())
        if not last_try:
            logger.warning("Reversing the transfer of booking %s failed (%s); trying again", booking_id, exc.message)
            return "retry"
        logger.error(
            "Reversing the transfer of booking %s failed: %s. Retry with: manage.py release_earnings",
            booking_id,
            exc.message,
        )
        return "failed"
    Earning.objects.filter(pk=earning.pk, reversal_id="").update(
        reversal_id=reversal_id or "already reversed", last_error="", updated_at=timezone.now()
    )
    return "reversed"


def transfer_reversed(*, transfer_id: str, fully: bool, reversal_id: str = "") -> str:
    """Stripe's transfer.reversed: a transfer was taken back in full (by Kindly's reversal above,
    or by staff in Stripe's dashboard). Inside the webhook's transaction."""
    earning = Earning.objects.select_for_update().filter(transfer_id=transfer_id).first() if transfer_id else None
    if earning is None:
        return "unknown"
    if not fully:
        return "partial"
    fields = ["updated_at"]
    if earning.state != PayoutState.REVERSED:
        earning.reversed_after_payout = earning.state == PayoutState.PAID
        earning.state = PayoutState.REVERSED
        earning.reversed_at = timezone.now()
        fields += ["state", "reversed_after_payout", "reversed_at"]
    elif earning.reversal_id:
        return "ignored"
    earning.reversal_id = reversal_id or "reversed in Stripe"
    earning.save(update_fields=[*fields, "reversal_id"])
    return "reversed"


# ---------------------------------------------------------------- payouts


def payout_settled(*, payout_id: str, payments: list[str], paid: bool) -> str:
    """Stripe's payout.paid / payout.failed on a connected account: the transfers it carried
    (their payments on the account, listed by the gateway before this transaction) are paid, or
    back to on its way (the money is back in the provider's Stripe balance; Stripe asks them for
    new bank details, which account.updated shows). Inside the webhook's transaction."""
    if not payments:
        return "ignored"
    earnings = Earning.objects.select_for_update().filter(destination_payment_id__in=payments)
    if paid:
        changed = earnings.filter(state=PayoutState.ON_ITS_WAY).update(
            state=PayoutState.PAID, payout_id=payout_id, paid_at=timezone.now(), updated_at=timezone.now()
        )
    else:  # a payout the bank sent back (Stripe may say so after payout.paid)
        changed = earnings.filter(state=PayoutState.PAID, payout_id=payout_id).update(
            state=PayoutState.ON_ITS_WAY, payout_id="", paid_at=None, updated_at=timezone.now()
        )
    return ("paid" if paid else "payout failed") if changed else "ignored"


def earnings_reverse_waiting() -> dict[str, int]:
    """Reverse again the transfers of refunded bookings whose reversal failed (`manage.py release_earnings`)."""
    waiting = Earning.objects.filter(state=PayoutState.REVERSED, reversal_id="").exclude(transfer_id="")
    outcomes: dict[str, int] = {}
    for booking_id in waiting.order_by("pk").values_list("booking_id", flat=True):
        outcome = earning_reverse_send(booking_id=booking_id)
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
    return outcomes
