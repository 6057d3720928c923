"""System checks for the payment gateway configuration."""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.core.checks import CheckMessage, Error, Warning, register

from payments.models import Gateway

STRIPE_SETTINGS = ("STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET")


@register()
def check_payments_backend(app_configs=None, **kwargs) -> list[CheckMessage]:
    """The offline test gateway marks bookings paid without taking money: development only.

    It is refused with DEBUG off unless PAYMENTS_ALLOW_TEST_GATEWAY is set (the test settings
    only: the suite runs with DEBUG off). Stripe needs its three keys.
    """
    backend = settings.PAYMENTS_BACKEND
    if backend not in Gateway.values:
        return [
            Error(
                f"PAYMENTS_BACKEND is {backend!r}.",
                hint="Set PAYMENTS_BACKEND to 'stripe' or 'test'.",
                id="payments.E002",
            )
        ]
    messages: list[CheckMessage] = []
    if backend == Gateway.TEST and not settings.DEBUG and not getattr(settings, "PAYMENTS_ALLOW_TEST_GATEWAY", False):
        messages.append(
            Error(
                "The offline test payment gateway is active while DEBUG is off.",
                hint="It marks bookings paid without taking any money. Set STRIPE_SECRET_KEY, "
                "STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET (PAYMENTS_BACKEND=stripe).",
                id="payments.E001",
            )
        )
    if backend == Gateway.STRIPE:
        missing = [name for name in STRIPE_SETTINGS if not getattr(settings, name, "")]
        if missing:
            messages.append(
                Error(
                    f"PAYMENTS_BACKEND is 'stripe' but {', '.join(missing)} {'is' if len(missing) == 1 else 'are'} "
                    "not set.",
                    hint="Copy the keys and the webhook signing secret from the Stripe dashboard.",
                    id="payments.E003",
                )
            )
        if not settings.STRIPE_CONNECT_WEBHOOK_SECRET:
            messages.append(
                Warning(
                    "STRIPE_CONNECT_WEBHOOK_SECRET is not set: account.updated and payout events of providers' "
                    "connected accounts are refused, so payouts setup and payout states are not kept current.",
                    hint="Add a Connect webhook endpoint at /api/payments/stripe/connect-webhook in the Stripe "
                    "dashboard and copy its signing secret.",
                    id="payments.W002",
                )
            )
        if settings.STRIPE_API_BASE and not settings.DEBUG:
            messages.append(
                Warning(
                    f"STRIPE_API_BASE points the Stripe SDK at {settings.STRIPE_API_BASE}.",
                    hint="It is meant for tests only; unset it to talk to Stripe.",
                    id="payments.W001",
                )
            )
    return messages


@register()
def check_platform_fee(app_configs=None, **kwargs) -> list[CheckMessage]:
    """PLATFORM_FEE_PERCENT is a percentage of each booking's total (docs/payments.md)."""
    percent = settings.PLATFORM_FEE_PERCENT
    if not isinstance(percent, Decimal) or not percent.is_finite() or not Decimal(0) <= percent <= Decimal(100):
        return [
            Error(
                f"PLATFORM_FEE_PERCENT is {percent!r}.",
                hint="Set it to a number from 0 to 100, e.g. 15.",
                id="payments.E004",
            )
        ]
    return []
