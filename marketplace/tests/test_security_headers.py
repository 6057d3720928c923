"""Security headers on each kind of page: CSP with a per-request nonce that every script tag
carries, frame-ancestors 'none', nosniff, X-Frame-Options DENY, referrer policy, and HSTS on
HTTPS with the production values."""

import re

import pytest
from django.test import override_settings

from bookings.tests.factories import BookingFactory

pytestmark = pytest.mark.django_db

SCRIPT_TAG = re.compile(r"<script\b[^>]*>", re.I)
PRELOAD_TAG = re.compile(r'<link\b[^>]*rel="modulepreload"[^>]*>', re.I)


def _directives(header: str) -> dict[str, list[str]]:
    out = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            out[words[0]] = words[1:]
    return out


def _assert_page_headers(response):
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"]
    policy = _directives(response["Content-Security-Policy"])
    assert policy["frame-ancestors"] == ["'none'"]
    assert policy["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in policy["script-src"]
    nonces = [w for w in policy["script-src"] if w.startswith("'nonce-")]
    assert len(nonces) == 1, policy["script-src"]
    nonce = nonces[0][len("'nonce-") : -1]
    html = response.content.decode()
    executable = [t for t in SCRIPT_TAG.findall(html) if 'type="application/json"' not in t]
    assert executable, "the page loads at least one island"
    for tag in executable + PRELOAD_TAG.findall(html):
        assert f'nonce="{nonce}"' in tag, tag
    return nonce


@pytest.mark.parametrize("path", ["/", "/landing", "/login", "/privacy-policy", "/providers-does-not-exist"])
def test_public_pages_send_csp_with_a_nonce_on_every_script(client, path):
    response = client.get(path)
    assert response.status_code in (200, 404)
    _assert_page_headers(response)


def test_each_response_gets_a_fresh_nonce(client):
    assert _assert_page_headers(client.get("/landing")) != _assert_page_headers(client.get("/landing"))


@pytest.mark.parametrize("path", ["/", "/request-service", "/provider-signup", "/providers", "/messages"])
def test_signed_in_pages_send_csp_with_a_nonce(client, client_user, path):
    client.force_login(client_user)
    response = client.get(path)
    assert response.status_code == 200
    _assert_page_headers(response)


def test_checkout_allows_stripe_js_and_nothing_inline(client):
    booking = BookingFactory()
    client.force_login(booking.client)
    response = client.get(f"/checkout/{booking.pk}")
    assert response.status_code == 200
    _assert_page_headers(response)
    policy = _directives(response["Content-Security-Policy"])
    assert "https://js.stripe.com" in policy["script-src"]
    assert "https://js.stripe.com" in policy["frame-src"]


def test_admin_page_sends_csp(client, admin_user):
    client.force_login(admin_user)
    response = client.get("/admin")
    assert response.status_code == 200
    _assert_page_headers(response)


def test_api_responses_send_nosniff_and_deny_framing(client):
    response = client.get("/api/service-categories")
    assert response.status_code == 200
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert _directives(response["Content-Security-Policy"])["frame-ancestors"] == ["'none'"]


@override_settings(
    SECURE_HSTS_SECONDS=31536000,
    SECURE_HSTS_INCLUDE_SUBDOMAINS=True,
    SECURE_HSTS_PRELOAD=True,
    SECURE_PROXY_SSL_HEADER=("HTTP_X_FORWARDED_PROTO", "https"),
)
def test_hsts_on_https_behind_the_proxy_with_production_values(client):
    response = client.get("/landing", HTTP_X_FORWARDED_PROTO="https")
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains; preload"
    assert "Strict-Transport-Security" not in client.get("/landing")


def test_emulator_origin_is_allowed_only_while_an_emulator_is_configured(client, settings):
    settings.FIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9555"
    policy = _directives(client.get("/login")["Content-Security-Policy"])
    assert "http://127.0.0.1:9555" in policy["connect-src"]
    settings.FIREBASE_AUTH_EMULATOR_HOST = ""
    policy = _directives(client.get("/login")["Content-Security-Policy"])
    assert not any(w.startswith("http://127.0.0.1") for w in policy["connect-src"])
