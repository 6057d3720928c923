"""Payment gateways (ARCHITECTURE.md "Payments"): Stripe, and an offline test gateway.

`get_gateway()` picks one from `settings.PAYMENTS_BACKEND` at call time. Services talk only to
the `PaymentGateway` interface; the amount always comes from the booking, never the browser.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import re
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

import stripe
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.urls import reverse
from django.utils.translation import gettext_lazy

from core.errors import GatewayError
from payments.models import Gateway

if TYPE_CHECKING:
    from bookings.models import Booking

logger = logging.getLogger(__name__)

# Cards the offline test gateway knows (the same numbers Stripe's test mode uses).
TEST_CARD_SUCCEEDS = "4242424242424242"
TEST_CARD_DECLINED = "4000000000000002"
DECLINED_MESSAGE = gettext_lazy("Your card was declined.")
INVALID_NUMBER_MESSAGE = gettext_lazy("Your card number is invalid.")
# A card number's length in digits (ISO/IEC 7812).
CARD_MIN_DIGITS = 13
CARD_MAX_DIGITS = 19

STRIPE_TIMEOUT_SECONDS = 20
# Safe to retry: every call carries an idempotency key.
STRIPE_MAX_NETWORK_RETRIES = 2


@dataclass(frozen=True)
class CreatedIntent:
    intent_id: str
    client_secret: str


@dataclass(frozen=True)
class IntentState:
    """Stripe's word on a payment intent: its status, and the card its latest charge used."""

    status: str
    card_last4: str = ""


# What a gateway answers to a refund.
REFUND_SUCCEEDED = "succeeded"  # the money is on its way back
REFUND_PENDING = "pending"  # accepted; the gateway says later (Stripe: the charge.refunded webhook)
REFUND_FAILED = "failed"


@dataclass(frozen=True)
class RefundResult:
    refund_id: str
    status: str  # REFUND_SUCCEEDED, REFUND_PENDING or REFUND_FAILED


@dataclass(frozen=True)
class AccountState:
    """What a gateway says about a connected account (the fields of Stripe's account object Kindly reads)."""

    account_id: str
    charges_enabled: bool
    payouts_enabled: bool
    details_submitted: bool
    requirements_due: list[str]
    disabled_reason: str = ""
    as_of: dt.datetime | None = None  # when the gateway said it (an event's `created`); None: now

    @classmethod
    def from_stripe(cls, account: dict, *, as_of: dt.datetime | None = None) -> AccountState:
        """From a Stripe account object (as the API or an account.updated event sends it)."""
        requirements = account.get("requirements") or {}
        due = [*(requirements.get("past_due") or []), *(requirements.get("currently_due") or [])]
        return cls(
            account_id=str(account.get("id") or ""),
            charges_enabled=account.get("charges_enabled") is True,
            payouts_enabled=account.get("payouts_enabled") is True,
            details_submitted=account.get("details_submitted") is True,
            requirements_due=sorted(set(map(str, due))),
            disabled_reason=str(requirements.get("disabled_reason") or ""),
            as_of=as_of,
        )


@dataclass(frozen=True)
class TransferResult:
    transfer_id: str
    destination_payment_id: str  # the transfer's payment on the connected account (py_...)


@dataclass(frozen=True)
class CardResult:
    succeeded: bool
    message: str = ""


@dataclass(frozen=True)
class InstantQuote:
    """Can the connected account be paid out instantly, and how much (payments.instant)?

    eligible: her external account (a debit card) lists "instant" in available_payout_methods.
    available_cents: the balance Stripe can pay out instantly; None when the gateway keeps no
    balance of its own (the offline test gateway: Kindly's records say it).
    """

    eligible: bool
    available_cents: int | None


