"""Production settings: they refuse unsafe configurations and pass Django's deploy checks."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
PRODUCTION_ENV = {
    "DJANGO_SETTINGS_MODULE": "marketplace.settings.production",
    "SECRET_KEY": "a-long-random-production-secret-key-for-the-deploy-check-0123456789",
    "ALLOWED_HOSTS": "kindly.example",
    "DATABASE_URL": "sqlite:////tmp/kindly-deploy-check.sqlite3",
    "FIREBASE_PROJECT_ID": "kindly-production",
    "STRIPE_SECRET_KEY": "sk_test_deploy_check",
    "STRIPE_PUBLISHABLE_KEY": "pk_test_deploy_check",
    "STRIPE_WEBHOOK_SECRET": "whsec_deploy_check",
    "STRIPE_CONNECT_WEBHOOK_SECRET": "whsec_connect_deploy_check",
}


def _manage(*args: str, **env_overrides: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "FIREBASE_AUTH_EMULATOR_HOST")}
    env.update(PRODUCTION_ENV)
    env.update(env_overrides)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


def test_check_deploy_passes_with_no_warning():
    result = _manage("check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


@pytest.mark.parametrize(
    ("overrides", "message"),
    [({"SECRET_KEY": ""}, "SECRET_KEY must be set"), ({"DEBUG": "true"}, "DEBUG must be off")],
)
def test_production_settings_refuse_to_start_unsafely(overrides, message):
    result = _manage("check", **overrides)
    assert result.returncode != 0
    assert message in result.stderr


def _production_value(expression: str, **env_overrides: str) -> str:
    # The settings alone (read on first access), not django.setup(): the apps add nothing to these
    # values, and loading them cost about a second a case; check --deploy above starts the whole site.
    code = f"from django.conf import settings; print({expression})"
    env = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "SECRET_KEY", "FIREBASE_AUTH_EMULATOR_HOST")}
    env.update(PRODUCTION_ENV, DATABASE_URL="postgres://kindly@db.internal:5432/kindly", REDIS_URL="redis://r:6379/0")
    env.update(env_overrides)
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.mark.parametrize(
    ("overrides", "expected"),
    [
        ({}, "True 5"),
        ({"DB_PREPARE_THRESHOLD": ""}, "True None"),  # behind a pooler that cannot keep them
        ({"DB_SERVER_SIDE_BINDING": "false", "DB_PREPARE_THRESHOLD": "0"}, "False 0"),
    ],
)
def test_production_binds_on_the_server_and_prepares_repeated_queries(overrides, expected):
    options = 'settings.DATABASES["default"]["OPTIONS"]'
    value = _production_value(f'{options}["server_side_binding"], {options}["prepare_threshold"]', **overrides)
    assert value == expected


def test_production_caches_in_redis_with_one_connection_pool_per_process():
    backend = _production_value('settings.CACHES["default"]["BACKEND"], settings.SESSION_ENGINE')
    assert backend == "django_redis.cache.RedisCache django.contrib.sessions.backends.cached_db"
