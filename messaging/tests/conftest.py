"""Fixtures of the messaging tests: a booking between a client and a provider, signed-in clients."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from bookings.tests.factories import BookingFactory
from requests_app.tests.factories import ServiceRequestFactory


@pytest.fixture
def booking(client_user, verified_provider):
    """A booking between Clara (client_user) and Vera (verified_provider)."""
    return BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, status="booked", title="Tablet video calls"),
        provider=verified_provider,
    )


@pytest.fixture
def stranger(db):
    """A client with no booking with anyone in these tests."""
    return UserFactory(first_name="Sam", email="sam@example.com")


@pytest.fixture
def api_for():
    """api_for(user) -> an APIClient signed in as that user (session, as the browser)."""

    def make(user) -> APIClient:
        api = APIClient()
        api.force_login(user)
        return api

    return make


@pytest.fixture
def fresh_channel_layer():
    """Empty the channel layer first: test users get the same uids in every run, and sockets of
    earlier runs (killed servers) stay in their groups until group_expiry (a day)."""
    import asyncio
    import threading

    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if hasattr(layer, "flush"):
        # In a thread of its own: Playwright's sync API keeps an event loop in this one.
        worker = threading.Thread(target=lambda: asyncio.run(layer.flush()))
        worker.start()
        worker.join(timeout=10)
    return layer