class PaymentGateway(ABC):
    name: str

    @abstractmethod
    def create_intent(
        self, *, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> CreatedIntent:
        """Create a payment intent for this amount. The same idempotency key never makes a second one."""

    @abstractmethod
    def refund(
        self,
        booking: Booking,
        *,
        idempotency_key: str,
        amount_cents: int | None = None,
        payment_intent_id: str | None = None,
    ) -> RefundResult:
        """Refund the booking's payment in full, or `amount_cents` of it (the total less a late
        fee, or a waived fee); with `payment_intent_id`, that payment of the booking instead (its
        tip's own). The same idempotency key never refunds twice.

        Raises GatewayError when the gateway refuses or cannot be reached. Called outside any
        database transaction (payments.refunds.booking_refund_send).
        """

    # Stripe Connect (docs/payments.md). Each raises GatewayError when the gateway refuses or
    # cannot be reached, and is called outside any database transaction.

    @abstractmethod
    def account_create(self, *, email: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        """Create an Express connected account for a provider; returns its id."""

    @abstractmethod
    def account_link(self, *, account_id: str, refresh_url: str, return_url: str) -> str:
        """A one-time onboarding link for the account (the provider comes back to return_url)."""

    @abstractmethod
    def account_state(self, account_id: str) -> AccountState | None:
        """The account's current state, or None when the gateway keeps no state of its own."""

    @abstractmethod
    def transfer(
        self,
        *,
        amount_cents: int,
        currency: str,
        destination: str,
        payment_intent_id: str,
        idempotency_key: str,
        metadata: dict[str, str],
    ) -> TransferResult:
        """Move the provider's share of a payment to their connected account. `metadata` names the
        booking_id (the transfer group)."""

    @abstractmethod
    def transfer_reverse(self, *, transfer_id: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        """Take a whole transfer back from the connected account; returns the reversal's id."""

    @abstractmethod
    def payout_payments(self, *, account_id: str, payout_id: str) -> list[str]:
        """The transfers' payments (py_...) a payout of the connected account carried to the bank."""

    # Faster pay (payments.instant): Stripe Instant Payouts on the connected account.

    @abstractmethod
    def instant_quote(self, *, account_id: str, currency: str) -> InstantQuote:
        """Whether the account's debit card takes instant payouts, and the instantly available balance."""

    @abstractmethod
    def instant_payout(
        self, *, account_id: str, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> str:
        """Pay `amount_cents` of the account's balance out to its debit card now (method=instant);
        returns the payout's id. Stripe takes its instant fee from the account's balance."""


class StripeGateway(PaymentGateway):
    name = Gateway.STRIPE

    def _client(self) -> stripe.StripeClient:
        base_addresses: dict = {}
        if settings.STRIPE_API_BASE:
            base_addresses["api"] = settings.STRIPE_API_BASE
        return stripe.StripeClient(
            settings.STRIPE_SECRET_KEY,
            base_addresses=base_addresses,
            max_network_retries=STRIPE_MAX_NETWORK_RETRIES,
            http_client=stripe.RequestsClient(timeout=STRIPE_TIMEOUT_SECONDS),
        )

    def create_intent(
        self, *, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> CreatedIntent:
        try:
            intent = self._client().v1.payment_intents.create(
                {
                    "amount": amount_cents,
                    "currency": currency,
                    "metadata": metadata,
                    "automatic_payment_methods": {"enabled": True},
                },
                {"idempotency_key": idempotency_key},
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused to create a payment intent (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        if not intent.id or not intent.client_secret:
            raise GatewayError("Stripe answered a payment intent without an id or client secret.")
        return CreatedIntent(intent_id=intent.id, client_secret=intent.client_secret)

    def intent_state(self, intent_id: str) -> IntentState:
        """Stripe's current status of a payment intent (e.g. "succeeded", "requires_payment_method"),
        with the last 4 digits of the card its latest charge used (for the receipt)."""
        try:
            intent = self._client().v1.payment_intents.retrieve(intent_id, params={"expand": ["latest_charge"]})
        except stripe.StripeError as exc:
            logger.warning("Stripe could not say the status of %s: %s", intent_id, exc)
            raise GatewayError(str(exc)) from exc
        charge = intent.to_dict().get("latest_charge")
        card = (charge.get("payment_method_details") or {}).get("card") or {} if isinstance(charge, dict) else {}
        return IntentState(status=str(intent.status or ""), card_last4=str(card.get("last4") or ""))

    def refund(
        self,
        booking: Booking,
        *,
        idempotency_key: str,
        amount_cents: int | None = None,
        payment_intent_id: str | None = None,
    ) -> RefundResult:
        params: dict[str, Any] = {
            "payment_intent": payment_intent_id or booking.payment_intent_id,
            "metadata": {"booking_id": str(booking.pk)},
        }
        if amount_cents is not None:
            params["amount"] = amount_cents
        try:
            refund = self._client().v1.refunds.create(params, {"idempotency_key": idempotency_key})
        except stripe.InvalidRequestError as exc:
            if exc.code == "charge_already_refunded":
                # An earlier attempt went through although its answer never arrived: the money is back.
                logger.info("Stripe says booking %s was already refunded (%s)", booking.pk, idempotency_key)
                return RefundResult(refund_id="", status=REFUND_SUCCEEDED)
            logger.warning("Stripe refused to refund booking %s: %s", booking.pk, exc)
            raise GatewayError(str(exc)) from exc
        except stripe.StripeError as exc:
            logger.warning("Stripe refused to refund booking %s: %s", booking.pk, exc)
            raise GatewayError(str(exc)) from exc
        # Stripe's refund statuses: succeeded, pending, requires_action, failed, canceled.
        if refund.status == "succeeded":
            status = REFUND_SUCCEEDED
        elif refund.status in ("failed", "canceled"):
            status = REFUND_FAILED
        else:
            status = REFUND_PENDING
        return RefundResult(refund_id=str(refund.id), status=status)

    # ---------------------------------------------------------------- Connect

    def account_create(self, *, email: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        try:
            account = self._client().v1.accounts.create(
                {
                    "type": "express",
                    "country": settings.STRIPE_CONNECT_COUNTRY,
                    "email": email,
                    "capabilities": {"card_payments": {"requested": True}, "transfers": {"requested": True}},
                    "metadata": metadata,
                },
                {"idempotency_key": idempotency_key},
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused to create a connected account (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        return str(account.id)

    def account_link(self, *, account_id: str, refresh_url: str, return_url: str) -> str:
        try:
            link = self._client().v1.account_links.create(
                {
                    "account": account_id,
                    "refresh_url": refresh_url,
                    "return_url": return_url,
                    "type": "account_onboarding",
                }
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused an onboarding link for %s: %s", account_id, exc)
            raise GatewayError(str(exc)) from exc
        return str(link.url)

    def account_state(self, account_id: str) -> AccountState | None:
        try:
            account = self._client().v1.accounts.retrieve(account_id)
        except stripe.StripeError as exc:
            logger.warning("Stripe could not say the state of %s: %s", account_id, exc)
            raise GatewayError(str(exc)) from exc
        return AccountState.from_stripe(account.to_dict())

    def transfer(
        self,
        *,
        amount_cents: int,
        currency: str,
        destination: str,
        payment_intent_id: str,
        idempotency_key: str,
        metadata: dict[str, str],
    ) -> TransferResult:
        client = self._client()
        try:
            # source_transaction ties the transfer to the client's charge: it goes out when that
            # charge's funds are available, whatever Kindly's own balance is.
            charge = client.v1.payment_intents.retrieve(payment_intent_id).latest_charge
            if not charge:
                raise GatewayError(f"Payment intent {payment_intent_id} has no charge to transfer from.")
            transfer = client.v1.transfers.create(
                {
                    "amount": amount_cents,
                    "currency": currency,
                    "destination": destination,
                    "source_transaction": charge if isinstance(charge, str) else str(charge.id),
                    "transfer_group": f"booking-{metadata['booking_id']}",
                    "metadata": metadata,
                },
                {"idempotency_key": idempotency_key},
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused a transfer (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        payment = transfer.destination_payment
        return TransferResult(
            transfer_id=str(transfer.id),
            destination_payment_id=str(payment if isinstance(payment, str) else getattr(payment, "id", "") or ""),
        )

    def transfer_reverse(self, *, transfer_id: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        try:
            reversal = self._client().v1.transfers.reversals.create(
                transfer_id, {"metadata": metadata}, {"idempotency_key": idempotency_key}
            )
        except stripe.InvalidRequestError as exc:
            if exc.code == "transfer_already_reversed":
                logger.info("Stripe says transfer %s was already reversed", transfer_id)
                return ""
            logger.warning("Stripe refused to reverse transfer %s: %s", transfer_id, exc)
            raise GatewayError(str(exc)) from exc
        except stripe.StripeError as exc:
            logger.warning("Stripe refused to reverse transfer %s: %s", transfer_id, exc)
            raise GatewayError(str(exc)) from exc
        return str(reversal.id)

    def payout_payments(self, *, account_id: str, payout_id: str) -> list[str]:
        try:
            page = self._client().v1.balance_transactions.list(
                {"payout": payout_id, "limit": 100}, {"stripe_account": account_id}
            )
            return [str(txn.source) for txn in page.auto_paging_iter() if txn.source]
        except stripe.StripeError as exc:
            logger.warning("Stripe could not list payout %s of %s: %s", payout_id, account_id, exc)
            raise GatewayError(str(exc)) from exc

    def instant_quote(self, *, account_id: str, currency: str) -> InstantQuote:
        client = self._client()
        options: Any = {"stripe_account": account_id}
        try:
            cards = client.v1.accounts.external_accounts.list(account_id, {"object": "card", "limit": 10})
            eligible = any(
                "instant" in (card.to_dict().get("available_payout_methods") or [])
                and str(card.to_dict().get("currency") or currency) == currency
                for card in cards.data
            )
            if not eligible:
                return InstantQuote(eligible=False, available_cents=0)
            balance = client.v1.balance.retrieve(None, options).to_dict()
        except stripe.StripeError as exc:
            logger.warning("Stripe could not say the instant balance of %s: %s", account_id, exc)
            raise GatewayError(str(exc)) from exc
        available = sum(
            int(entry.get("amount") or 0)
            for entry in balance.get("instant_available") or []
            if entry.get("currency") == currency
        )
        return InstantQuote(eligible=True, available_cents=max(available, 0))

    def instant_payout(
        self, *, account_id: str, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> str:
        try:
            payout = self._client().v1.payouts.create(
                {"amount": amount_cents, "currency": currency, "method": "instant", "metadata": metadata},
                {"idempotency_key": idempotency_key, "stripe_account": account_id},
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused an instant payout (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        return str(payout.id)


class TestGateway(PaymentGateway):
    """Offline gateway for development and tests: no network, no money.

    Card 4242 4242 4242 4242 succeeds; 4000 0000 0000 0002 (and any other valid number) is declined.
    """

    __test__ = False  # not a pytest test class
    name = Gateway.TEST

    def create_intent(
        self, *, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> CreatedIntent:
        intent_id = f"pi_test_{secrets.token_hex(12)}"
        return CreatedIntent(intent_id=intent_id, client_secret=f"{intent_id}_secret_{secrets.token_hex(12)}")

    def refund(
        self,
        booking: Booking,
        *,
        idempotency_key: str,
        amount_cents: int | None = None,
        payment_intent_id: str | None = None,
    ) -> RefundResult:
        # The same key gives the same refund, as with Stripe.
        return RefundResult(refund_id=f"re_test_{_digest(idempotency_key)}", status=REFUND_SUCCEEDED)

    # Connect: a simulated Express account. Its onboarding link is a local page
    # (payments.views.test_onboarding) that says how the form went, as account.updated would.

    def account_create(self, *, email: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        return f"acct_test_{_digest(idempotency_key)[:16]}"

    def account_link(self, *, account_id: str, refresh_url: str, return_url: str) -> str:
        return reverse("payouts-test-onboarding") + "?" + urlencode({"account": account_id})

    def account_state(self, account_id: str) -> AccountState | None:
        return None  # the simulated account's state is the one Kindly stored

    def transfer(
        self,
        *,
        amount_cents: int,
        currency: str,
        destination: str,
        payment_intent_id: str,
        idempotency_key: str,
        metadata: dict[str, str],
    ) -> TransferResult:
        digest = _digest(idempotency_key)
        return TransferResult(transfer_id=f"tr_test_{digest}", destination_payment_id=f"py_test_{digest}")

    def transfer_reverse(self, *, transfer_id: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        return f"trr_test_{_digest(idempotency_key)}"

    def payout_payments(self, *, account_id: str, payout_id: str) -> list[str]:
        return []

    def instant_quote(self, *, account_id: str, currency: str) -> InstantQuote:
        # The simulated account has a debit card that takes instant payouts; its balance is what
        # Kindly's records say was sent to it (payments.instant.instant_available).
        return InstantQuote(eligible=True, available_cents=None)

    def instant_payout(
        self, *, account_id: str, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> str:
        return f"po_test_{_digest(idempotency_key)}"

    @staticmethod
    def charge_card(card_number: str) -> CardResult:
        """What the card network would answer for this (already validated) number."""
        if normalize_card_number(card_number) == TEST_CARD_SUCCEEDS:
            return CardResult(succeeded=True)
        return CardResult(succeeded=False, message=DECLINED_MESSAGE)


def _digest(key: str) -> str:
    """The test gateway's ids: the same idempotency key gives the same id, as with Stripe."""
    return hashlib.sha256(key.encode()).hexdigest()[:24]


def normalize_card_number(value: str) -> str:
    return re.sub(r"[\s-]", "", value)


def card_number_is_valid(value: str) -> bool:
    """13-19 digits passing the Luhn check."""
    digits = normalize_card_number(value)
    if not digits.isdigit() or not CARD_MIN_DIGITS <= len(digits) <= CARD_MAX_DIGITS:
        return False
    total = 0
    for index, char in enumerate(reversed(digits)):
        digit = int(char)
        if index % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def gateway_named(name: str) -> PaymentGateway:
    if name == Gateway.STRIPE:
        return StripeGateway()
    if name == Gateway.TEST:
        return TestGateway()
    raise ImproperlyConfigured(f"PAYMENTS_BACKEND must be 'stripe' or 'test', not {name!r}.")


def get_gateway() -> PaymentGateway:
    """The gateway new payments go through (settings.PAYMENTS_BACKEND)."""
    return gateway_named(settings.PAYMENTS_BACKEND)


def is_test_gateway_active() -> bool:
    return settings.PAYMENTS_BACKEND == Gateway.TEST
