"""Saved cards at the gateway (docs/payments.md "A saved card"): a Stripe customer, a SetupIntent to
save a card for later, an off-session PaymentIntent per visit, detaching a card. The offline test
gateway simulates the same for `make run`.

Kept beside payments.gateways (same `settings.PAYMENTS_BACKEND`, same client) so that the payment
gateway's interface stays as it was. Every call is made outside any database transaction and raises
GatewayError when the gateway refuses or cannot be reached; a declined card is an answer, not an error.
"""

from __future__ import annotations

import logging
from abc import ABC, abstractmethod
from dataclasses import dataclass

import stripe
from django.conf import settings

from core.errors import GatewayError
from payments.gateways import (
    TEST_CARD_DECLINED,
    TEST_CARD_SUCCEEDS,
    StripeGateway,
    _digest,
    normalize_card_number,
)
from payments.models import Gateway

logger = logging.getLogger(__name__)

# Test cards (Stripe's test-mode numbers): saved fine, declined or asking for authentication later.
TEST_CARD_DECLINES_LATER = "4000000000009995"  # insufficient funds, on every charge
TEST_CARD_NEEDS_AUTHENTICATION = "4000002760003184"  # the bank asks the card holder, on every charge
DECLINED = "card_declined"
AUTHENTICATION_REQUIRED = "authentication_required"

# What an off-session charge answered.
CHARGE_SUCCEEDED = "succeeded"
CHARGE_PROCESSING = "processing"  # Stripe: accepted; the webhook says how it ended
CHARGE_DECLINED = "declined"  # card_declined, authentication_required...: the organizer fixes it


@dataclass(frozen=True)
class SetupStarted:
    setup_intent_id: str
    client_secret: str


@dataclass(frozen=True)
class CardDetails:
    payment_method_id: str
    brand: str
    last4: str
    exp_month: int | None
    exp_year: int | None


@dataclass(frozen=True)
class OffSessionCharge:
    outcome: str  # CHARGE_SUCCEEDED, CHARGE_PROCESSING or CHARGE_DECLINED
    intent_id: str
    client_secret: str
    code: str = ""  # Stripe's error code (card_declined, authentication_required)
    message: str = ""  # the bank's words, for the organizer


