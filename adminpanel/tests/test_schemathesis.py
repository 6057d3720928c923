"""Property-based API test: schemathesis, in-process against /api/schema/.

For every marketplace operation and every kind of caller (anonymous, client, provider, admin),
schema-valid and schema-invalid requests must never get a 5xx, and invalid ones must never be
accepted (2xx). Bounded and deterministic: a fixed number of examples, derandomized.
"""

from __future__ import annotations

import datetime as dt

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

# The operations of this issue (messages, payments and /api/auth/* have tests of their own).
OWN_PREFIXES = ("/api/providers", "/api/provider/", "/api/service-", "/api/bookings", "/api/admin/")
MAX_EXAMPLES = 15
CSRF_TOKEN = "k" * 32
CALLERS = ["anonymous", "client", "provider", "admin"]


def _operations() -> list[tuple[str, str]]:
    spec = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method.upper(), path)
        for path, item in spec["paths"].items()
        if path.startswith(OWN_PREFIXES)
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    )


OPERATIONS = _operations()
_SCHEMA: dict[str, object] = {}


def _schema():
    if "schema" not in _SCHEMA:
        schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
        # The caller's session is fixed per test; mutating the auth cookie proves nothing.
        schema.config.generation.update(with_security_parameters=False)
        _SCHEMA["schema"] = schema
    return _SCHEMA["schema"]


@pytest.fixture(autouse=True)
def _keep_test_connection():
    """The in-process app must not close the test transaction's connection after each request
    (Django's test Client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def objects(client_user, verified_provider, admin_user):
    """Real objects so that fixed ids reach the validation and state checks, not only 404s."""
    today = timezone.localdate()
    other = UserFactory()
    pending = ProviderFactory()
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=today + dt.timedelta(days=10),
        provider=verified_provider,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    VerifiedProviderFactory()
    return {
        "/api/service-requests/{id}": [
            ServiceRequestFactory(client=client_user).pk,
            ServiceRequestFactory(client=other).pk,
        ],
        "/api/bookings/{id}": [booking.pk],
        "/api/providers/{id}": [verified_provider.pk, pending.pk],
        "/api/admin/providers/{id}": [pending.pk, verified_provider.pk],
        "/api/admin/bookings/{id}": [booking.pk],
    }


def _caller_cookies(role: str, users: dict) -> dict[str, str]:
    cookies = {"csrftoken": CSRF_TOKEN}
    if users[role] is not None:
        browser = Client()
        browser.force_login(users[role])
        cookies["sessionid"] = browser.cookies["sessionid"].value
    return cookies


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_api_never_errors_and_rejects_invalid_input(
    method, path, caller, objects, client_user, verified_provider, admin_user
):
    users = {"anonymous": None, "client": client_user, "provider": verified_provider.user, "admin": admin_user}
    cookies = _caller_cookies(caller, users)
    headers = {"X-CSRFToken": CSRF_TOKEN}
    operation = _schema()[path][method.lower()]
    fixed_ids = next((ids for prefix, ids in objects.items() if path.startswith(prefix)), [])

    strategies = [operation.as_strategy(generation_mode=mode) for mode in GenerationMode]
    if "{id}" in path:
        for pk in fixed_ids:
            strategies += [
                operation.as_strategy(generation_mode=mode, path_parameters={"id": pk}) for mode in GenerationMode
            ]

    @settings(
        max_examples=MAX_EXAMPLES if len(strategies) <= 2 else MAX_EXAMPLES * 3 // 2,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        phases=["explicit", "generate"],
    )
    @given(case=st.one_of(strategies))
    def run(case):
        case.call_and_validate(
            app=WSGIHandler(),
            headers=headers,
            cookies=cookies,
            checks=[not_a_server_error, negative_data_rejection],
        )

    run()
