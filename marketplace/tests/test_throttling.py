"""Rate limits: 429 with a clear message past the limit; client IPs only from trusted proxies."""

import pytest
from django.core.cache import cache
from django.test import RequestFactory
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.test import APIRequestFactory, force_authenticate
from rest_framework.views import APIView

from marketplace.throttling import MessageSendThrottle, SignInThrottle, client_ip

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


class SignInView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [SignInThrottle]

    def post(self, request):
        return Response({"ok": True})

    def get(self, request):
        return Response({"ok": True})


class SendView(APIView):
    throttle_classes = [MessageSendThrottle]

    def post(self, request):
        return Response({"ok": True})


def _post(view, ip="203.0.113.7", user=None, **extra):
    request = APIRequestFactory().post("/x", {}, format="json", REMOTE_ADDR=ip, **extra)
    if user is not None:
        force_authenticate(request, user=user)
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


def test_message_sends_are_limited_per_user(settings, client_user, verified_provider):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "message_send": "2/min"}
    assert [_post(SendView, user=client_user).status_code for _ in range(3)] == [200, 200, 429]
    # Same address, other user: its own allowance.
    assert _post(SendView, user=verified_provider.user).status_code == 200


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
