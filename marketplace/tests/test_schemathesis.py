"""GET /api/dashboard against its OpenAPI schema (schemathesis, in-process): for every kind of
caller, with bookings, requests and messages to show, it never errors and answers its declared
shape."""

from __future__ import annotations

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.test import Client
from schemathesis.specs.openapi.checks import response_schema_conformance

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.schemathesis import (
    CALLERS,
    api_operations,
    assert_operation_never_errors,
    caller_user,
    kept_test_connection,
)
from messaging.tests.factories import SystemMessageFactory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def shown(client_user, verified_provider):
    # Still to come: the provider's dashboard lists upcoming visits only.
    BookingFactory(service_request__client=client_user, provider=verified_provider, status=BookingStatus.CONFIRMED)
    ServiceRequestFactory(client=client_user, max_budget=None, category=None, preferred_date=None)
    ServiceRequestFactory()
    SystemMessageFactory(receiver=client_user)


def test_the_dashboard_operation_is_documented():
    assert api_operations("/api/dashboard") == [("GET", "/api/dashboard")]


@pytest.mark.parametrize("caller", CALLERS)
def test_dashboard_never_errors(caller, shown, client_user, verified_provider, admin_user):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    assert_operation_never_errors(method="GET", path="/api/dashboard", user=user, max_examples=5)


@pytest.mark.parametrize("caller", ["client", "provider", "admin"])
def test_dashboard_answers_its_declared_shape(caller, shown, client_user, verified_provider, admin_user):
    user = caller_user(caller, client_user=client_user, verified_provider=verified_provider, admin_user=admin_user)
    browser = Client()
    browser.force_login(user)
    with kept_test_connection():
        schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())
        case = schema["/api/dashboard"]["GET"].Case()
        response = case.call(app=get_wsgi_application(), cookies={"sessionid": browser.cookies["sessionid"].value})
        assert response.status_code == 200
        case.validate_response(response, checks=[response_schema_conformance])
    body = response.json()
    assert len(body["bookings"]) == (0 if caller == "admin" else 1)
