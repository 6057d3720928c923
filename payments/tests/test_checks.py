"""System check: the offline test gateway is refused with DEBUG off (unless the test settings' flag is set)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.core.checks import Error, Warning, run_checks

from payments.checks import check_payments_backend, check_platform_fee


def payment_messages() -> list[tuple[str, str]]:
    """What the registered checks say about payments (runs every registered check, as manage.py check does)."""
    return [(type(m).__name__, m.id) for m in run_checks() if m.id and m.id.startswith("payments.")]


def test_test_gateway_with_debug_off_is_an_error(settings):
    settings.DEBUG = False
    settings.PAYMENTS_BACKEND = "test"
    settings.PAYMENTS_ALLOW_TEST_GATEWAY = False

    assert payment_messages() == [("Error", "payments.E001")]
    [error] = check_payments_backend()
    assert isinstance(error, Error)
    assert "DEBUG is off" in error.msg


def test_test_gateway_is_fine_in_development(settings):
    settings.DEBUG = True
    settings.PAYMENTS_BACKEND = "test"
    settings.PAYMENTS_ALLOW_TEST_GATEWAY = False

    assert payment_messages() == []


def test_the_test_settings_allow_it_with_debug_off(settings):
    # marketplace.settings.test runs with DEBUG off and the test gateway, and sets the flag.
    assert settings.DEBUG is False
    assert settings.PAYMENTS_BACKEND == "test"
    assert settings.PAYMENTS_ALLOW_TEST_GATEWAY is True

    assert payment_messages() == []


def test_stripe_needs_its_keys(settings):
    settings.DEBUG = False
    settings.PAYMENTS_BACKEND = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_live_x"
    settings.STRIPE_PUBLISHABLE_KEY = ""
    settings.STRIPE_WEBHOOK_SECRET = ""
    settings.STRIPE_CONNECT_WEBHOOK_SECRET = "whsec_connect_x"
    settings.STRIPE_API_BASE = ""

    [error] = check_payments_backend()

    assert error.id == "payments.E003"
    assert "STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET are not set" in error.msg


def test_stripe_with_its_keys_is_fine_and_an_api_base_override_is_flagged(settings):
    settings.DEBUG = False
    settings.PAYMENTS_BACKEND = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_live_x"
    settings.STRIPE_PUBLISHABLE_KEY = "pk_live_x"
    settings.STRIPE_WEBHOOK_SECRET = "whsec_x"
    settings.STRIPE_CONNECT_WEBHOOK_SECRET = "whsec_connect_x"
    settings.STRIPE_API_BASE = ""
    assert check_payments_backend() == []

    settings.STRIPE_API_BASE = "http://127.0.0.1:1234"
    [warning] = check_payments_backend()
    assert isinstance(warning, Warning) and warning.id == "payments.W001"


def test_stripe_without_the_connect_webhook_secret_is_flagged(settings):
    settings.PAYMENTS_BACKEND = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_live_x"
    settings.STRIPE_PUBLISHABLE_KEY = "pk_live_x"
    settings.STRIPE_WEBHOOK_SECRET = "whsec_x"
    settings.STRIPE_CONNECT_WEBHOOK_SECRET = ""
    settings.STRIPE_API_BASE = ""

    [warning] = check_payments_backend()

    assert isinstance(warning, Warning) and warning.id == "payments.W002"


def test_unknown_backend_is_an_error(settings):
    settings.PAYMENTS_BACKEND = "paypal"

    assert [m.id for m in check_payments_backend()] == ["payments.E002"]


@pytest.mark.parametrize("percent", [Decimal("-1"), Decimal("100.01"), Decimal("NaN"), "15"])
def test_the_platform_fee_must_be_a_percentage(settings, percent):
    settings.PLATFORM_FEE_PERCENT = percent
    assert [m.id for m in check_platform_fee()] == ["payments.E004"]


@pytest.mark.parametrize("percent", [Decimal("0"), Decimal("15"), Decimal("12.5"), Decimal("100")])
def test_a_platform_fee_from_0_to_100_is_fine(settings, percent):
    settings.PLATFORM_FEE_PERCENT = percent
    assert check_platform_fee() == []
