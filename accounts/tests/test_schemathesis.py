"""Property-based API test of the accounts endpoints: schemathesis, in-process against /api/schema/.

For /api/auth/* and /api/emergency-contacts*, and every kind of caller, schema-valid and
schema-invalid requests never get a 5xx, and invalid ones are never accepted (2xx).
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

from accounts.tests.factories import EmergencyContactFactory

OWN_PREFIXES = ("/api/auth/", "/api/emergency-contacts")
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


def test_every_accounts_operation_is_covered():
    assert ("POST", "/api/auth/session") in OPERATIONS
    assert ("PATCH", "/api/emergency-contacts/{id}") in OPERATIONS


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=[f"{m} {p}" for m, p in OPERATIONS])
def test_accounts_api_never_errors_and_rejects_invalid_input(
    method, path, caller, client_user, verified_provider, admin_user
):
    users = {"anonymous": None, "client": client_user, "provider": verified_provider.user, "admin": admin_user}
    cookies = {"csrftoken": CSRF_TOKEN}
    if users[caller] is not None:
        browser = Client()
        browser.force_login(users[caller])
        cookies["sessionid"] = browser.cookies["sessionid"].value
    own = EmergencyContactFactory(user=client_user, is_primary=True)
    theirs = EmergencyContactFactory()
    operation = _schema()[path][method.lower()]
    strategies = [operation.as_strategy(generation_mode=mode) for mode in GenerationMode]
    if "{id}" in path:
        for pk in (own.pk, theirs.pk):
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
            headers={"X-CSRFToken": CSRF_TOKEN},
            cookies=cookies,
            checks=[not_a_server_error, negative_data_rejection],
        )

    run()
