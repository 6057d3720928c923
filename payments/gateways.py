"""Payment gateways (ARCHITECTURE.md "Payments"): Stripe, and an offline test gateway.

`get_gateway()` picks one from `settings.PAYMENTS_BACKEND` at call time. Services talk only to
the `PaymentGateway` interface; the amount always comes from the booking, never the browser.
"""

from __future__ import annotations

import hashlib
import logging
import re
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING

import stripe
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from payments.models import Gateway

if TYPE_CHECKING:
    from bookings.models import Booking

logger = logging.getLogger(__name__)

# Cards the offline test gateway knows (the same numbers Stripe's test mode uses).
TEST_CARD_SUCCEEDS = "4242424242424242"
TEST_CARD_DECLINED = "4000000000000002"
DECLINED_MESSAGE = "Your card was declined."
INVALID_NUMBER_MESSAGE = "Your card number is invalid."

STRIPE_TIMEOUT_SECONDS = 20
# Safe to retry: every call carries an idempotency key.
STRIPE_MAX_NETWORK_RETRIES = 2


class GatewayError(Exception):
    """The gateway refused the call or could not be reached. `message` is for logs, not users."""

    def __init__(self, message: str):
        self.message = message
        super().__init__(message)


@dataclass(frozen=True)
class CreatedIntent:
    intent_id: str
    client_secret: str


# What a gateway answers to a refund.
REFUND_SUCCEEDED = "succeeded"  # the money is on its way back
REFUND_PENDING = "pending"  # accepted; the gateway says later (Stripe: the charge.refunded webhook)
REFUND_FAILED = "failed"


@dataclass(frozen=True)
class RefundResult:
    refund_id: str
    status: str  # REFUND_SUCCEEDED, REFUND_PENDING or REFUND_FAILED


@dataclass(frozen=True)
class CardResult:
    succeeded: bool
    message: str = ""


class PaymentGateway(ABC):
    name: str

    @abstractmethod
    def create_intent(
        self, *, amount_cents: int, currency: str, idempotency_key: str, metadata: dict[str, str]
    ) -> CreatedIntent:
        """Create a payment intent for this amount. The same idempotency key never makes a second one."""

    @abstractmethod
    def refund(self, booking: Booking, *, idempotency_key: str) -> RefundResult:
        """Refund the booking's payment in full. The same idempotency key never refunds twice.

        Raises GatewayError when the gateway refuses or cannot be reached. Called outside any
        database transaction (payments.refunds.booking_refund_send).
        """


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

    def intent_status(self, intent_id: str) -> str:
        """Stripe's current status of a payment intent (e.g. "succeeded", "requires_payment_method")."""
        try:
            intent = self._client().v1.payment_intents.retrieve(intent_id)
        except stripe.StripeError as exc:
            logger.warning("Stripe could not say the status of %s: %s", intent_id, exc)
            raise GatewayError(str(exc)) from exc
        return str(intent.status or "")

    def refund(self, booking: Booking, *, idempotency_key: str) -> RefundResult:
        try:
            refund = self._client().v1.refunds.create(
                {"payment_intent": booking.payment_intent_id, "metadata": {"booking_id": str(booking.pk)}},
                {"idempotency_key": idempotency_key},
            )
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

    def refund(self, booking: Booking, *, idempotency_key: str) -> RefundResult:
        # The same key gives the same refund, as with Stripe.
        digest = hashlib.sha256(idempotency_key.encode()).hexdigest()[:24]
        return RefundResult(refund_id=f"re_test_{digest}", status=REFUND_SUCCEEDED)

    @staticmethod
    def charge_card(card_number: str) -> CardResult:
        """What the card network would answer for this (already validated) number."""
        if normalize_card_number(card_number) == TEST_CARD_SUCCEEDS:
            return CardResult(succeeded=True)
        return CardResult(succeeded=False, message=DECLINED_MESSAGE)


def normalize_card_number(value: str) -> str:
    return re.sub(r"[\s-]", "", value)


def card_number_is_valid(value: str) -> bool:
    """13-19 digits passing the Luhn check."""
    digits = normalize_card_number(value)
    if not digits.isdigit() or not 13 <= len(digits) <= 19:
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
