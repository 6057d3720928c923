"""POST /api/service-requests/{id}/decline and the create's new fields against the OpenAPI schema
(schemathesis, in-process): generated valid and invalid bodies never make a 500."""

from __future__ import annotations

import pytest
from django.utils import timezone

from marketplace.testing.schemathesis import api_operations, assert_operation_never_errors
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import DIRECT_WINDOW
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def test_the_decline_operation_is_documented():
    assert api_operations("/api/service-requests/{id}/decline") == [("POST", "/api/service-requests/{id}/decline")]


def test_decline_never_errors(client_user):
    vera = VerifiedProviderFactory()
    direct = ServiceRequestFactory(
        client=client_user, requested_provider=vera, direct_until=timezone.now() + DIRECT_WINDOW
    )
    assert_operation_never_errors(
        method="POST",
        path="/api/service-requests/{id}/decline",
        user=vera.user,
        max_examples=15,
        path_parameters=[{"id": direct.pk}],
    )


def test_create_never_errors_with_a_requested_provider(client_user):
    VerifiedProviderFactory()
    assert_operation_never_errors(method="POST", path="/api/service-requests", user=client_user, max_examples=15)