class CardGateway(ABC):
    name: str

    @abstractmethod
    def customer_create(self, *, email: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        """The organizer's customer at the gateway (cards are saved on it); returns its id."""

    @abstractmethod
    def setup_start(self, *, customer_id: str, idempotency_key: str) -> SetupStarted:
        """A SetupIntent to save a card for off-session charges; the browser confirms it."""

    @abstractmethod
    def setup_card(self, setup_intent_id: str) -> CardDetails | None:
        """The card a SetupIntent saved, None while it has not succeeded."""

    @abstractmethod
    def detach(self, payment_method_id: str) -> None:
        """Take the card off the customer: it can never be charged again."""

    @abstractmethod
    def charge_off_session(
        self,
        *,
        amount_cents: int,
        currency: str,
        customer_id: str,
        payment_method_id: str,
        idempotency_key: str,
        metadata: dict[str, str],
    ) -> OffSessionCharge:
        """Charge the saved card with nobody present (confirm=true, off_session=true)."""


class StripeCardGateway(CardGateway):
    name = Gateway.STRIPE

    def _client(self) -> stripe.StripeClient:
        return StripeGateway()._client()

    def customer_create(self, *, email: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        try:
            customer = self._client().v1.customers.create(
                {"email": email, "metadata": metadata}, {"idempotency_key": idempotency_key}
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused to create a customer (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        return str(customer.id)

    def setup_start(self, *, customer_id: str, idempotency_key: str) -> SetupStarted:
        try:
            intent = self._client().v1.setup_intents.create(
                {"customer": customer_id, "usage": "off_session", "payment_method_types": ["card"]},
                {"idempotency_key": idempotency_key},
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused a setup intent (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        if not intent.id or not intent.client_secret:
            raise GatewayError("Stripe answered a setup intent without an id or client secret.")
        return SetupStarted(setup_intent_id=str(intent.id), client_secret=str(intent.client_secret))

    def setup_card(self, setup_intent_id: str) -> CardDetails | None:
        try:
            intent = self._client().v1.setup_intents.retrieve(setup_intent_id, params={"expand": ["payment_method"]})
        except stripe.StripeError as exc:
            logger.warning("Stripe could not say the status of %s: %s", setup_intent_id, exc)
            raise GatewayError(str(exc)) from exc
        data = intent.to_dict()
        method = data.get("payment_method")
        if data.get("status") != "succeeded" or not isinstance(method, dict):
            return None
        card = method.get("card") or {}
        return CardDetails(
            payment_method_id=str(method.get("id") or ""),
            brand=str(card.get("brand") or ""),
            last4=str(card.get("last4") or ""),
            exp_month=card.get("exp_month"),
            exp_year=card.get("exp_year"),
        )

    def detach(self, payment_method_id: str) -> None:
        try:
            self._client().v1.payment_methods.detach(payment_method_id)
        except stripe.InvalidRequestError as exc:
            if "not attached" in str(exc):  # detached already (an earlier try whose answer was lost)
                return
            logger.warning("Stripe refused to detach %s: %s", payment_method_id, exc)
            raise GatewayError(str(exc)) from exc
        except stripe.StripeError as exc:
            logger.warning("Stripe refused to detach %s: %s", payment_method_id, exc)
            raise GatewayError(str(exc)) from exc

    def charge_off_session(
        self,
        *,
        amount_cents: int,
        currency: str,
        customer_id: str,
        payment_method_id: str,
        idempotency_key: str,
        metadata: dict[str, str],
    ) -> OffSessionCharge:
        try:
            intent = self._client().v1.payment_intents.create(
                {
                    "amount": amount_cents,
                    "currency": currency,
                    "customer": customer_id,
                    "payment_method": payment_method_id,
                    "off_session": True,
                    "confirm": True,
                    "metadata": metadata,
                },
                {"idempotency_key": idempotency_key},
            )
        except stripe.CardError as exc:
            # Declined, or the bank wants the card holder (authentication_required): Stripe keeps the
            # intent (requires_payment_method); the organizer confirms it on the checkout page.
            error = exc.error
            intent = getattr(error, "payment_intent", None) if error is not None else None
            intent = intent.to_dict() if hasattr(intent, "to_dict") else (intent or {})
            if not intent.get("id"):
                raise GatewayError(f"Stripe declined without a payment intent: {exc}") from exc
            return OffSessionCharge(
                outcome=CHARGE_DECLINED,
                intent_id=str(intent["id"]),
                client_secret=str(intent.get("client_secret") or ""),
                code=str(exc.code or DECLINED),
                message=str(getattr(error, "message", "") or exc.user_message or ""),
            )
        except stripe.StripeError as exc:
            logger.warning("Stripe refused an off-session charge (%s): %s", idempotency_key, exc)
            raise GatewayError(str(exc)) from exc
        outcome = CHARGE_SUCCEEDED if intent.status == "succeeded" else CHARGE_PROCESSING
        return OffSessionCharge(
            outcome=outcome, intent_id=str(intent.id), client_secret=str(intent.client_secret or "")
        )


class TestCardGateway(CardGateway):
    """No network: the card typed on the local form is "saved" as pm_test_<its number's digest> with
    its last 4 digits; a charge follows Stripe's test cards (4242 pays; 9995 is declined and 3184 asks
    for authentication at every charge; 0002 cannot be saved)."""

    __test__ = False
    name = Gateway.TEST

    def customer_create(self, *, email: str, idempotency_key: str, metadata: dict[str, str]) -> str:
        return f"cus_test_{_digest(idempotency_key)[:16]}"

    def setup_start(self, *, customer_id: str, idempotency_key: str) -> SetupStarted:
        intent_id = f"seti_test_{_digest(idempotency_key)[:16]}"
        return SetupStarted(setup_intent_id=intent_id, client_secret=f"{intent_id}_secret_test")

    def setup_card(self, setup_intent_id: str) -> CardDetails | None:
        return None  # the local form says the card (test_card_details)

    @staticmethod
    def test_card_details(card_number: str, *, exp_month: int, exp_year: int) -> CardDetails | None:
        """The card the local form saves; None when the bank refuses to save it (0002)."""
        number = normalize_card_number(card_number)
        if number == TEST_CARD_DECLINED:
            return None
        return CardDetails(
            payment_method_id=f"pm_test_{number[-4:]}_{_digest(number)[:8]}",
            brand="visa" if number.startswith("4") else "mastercard" if number.startswith("5") else "card",
            last4=number[-4:],
            exp_month=exp_month,
            exp_year=exp_year,
        )

    def detach(self, payment_method_id: str) -> None:
        return None

    def charge_off_session(
        self,
        *,
        amount_cents: int,
        currency: str,
        customer_id: str,
        payment_method_id: str,
        idempotency_key: str,
        metadata: dict[str, str],
    ) -> OffSessionCharge:
        intent_id = f"pi_test_{_digest(idempotency_key)}"
        secret = f"{intent_id}_secret_test"
        last4 = payment_method_id.removeprefix("pm_test_")[:4]
        if last4 == TEST_CARD_DECLINES_LATER[-4:]:
            return OffSessionCharge(CHARGE_DECLINED, intent_id, secret, DECLINED, "Your card has insufficient funds.")
        if last4 == TEST_CARD_NEEDS_AUTHENTICATION[-4:]:
            return OffSessionCharge(
                CHARGE_DECLINED,
                intent_id,
                secret,
                AUTHENTICATION_REQUIRED,
                "Your bank asks you to confirm this payment.",
            )
        return OffSessionCharge(CHARGE_SUCCEEDED, intent_id, secret)


TEST_CARD_SAVES = TEST_CARD_SUCCEEDS


def get_card_gateway() -> CardGateway:
    if settings.PAYMENTS_BACKEND == Gateway.STRIPE:
        return StripeCardGateway()
    return TestCardGateway()
