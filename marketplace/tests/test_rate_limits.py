"""The limits on the endpoints worth abusing, through the real views (issue 8); the webhook is never limited."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.utils import timezone

from requests_app.models import ServiceCategory, ServiceRequest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def _request_payload() -> dict:
    return {
        "title": "Help with my tablet",
        "description": "Please show me how to make video calls to my family.",
        "urgency": "normal",
        "preferredTime": "morning",
        "location": "12 Elm Street",
        "specialRequirements": "",
        "estimatedDuration": 60,
        "maxBudget": 40,
        "categoryId": ServiceCategory.objects.get(slug="tech-support").pk,
        "preferredDate": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
    }


def test_request_creation_is_limited_per_user_and_reads_are_not(client, client_user, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "request_create": "2/hour"}
    client.force_login(client_user)
    statuses = [
        client.post("/api/service-requests", _request_payload(), content_type="application/json").status_code
        for _ in range(3)
    ]
    assert statuses == [201, 201, 429]
    assert ServiceRequest.objects.filter(client=client_user).count() == 2
    blocked = client.post("/api/service-requests", _request_payload(), content_type="application/json")
    assert blocked.json()["message"].startswith("Too many requests. Please wait ")
    assert client.get("/api/service-requests").status_code == 200


def test_the_stripe_webhook_is_never_limited(client, settings):
    settings.THROTTLE_RATES = {scope: "1/hour" for scope in settings.THROTTLE_RATES}
    settings.PAYMENTS_BACKEND = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_test_rate_limits"
    settings.STRIPE_WEBHOOK_SECRET = "whsec_rate_limits"
    statuses = {
        client.post(
            "/api/payments/stripe/webhook", b"{}", content_type="application/json", HTTP_STRIPE_SIGNATURE="t=1,v1=x"
        ).status_code
        for _ in range(5)
    }
    assert statuses == {400}  # refused for its bad signature every time, never 429


def test_message_sends_are_limited_per_user(client, settings):
    from bookings.tests.factories import BookingFactory

    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "message_send": "2/min"}
    booking = BookingFactory()
    client.force_login(booking.client)
    payload = {"receiverId": booking.provider.user_id, "content": "Hello!", "bookingId": booking.pk}
    statuses = [client.post("/api/messages", payload, content_type="application/json").status_code for _ in range(3)]
    assert statuses == [201, 201, 429]
    assert client.get("/api/messages/unread-count").status_code == 200
