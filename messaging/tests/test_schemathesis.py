"""Property-based test of the message calls: schemathesis, in-process against /api/schema/.

For each caller (anonymous, client, provider, admin), schema-valid and schema-invalid requests
never get a 5xx, and invalid ones are never accepted. Bounded and derandomized.
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
from messaging.tests.factories import MessageFactory

# Run on SQLite too (make pytest-sqlite), the embedded default of make run.
pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

OPERATIONS = api_operations("/api/messages")
MAX_EXAMPLES = 20


def test_every_message_call_is_covered():
    assert {p for _, p in OPERATIONS} >= {
        "/api/messages",
        "/api/messages/all",
        "/api/messages/unread-count",
        "/api/messages/conversation/{other_user_id}",
        "/api/messages/system-notifications",
    }


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
def test_message_api_never_errors_and_rejects_invalid_input(
    method, path, caller, booking, client_user, verified_provider, admin_user
):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    MessageFactory(sender=client_user, receiver=verified_provider.user)
    pinned = (
        [{"other_user_id": uid} for uid in (client_user.pk, verified_provider.user.pk)]
        if "{other_user_id}" in path
        else []
    )
    assert_operation_never_errors(
        method=method, path=path, user=user, path_parameters=pinned, max_examples=MAX_EXAMPLES
    )
