"""Property-based test of /api/notification-preferences: schemathesis, in-process against /api/schema/.

For each caller, schema-valid and schema-invalid requests never get a 5xx, and invalid ones are
never accepted. Bounded and derandomized.
"""

from __future__ import annotations

import pytest

from marketplace.testing.schemathesis import (
    CALLERS,
    api_operations,
    assert_operation_never_errors,
    caller_user,
    operation_ids,
)

# Run on SQLite too (make pytest-sqlite), the embedded default of make run.
pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

OPERATIONS = api_operations("/api/notification-preferences")


def test_every_call_is_covered():
    assert set(OPERATIONS) == {("GET", "/api/notification-preferences"), ("PUT", "/api/notification-preferences")}


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
def test_preferences_api_never_errors_and_rejects_invalid_input(
    method, path, caller, client_user, verified_provider, admin_user
):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    assert_operation_never_errors(method=method, path=path, user=user, max_examples=25)
