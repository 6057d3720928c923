"""Property-based API tests with schemathesis, in-process against /api/schema/.

Each app's ``tests/test_schemathesis.py`` picks its operations by path prefix and, for every
kind of caller, asserts that schema-valid and schema-invalid requests never get a 5xx and that
invalid ones are never accepted (2xx). Bounded and deterministic: a fixed number of examples,
from a fixed seed. Usage::

    OPERATIONS = api_operations("/api/messages")

    @pytest.mark.parametrize("caller", CALLERS)
    @pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
    def test_...(method, path, caller, client_user, verified_provider, admin_user):
        user = caller_user(caller, client_user=client_user, ...)
        assert_operation_never_errors(method=method, path=path, user=user, max_examples=20)
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import schemathesis
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test import Client
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.generation import GenerationMode
from schemathesis.specs.openapi.checks import negative_data_rejection

CALLERS = ["anonymous", "client", "provider", "admin"]
CSRF_TOKEN = "k" * 32
CHECKS = [not_a_server_error, negative_data_rejection]
_METHODS = {"get", "post", "put", "patch", "delete"}
_SCHEMA: dict[str, Any] = {}
# make pytest-sqlite repeats these tests on SQLite (make run's database) for what differs there: the
# SQL each operation runs. The two databases share each operation's examples: a third run on SQLite,
# the rest on PostgreSQL, each drawn from its own seed, so that a full `make test` tries as many
# different cases per operation as the count asked for (before, SQLite repeated PostgreSQL's first
# ones). Still deterministic: the seed is the database and the operation.
SQLITE_SHARE = 3
# Someone signed out calling an operation that needs a sign-in is refused before the request's
# input is read (DRF checks the permissions first): each example gets the same 401/403 (or the
# router's 404 for a path it does not match). A few examples prove it, and each is asserted to be
# such a refusal; the operations open to everyone (security lists {}) keep the full count.
SIGNED_OUT_EXAMPLES = 3
SIGNED_OUT_REFUSALS = {401, 403, 404}


def api_operations(*prefixes: str) -> list[tuple[str, str]]:
    """(METHOD, path) of every documented operation whose path starts with one of ``prefixes``."""
    spec = SchemaGenerator().get_schema(request=None, public=True)
    return sorted(
        (method.upper(), path)
        for path, item in spec["paths"].items()
        if path.startswith(prefixes)
        for method in item
        if method in _METHODS
    )


def operation_ids(operations: Iterable[tuple[str, str]]) -> list[str]:
    return [f"{method} {path}" for method, path in operations]


def caller_user(caller: str, *, client_user, verified_provider, admin_user):
    """The signed-in user for a ``CALLERS`` entry (None for anonymous)."""
    users = {"anonymous": None, "client": client_user, "provider": verified_provider.user, "admin": admin_user}
    return users[caller]


@contextmanager
def kept_test_connection() -> Iterator[None]:
    """The in-process app must not close the test transaction's connection after each request
    (Django's test Client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


def _schema():
    if "schema" not in _SCHEMA:
        schema = schemathesis.openapi.from_wsgi("/api/schema/", WSGIHandler())
        # The caller's session is fixed per test; mutating the auth cookie proves nothing.
        schema.config.generation.update(with_security_parameters=False)
        _SCHEMA["schema"] = schema
    return _SCHEMA["schema"]


def _needs_sign_in(operation) -> bool:
    """The operation's schema lists no way in without credentials (an empty {} security entry)."""
    security = operation.definition.raw.get("security")
    return bool(security) and {} not in security


def _session_cookies(user) -> dict[str, str]:
    cookies = {"csrftoken": CSRF_TOKEN}
    if user is not None:
        browser = Client()
        browser.force_login(user)
        cookies["sessionid"] = browser.cookies["sessionid"].value
    return cookies


def assert_operation_never_errors(
    *,
    method: str,
    path: str,
    user,
    max_examples: int,
    path_parameters: Iterable[dict[str, Any]] = (),
) -> None:
    """Call one operation as ``user`` (None: anonymous) with generated valid and invalid cases,
    plus cases pinned to each of ``path_parameters`` (real objects, so that the validation and
    state checks are reached and not only 404s)."""
    cookies = _session_cookies(user)
    with kept_test_connection():
        operation = _schema()[path][method.lower()]
        refused_unread = user is None and _needs_sign_in(operation)
        if refused_unread:
            max_examples = SIGNED_OUT_EXAMPLES
        else:
            on_sqlite = -(-max_examples // SQLITE_SHARE)
            max_examples = max(3, on_sqlite if connection.vendor == "sqlite" else max_examples - on_sqlite)
        strategies = [operation.as_strategy(generation_mode=mode) for mode in GenerationMode]
        for parameters in path_parameters:
            strategies += [
                operation.as_strategy(generation_mode=mode, path_parameters=parameters) for mode in GenerationMode
            ]

        @seed(zlib.crc32(f"{connection.vendor} {method} {path} {user is None}".encode()))
        @settings(
            max_examples=max_examples,
            database=None,
            deadline=None,
            suppress_health_check=list(HealthCheck),
            phases=["explicit", "generate"],
        )
        @given(case=st.one_of(strategies))
        def run(case):
            response = case.call_and_validate(
                app=WSGIHandler(), headers={"X-CSRFToken": CSRF_TOKEN}, cookies=cookies, checks=CHECKS
            )
            if refused_unread:
                assert response.status_code in SIGNED_OUT_REFUSALS, (
                    f"{method} {path} signed out answered {response.status_code}, not a refusal"
                )

        run()
