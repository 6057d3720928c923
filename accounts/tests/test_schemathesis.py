"""Property-based API test of the accounts endpoints: schemathesis, in-process against /api/schema/.

For /api/auth/* and /api/emergency-contacts*, and every kind of caller, schema-valid and
schema-invalid requests never get a 5xx, and invalid ones are never accepted (2xx).
"""

from __future__ import annotations

import pytest

from accounts.tests.factories import EmergencyContactFactory
from marketplace.testing.schemathesis import (
    CALLERS,
    api_operations,
    assert_operation_never_errors,
    caller_user,
    operation_ids,
)

# Run on SQLite too (make pytest-sqlite), the embedded default of make run.
pytestmark = pytest.mark.sqlite

OPERATIONS = api_operations("/api/auth/", "/api/emergency-contacts")
MAX_EXAMPLES = 15


def test_every_accounts_operation_is_covered():
    assert ("POST", "/api/auth/session") in OPERATIONS
    assert ("PATCH", "/api/emergency-contacts/{id}") in OPERATIONS


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
def test_accounts_api_never_errors_and_rejects_invalid_input(
    method, path, caller, client_user, verified_provider, admin_user
):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    own = EmergencyContactFactory(user=client_user, is_primary=True)
    theirs = EmergencyContactFactory()
    pinned = [{"id": own.pk}, {"id": theirs.pk}] if "{id}" in path else []
    assert_operation_never_errors(
        method=method,
        path=path,
        user=user,
        path_parameters=pinned,
        max_examples=MAX_EXAMPLES * 3 // 2 if pinned else MAX_EXAMPLES,
    )
