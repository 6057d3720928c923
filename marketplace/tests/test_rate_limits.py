"""Rate limits: 429 with a clear message past the limit, on the endpoints worth abusing, through
the real views where they need no outside service; the webhook is never limited; client
IPs are read from forwarded headers only behind trusted proxies."""

import datetime as dt

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from django.utils import timezone
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from core.throttling import SignInThrottle, client_ip
from requests_app.models import ServiceCategory, ServiceRequest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


class SignInView(APIView):
    """Sign-in's throttle on a bare view: the real sign-in needs the Firebase emulator."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [SignInThrottle]

    def post(self, request):
        return Response({"ok": True})

    def get(self, request):
        return Response({"ok": True})


def _post(view, ip="203.0.113.7", **extra):
    request = APIRequestFactory().post("/x", {}, format="json", REMOTE_ADDR=ip, **extra)
    return view.as_view()(request)


def test_sign_in_past_the_limit_is_429_with_a_clear_message(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "sign_in": "3/min"}
    assert [_post(SignInView).status_code for _ in range(3)] == [200, 200, 200]
    blocked = _post(SignInView)
    assert blocked.status_code == 429
    assert blocked.data["message"].startswith("Too many requests. Please wait ")
    assert blocked.data["errors"] == {}
    assert int(blocked["Retry-After"]) > 0
    # Another address is not affected; reads are never limited.
    assert _post(SignInView, ip="198.51.100.9").status_code == 200
    get = APIRequestFactory().get("/x", REMOTE_ADDR="203.0.113.7")
    assert SignInView.as_view()(get).status_code == 200


def test_a_client_cannot_dodge_the_limit_by_forging_x_forwarded_for(settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "sign_in": "2/min"}
    statuses = [_post(SignInView, ip="203.0.113.7", HTTP_X_FORWARDED_FOR=f"10.0.0.{n}").status_code for n in range(3)]
    assert statuses == [200, 200, 429]


@pytest.mark.parametrize(
    ("remote", "xff", "expected"),
    [
        ("203.0.113.7", "", "203.0.113.7"),
        ("203.0.113.7", "198.51.100.1", "203.0.113.7"),  # untrusted peer: header ignored
        ("127.0.0.1", "198.51.100.1", "198.51.100.1"),  # through our proxy
        ("127.0.0.1", "1.2.3.4, 198.51.100.1", "198.51.100.1"),  # a forged first hop is not believed
        ("127.0.0.1", "", "127.0.0.1"),
    ],
)
def test_client_ip_reads_forwarded_for_only_from_trusted_proxies(settings, remote, xff, expected):
    settings.TRUSTED_PROXIES = ["127.0.0.1", "::1"]
    meta = {"REMOTE_ADDR": remote}
    if xff:
        meta["HTTP_X_FORWARDED_FOR"] = xff
    assert client_ip(RequestFactory().get("/", **meta)) == expected


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
    # The other user, from the same address, has their own allowance.
    client.force_login(booking.provider.user)
    reply = {"receiverId": booking.client_id, "content": "Hello to you!", "bookingId": booking.pk}
    assert client.post("/api/messages", reply, content_type="application/json").status_code == 201
