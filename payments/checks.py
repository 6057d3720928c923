"""System checks for the payment gateway configuration."""

from __future__ import annotations

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
        if settings.STRIPE_API_BASE and not settings.DEBUG:
            messages.append(
                Warning(
                    f"STRIPE_API_BASE points the Stripe SDK at {settings.STRIPE_API_BASE}.",
                    hint="It is meant for tests only; unset it to talk to Stripe.",
                    id="payments.W001",
                )
            )
    return messages
