"""Property-based test of the message calls: schemathesis, in-process against /api/schema/.

For each caller (anonymous, client, provider, admin), schema-valid and schema-invalid requests
never get a 5xx, and invalid ones are never accepted. Bounded and derandomized.
"""

from __future__ import annotations

import pytest
import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection

from messaging.tests.factories import MessageFactory

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = 20
CSRF_TOKEN = "m" * 32
CALLERS = ["anonymous", "client", "provider", "admin"]


def _operations() -> list[tuple[str, str]]:
    spec = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method.upper(), path)
        for path, item in spec["paths"].items()
        if path.startswith("/api/messages")
        for method in item
        if method in {"get", "post", "put", "patch", "delete"}
    )


OPERATIONS = _operations()
_SCHEMA: dict[str, object] = {}


def _schema():
    if "schema" not in _SCHEMA:
        schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
        schema.config.generation.update(with_security_parameters=False)
        _SCHEMA["schema"] = schema
    return _SCHEMA["schema"]


@pytest.fixture(autouse=True)
def _keep_test_connection():
    """The in-process app must not close the test transaction's connection after each request."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_every_message_call_is_covered():
    assert {p for _, p in OPERATIONS} >= {
        "/api/messages",
        "/api/messages/all",
        "/api/messages/unread-count",
        "/api/messages/conversation/{other_user_id}",
        "/api/messages/system-notifications",
    }


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_message_api_never_errors_and_rejects_invalid_input(
    method, path, caller, booking, client_user, verified_provider, admin_user
):
    users = {"anonymous": None, "client": client_user, "provider": verified_provider.user, "admin": admin_user}
    MessageFactory(sender=client_user, receiver=verified_provider.user)
    cookies = {"csrftoken": CSRF_TOKEN}
    if users[caller] is not None:
        browser = Client()
        browser.force_login(users[caller])
        cookies["sessionid"] = browser.cookies["sessionid"].value
    operation = _schema()[path][method.lower()]

    strategies = [operation.as_strategy(generation_mode=mode) for mode in GenerationMode]
    if "{other_user_id}" in path:
        for uid in (client_user.pk, verified_provider.user.pk):
            strategies += [
                operation.as_strategy(generation_mode=mode, path_parameters={"other_user_id": uid})
                for mode in GenerationMode
            ]

    @settings(
        max_examples=MAX_EXAMPLES,
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
            headers={"X-CSRFToken": CSRF_TOKEN},
            cookies=cookies,
            checks=[not_a_server_error, negative_data_rejection],
        )

    run()
