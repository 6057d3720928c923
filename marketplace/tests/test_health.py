"""/healthz and /readyz answer without a session and say what is failing."""

import pytest
from django.test import override_settings

pytestmark = pytest.mark.django_db


def test_healthz_is_up_without_authentication(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "sessionid" not in response.cookies


def test_readyz_checks_database_migrations_and_redis(client, settings):
    assert settings.REDIS_URL, "the test suite runs against Redis"
    response = client.get("/readyz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "migrations": "ok", "redis": "ok"}}


def test_readyz_reports_unreachable_redis_as_503(client):
    with override_settings(REDIS_URL="redis://127.0.0.1:1/0"):
        response = client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["checks"]["redis"] == "failing"
    assert response.json()["checks"]["database"] == "ok"


def test_readyz_without_redis_configured_skips_it(client):
    with override_settings(REDIS_URL=""):
        response = client.get("/readyz")
    assert response.status_code == 200
    assert "redis" not in response.json()["checks"]
