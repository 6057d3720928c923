"""Property-based API test of the care-circle endpoints (schemathesis, in-process against
/api/schema/): for every kind of caller, schema-valid and schema-invalid requests never get a
5xx, and invalid ones are never accepted (2xx)."""

from __future__ import annotations

import pytest

from circles import services
from circles.models import CircleMember
from marketplace.testing.schemathesis import (
    CALLERS,
    api_operations,
    assert_operation_never_errors,
    caller_user,
    operation_ids,
)

OPERATIONS = api_operations("/api/care-")
MAX_EXAMPLES = 10


def test_every_circle_operation_is_covered():
    assert ("GET", "/api/care-circle") in OPERATIONS
    assert ("POST", "/api/care-invitations/accept") in OPERATIONS
    assert ("DELETE", "/api/care-recipients/{id}/members/{member_id}") in OPERATIONS


@pytest.mark.parametrize("caller", CALLERS)
@pytest.mark.parametrize(("method", "path"), OPERATIONS, ids=operation_ids(OPERATIONS))
def test_circle_api_never_errors(method, path, caller, circle, client_user, verified_provider, admin_user):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    member = CircleMember.objects.filter(recipient=circle).exclude(user=client_user).first()
    pinned = []
    if "{member_id}" in path:
        pinned = [{"id": circle.pk, "member_id": member.pk}]
    elif path.startswith("/api/care-invitations/{id}"):
        pinned = [{"id": invitation.pk}]
    elif "{id}" in path:
        pinned = [{"id": circle.pk}]
    assert_operation_never_errors(
        method=method, path=path, user=user, path_parameters=pinned, max_examples=MAX_EXAMPLES
    )
