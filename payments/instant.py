"""Faster pay: "Get paid now" with Stripe Instant Payouts (docs/payments.md "Faster pay").

    the helper opens "Get paid now"  -> the quote: what is available now, Stripe's fee, what she gets
    she confirms the amount shown   -> InstantPayout requested (committed), then the payout at the
        gateway outside any transaction (method=instant on her connected account, key
        kindly-provider-<id>-instant-<n>): in transit (the test gateway: paid at once)
    payout.paid / payout.failed     -> paid / failed (the money stays in her balance)

Only where her external account is a debit card that takes instant payouts (Stripe lists
"instant" in its available_payout_methods). Standard payouts stay free, on Stripe's schedule.
The fee is one rule, instant_fee: INSTANT_PAYOUT_FEE_PERCENT of the payout, rounded down to the
cent (the one rounding money has), never less than INSTANT_PAYOUT_FEE_MIN.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from decimal import ROUND_DOWN, Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import transaction
from django.db.models import Sum
from django.utils.translation import gettext_lazy

from core.errors import Conflict
from payments.errors import PaymentGatewayUnavailable
from payments.gateways import GatewayError, gateway_named
from payments.models import (
    ConnectedAccount,
    Earning,
    Gateway,
    InstantPayout,
    InstantPayoutState,
    LateFee,
    LateFeeState,
    PayoutSetup,
    PayoutState,
    Tip,
    TipState,
)
from payments.payouts import CENT, cents
from payments.selectors import earnings_provider
from providers.models import Provider

if TYPE_CHECKING:
    from accounts.models import User

logger = logging.getLogger(__name__)

NOT_SET_UP = gettext_lazy("Set up payouts first. Then you can choose to be paid at once.")
NO_DEBIT_CARD = gettext_lazy(
    "Your payout account does not take instant payouts. To use them, add a debit card in Stripe. "
    "Your standard payouts stay free."
)
NOTHING_AVAILABLE = gettext_lazy(
    "Nothing is available to pay out now. Money sent to you shows here once Stripe has it."
)
TOO_LITTLE = gettext_lazy("Not enough is available yet: the instant fee would take all of it.")
AMOUNT_CHANGED = gettext_lazy("The amount available changed. Please look at the new amount before you confirm.")
ONE_AT_A_TIME = gettext_lazy("Your last instant payout is still being sent. Please wait a moment.")
GATEWAY_DOWN = gettext_lazy("We could not reach our payment partner just now. Please try again in a few minutes.")
PAYOUT_REFUSED = gettext_lazy(
    "Stripe could not send the payout now. Your money stays in your balance and goes out with your free "
    "standard payout."
)


def instant_fee(amount: Decimal) -> Decimal:
    """Stripe's instant payout fee for a payout of `amount`: INSTANT_PAYOUT_FEE_PERCENT of it,
    rounded down to the cent, at least INSTANT_PAYOUT_FEE_MIN. The one rule: the page, the API,
    the record and the reconciliation read it."""
    fee = (Decimal(amount) * settings.INSTANT_PAYOUT_FEE_PERCENT / 100).quantize(CENT, rounding=ROUND_DOWN)
    return max(fee, Decimal(settings.INSTANT_PAYOUT_FEE_MIN).quantize(CENT))


@dataclass
class Quote:
    """What "Get paid now" offers: `available` now, the `fee`, and what reaches the card (`receive`).
    `reason` says why not, when it cannot be used."""

    eligible: bool
    reason: str
    available: Decimal
    fee: Decimal
    receive: Decimal
    currency: str
    standard_days: int


def instant_available_recorded(*, provider: Provider) -> Decimal:
    """What Kindly's records say sits in the helper's Stripe balance: everything transferred (visit
    shares, tips, late fees on their way) less what instant payouts took (the offline gateway's
    simulated balance; with Stripe, Stripe's instant_available is read instead)."""
    zero = Decimal("0.00")
    shares = Earning.objects.filter(booking__provider=provider, state=PayoutState.ON_ITS_WAY).aggregate(s=Sum("net"))
    tips = Tip.objects.filter(booking__provider=provider, state=TipState.ON_ITS_WAY).aggregate(s=Sum("amount"))
    fees = LateFee.objects.filter(booking__provider=provider, state=LateFeeState.ON_ITS_WAY).aggregate(s=Sum("amount"))
    taken = (
        InstantPayout.objects.filter(provider=provider)
        .exclude(state=InstantPayoutState.FAILED)
        .aggregate(s=Sum("amount"))
    )
    total = (shares["s"] or zero) + (tips["s"] or zero) + (fees["s"] or zero) - (taken["s"] or zero)
    return max(total, zero)


def _quote_for(provider: Provider, account: ConnectedAccount | None) -> Quote:
    zero = Decimal("0.00")
    currency = settings.PAYMENTS_CURRENCY.lower()

    def no(reason: str, available: Decimal = zero) -> Quote:
        return Quote(False, reason, available, zero, zero, currency, settings.STANDARD_PAYOUT_DAYS)

    if account is None or account.setup != PayoutSetup.ON:
        return no(NOT_SET_UP)
    try:
        answer = gateway_named(account.gateway).instant_quote(account_id=account.account_id, currency=currency)
    except GatewayError:
        raise PaymentGatewayUnavailable(GATEWAY_DOWN) from None
    if not answer.eligible:
        return no(NO_DEBIT_CARD)
    if answer.available_cents is None:
        available = instant_available_recorded(provider=provider)
    else:
        available = (Decimal(answer.available_cents) / 100).quantize(CENT)
    if available <= 0:
        return no(NOTHING_AVAILABLE)
    fee = instant_fee(available)
    if fee >= available:
        return no(TOO_LITTLE, available)
    return Quote(True, "", available, fee, available - fee, currency, settings.STANDARD_PAYOUT_DAYS)


def instant_quote(*, user: User) -> Quote:
    """The quote for the signed-in helper (403 without a provider profile). Asks the gateway, so
    it is called outside any transaction."""
    provider = earnings_provider(user=user)
    return _quote_for(provider, ConnectedAccount.objects.filter(provider=provider).first())


def instant_payout_create(*, actor: User, amount: Decimal) -> InstantPayout:
    """Pay the available balance to the helper's debit card now. `amount` is the one she was shown
    and confirmed: a different amount available now is a 409 (she is never paid out an amount she
    was not told, nor charged a fee she did not see). 409 too when she cannot use it (the reason
    in words), or while her last one is being sent. The gateway is called after the record commits."""
    provider = earnings_provider(user=actor)
    account = ConnectedAccount.objects.filter(provider=provider).first()
    quote = _quote_for(provider, account)
    if not quote.eligible:
        raise Conflict(quote.reason)
    if Decimal(amount).quantize(CENT) != quote.available:
        raise Conflict(AMOUNT_CHANGED)
    assert account is not None
    with transaction.atomic():
        Provider.objects.select_for_update().filter(pk=provider.pk).first()  # one at a time per helper
        if InstantPayout.objects.filter(provider=provider, state=InstantPayoutState.REQUESTED).exists():
            raise Conflict(ONE_AT_A_TIME)
        payout = InstantPayout.objects.create(
            provider=provider,
            account_id=account.account_id,
            gateway=account.gateway,
            amount=quote.available,
            fee=quote.fee,
            currency=quote.currency,
            idempotency_key="-",
        )
        payout.idempotency_key = f"kindly-provider-{provider.pk}-instant-{payout.pk}"
        payout.save(update_fields=["idempotency_key"])
    try:
        payout_id = gateway_named(payout.gateway).instant_payout(
            account_id=payout.account_id,
            amount_cents=cents(payout.amount),
            currency=payout.currency,
            idempotency_key=payout.idempotency_key,
            metadata={"provider_id": str(provider.pk), "kind": "instant_payout"},
        )
    except GatewayError as exc:
        InstantPayout.objects.filter(pk=payout.pk).update(
            state=InstantPayoutState.FAILED, last_error=exc.message[:2000]
        )
        raise PaymentGatewayUnavailable(PAYOUT_REFUSED) from None
    # The simulated account pays at once; Stripe says payout.paid later.
    state = InstantPayoutState.PAID if payout.gateway == Gateway.TEST else InstantPayoutState.IN_TRANSIT
    InstantPayout.objects.filter(pk=payout.pk).update(payout_id=payout_id, state=state)
    payout.refresh_from_db()
    logger.info("Provider %s: instant payout %s of %s", provider.pk, payout_id, payout.amount)
    return payout


def instant_payout_settled(*, payout_id: str, paid: bool) -> str:
    """payout.paid / payout.failed of an instant payout: paid, or failed (the money went back to
    her balance). Not an instant payout: "" (a standard one). A repeat changes nothing."""
    with transaction.atomic():
        payout = InstantPayout.objects.select_for_update().filter(payout_id=payout_id).first() if payout_id else None
        if payout is None:
            return ""
        state = InstantPayoutState.PAID if paid else InstantPayoutState.FAILED
        if payout.state == state:
            return "duplicate"
        payout.state = state
        payout.save(update_fields=["state", "updated_at"])
    return f"instant_{state}"


def instant_payouts_of(*, provider: Provider, limit: int = 10) -> list[InstantPayout]:
    return list(InstantPayout.objects.filter(provider=provider).order_by("-created_at")[:limit])
