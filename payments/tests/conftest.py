"""Payment fixtures: bookings and signed-in API clients. The fake Stripe API and signed webhooks
are shared by every app's tests: marketplace.testing.stripe."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from bookings.tests.factories import BookingFactory


@pytest.fixture
def offline_backend(settings):
    """The offline test gateway (the test settings' default, made explicit)."""
    settings.PAYMENTS_BACKEND = "test"


@pytest.fixture
def booking(client_user, verified_provider):
    """A scheduled booking of client_user with verified_provider, payment pending, $45.50."""
    from decimal import Decimal

    return BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )


@pytest.fixture
def api_as():
    """api_as(user) -> a DRF client signed in (session) as that user; api_as(None) -> anonymous."""

    def make(user) -> APIClient:
        client = APIClient()
        if user is not None:
            client.force_login(user)
        return client

    return make
