"""Property-based API test: schemathesis, in-process against /api/schema/.

For every marketplace operation and every kind of caller (anonymous, client, provider, admin),
schema-valid and schema-invalid requests must never get a 5xx, and invalid ones must never be
accepted (2xx). Bounded and deterministic: a fixed number of examples, derandomized.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.schemathesis import (
    CALLERS,
    api_operations,
    assert_operation_never_errors,
    caller_user,
    operation_ids,
)
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

# The operations of this issue (messages, payments and /api/auth/* have tests of their own).
OWN_PREFIXES = ("/api/providers", "/api/provider/", "/api/service-", "/api/bookings", "/api/admin/")
# Run on SQLite too (make pytest-sqlite), the embedded default of make run.
pytestmark = pytest.mark.sqlite

OPERATIONS = api_operations(*OWN_PREFIXES)
MAX_EXAMPLES = 15


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


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
def test_api_never_errors_and_rejects_invalid_input(
    method, path, caller, objects, client_user, verified_provider, admin_user
):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    fixed_ids = next((ids for prefix, ids in objects.items() if path.startswith(prefix)), [])
    pinned = [{"id": pk} for pk in fixed_ids] if "{id}" in path else []
    assert_operation_never_errors(
        method=method,
        path=path,
        user=user,
        path_parameters=pinned,
        max_examples=MAX_EXAMPLES * 3 // 2 if pinned else MAX_EXAMPLES,
    )
