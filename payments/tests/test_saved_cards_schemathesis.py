"""Property-based API test of the saved card's endpoints (payments.cards): schemathesis, in-process
against /api/schema/. For every kind of caller, schema-valid and schema-invalid requests never get a
5xx, and invalid ones are never accepted (2xx)."""

from __future__ import annotations

import pytest

from bookings.tests.factories import BookingFactory
from marketplace.testing.schemathesis import (
    CALLERS,
    api_operations,
    assert_operation_never_errors,
    caller_user,
    operation_ids,
)

OPERATIONS = [
    *api_operations("/api/payment-method"),
    ("POST", "/api/bookings/{booking_id}/auto-charge"),
]
MAX_EXAMPLES = 10


def test_every_saved_card_operation_is_covered():
    assert ("POST", "/api/payment-method/test") in OPERATIONS
    assert ("DELETE", "/api/payment-method") in OPERATIONS
    assert ("POST", "/api/payment-method/setup/finish") in OPERATIONS


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
def test_saved_card_api_never_errors_and_rejects_invalid_input(
    method, path, caller, client_user, verified_provider, admin_user, settings
):
    settings.PAYMENTS_BACKEND = "test"
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    own = BookingFactory(service_request__client=client_user)  # she organizes her own circle
    pinned = [{"booking_id": own.pk}] if "{booking_id}" in path else []
    assert_operation_never_errors(
        method=method, path=path, user=user, path_parameters=pinned, max_examples=MAX_EXAMPLES
    )
