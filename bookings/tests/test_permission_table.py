"""ARCHITECTURE.md "Roles and what the server allows": one test per cell (role x endpoint).

Allowed, 403 (a forbidden action on an object the caller may see), 404 (an object the caller
may not see) or 401 (not signed in).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from bookings.tests.helpers import call, valid_application_body, valid_request_body
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

ROLES = ["anonymous", "client", "provider", "pending_provider", "admin"]


@dataclass
class World:
    users: dict
    objects: dict


@pytest.fixture
def world(client_user, verified_provider, provider_user, admin_user):
    other_client = UserFactory()
    other_provider = VerifiedProviderFactory()
    today = timezone.localdate()

    def booking(status, *, client=client_user, provider=verified_provider, days=10):
        return BookingFactory(
            service_request__client=client,
            service_request__preferred_date=today + dt.timedelta(days=days),
            provider=provider,
            status=status,
            payment_status=PaymentStatus.PAID if status != BookingStatus.SCHEDULED else PaymentStatus.PENDING,
        )

    past_visit = booking(BookingStatus.CONFIRMED, days=-1)
    completed = booking(BookingStatus.COMPLETED, days=-2)
    completed.service_request.status = RequestStatus.COMPLETED
    completed.service_request.save()
    return World(
        users={
            "anonymous": None,
            "client": client_user,
            "provider": verified_provider.user,
            "pending_provider": provider_user,
            "admin": admin_user,
        },
        objects={
            "own_open_request": ServiceRequestFactory(client=client_user),
            "other_open_request": ServiceRequestFactory(client=other_client),
            "other_booked_request": booking(
                BookingStatus.CONFIRMED, client=other_client, provider=other_provider
            ).service_request,
            "booking": booking(BookingStatus.CONFIRMED),
            "past_visit_booking": past_visit,
            "completed_booking": completed,
            "pending_profile": provider_user.provider,
            "verified_profile": verified_provider,
            "other_provider": other_provider,
        },
    )


# (case id, method, url template, body, {role: expected status})
CASES = [
    ("providers-list", "GET", "/api/providers?verified=true", None, dict.fromkeys(ROLES, 200)),
    ("categories-list", "GET", "/api/service-categories", None, dict.fromkeys(ROLES, 200)),
    ("provider-reviews", "GET", "/api/providers/{verified_profile}/reviews", None, dict.fromkeys(ROLES, 200)),
    (
        "own-profile-read",
        "GET",
        "/api/provider/profile",
        None,
        {"anonymous": 401, "client": 404, "provider": 200, "pending_provider": 200, "admin": 404},
    ),
    (
        "apply",
        "POST",
        "/api/provider/profile",
        "application",
        {"anonymous": 401, "client": 201, "provider": 409, "pending_provider": 409, "admin": 403},
    ),
    (
        "requests-list",
        "GET",
        "/api/service-requests",
        None,
        {"anonymous": 401, "client": 200, "provider": 200, "pending_provider": 200, "admin": 200},
    ),
    (
        "request-create",
        "POST",
        "/api/service-requests",
        "request",
        {"anonymous": 401, "client": 201, "provider": 403, "pending_provider": 403, "admin": 403},
    ),
    (
        "own-open-request-read",
        "GET",
        "/api/service-requests/{own_open_request}",
        None,
        {"anonymous": 401, "client": 200, "provider": 200, "pending_provider": 200, "admin": 200},
    ),
    (
        "other-open-request-read",
        "GET",
        "/api/service-requests/{other_open_request}",
        None,
        {"anonymous": 401, "client": 404, "provider": 200, "pending_provider": 200, "admin": 200},
    ),
    (
        "other-booked-request-read",
        "GET",
        "/api/service-requests/{other_booked_request}",
        None,
        {"anonymous": 401, "client": 404, "provider": 404, "pending_provider": 404, "admin": 200},
    ),
    (
        "request-edit",
        "PUT",
        "/api/service-requests/{own_open_request}",
        "request",
        {"anonymous": 401, "client": 200, "provider": 403, "pending_provider": 403, "admin": 403},
    ),
    (
        "other-request-edit",
        "PUT",
        "/api/service-requests/{other_open_request}",
        "request",
        {"anonymous": 401, "client": 404, "provider": 403, "pending_provider": 403, "admin": 403},
    ),
    (
        "request-delete",
        "DELETE",
        "/api/service-requests/{own_open_request}",
        None,
        {"anonymous": 401, "client": 204, "provider": 403, "pending_provider": 403, "admin": 403},
    ),
    (
        "other-request-delete",
        "DELETE",
        "/api/service-requests/{other_open_request}",
        None,
        {"anonymous": 401, "client": 404, "provider": 403, "pending_provider": 403, "admin": 403},
    ),
    (
        "request-accept",
        "POST",
        "/api/service-requests/{other_open_request}/accept",
        None,
        {"anonymous": 401, "client": 404, "provider": 201, "pending_provider": 403, "admin": 403},
    ),
    (
        "own-request-accept",
        "POST",
        "/api/service-requests/{own_open_request}/accept",
        None,
        {"anonymous": 401, "client": 403, "provider": 201, "pending_provider": 403, "admin": 403},
    ),
    (
        "bookings-list",
        "GET",
        "/api/bookings",
        None,
        {"anonymous": 401, "client": 200, "provider": 200, "pending_provider": 200, "admin": 200},
    ),
    (
        "booking-read",
        "GET",
        "/api/bookings/{booking}",
        None,
        {"anonymous": 401, "client": 200, "provider": 200, "pending_provider": 404, "admin": 200},
    ),
    (
        "booking-cancel",
        "POST",
        "/api/bookings/{booking}/cancel",
        {"reason": "Plans changed"},
        {"anonymous": 401, "client": 200, "provider": 403, "pending_provider": 404, "admin": 403},
    ),
    (
        "booking-complete",
        "POST",
        "/api/bookings/{past_visit_booking}/complete",
        None,
        {"anonymous": 401, "client": 403, "provider": 200, "pending_provider": 404, "admin": 403},
    ),
    (
        "booking-review",
        "POST",
        "/api/bookings/{completed_booking}/review",
        {"rating": 5, "comment": "Wonderful"},
        {"anonymous": 401, "client": 201, "provider": 403, "pending_provider": 404, "admin": 403},
    ),
    (
        "admin-providers",
        "GET",
        "/api/admin/providers",
        None,
        {"anonymous": 401, "client": 403, "provider": 403, "pending_provider": 403, "admin": 200},
    ),
    (
        "admin-bookings",
        "GET",
        "/api/admin/bookings",
        None,
        {"anonymous": 401, "client": 403, "provider": 403, "pending_provider": 403, "admin": 200},
    ),
    (
        "admin-requests",
        "GET",
        "/api/admin/service-requests",
        None,
        {"anonymous": 401, "client": 403, "provider": 403, "pending_provider": 403, "admin": 200},
    ),
    (
        "admin-approve",
        "PUT",
        "/api/admin/providers/{pending_profile}/status",
        {"status": "verified"},
        {"anonymous": 401, "client": 403, "provider": 403, "pending_provider": 403, "admin": 200},
    ),
    (
        "admin-reassign",
        "PUT",
        "/api/admin/bookings/{booking}/reassign",
        "reassign",
        {"anonymous": 401, "client": 403, "provider": 403, "pending_provider": 403, "admin": 200},
    ),
    (
        "admin-cancel",
        "PUT",
        "/api/admin/bookings/{booking}/cancel",
        {"reason": "Provider is unwell"},
        {"anonymous": 401, "client": 403, "provider": 403, "pending_provider": 403, "admin": 200},
    ),
]

PARAMS = [
    pytest.param(method, url, body, role, expected[role], id=f"{case}-{role}")
    for case, method, url, body, expected in CASES
    for role in ROLES
]


@pytest.mark.parametrize(("method", "url", "body", "role", "expected"), PARAMS)
def test_permission_table_cell(client, world, method, url, body, role, expected):
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    url = url.format(**{name: obj.pk for name, obj in world.objects.items()})
    if body == "application":
        body = valid_application_body()
    elif body == "request":
        body = valid_request_body()
    elif body == "reassign":
        body = {"newProviderId": world.objects["other_provider"].pk, "reason": "Schedule conflict"}

    response = call(client, method, url, body)

    assert response.status_code == expected, response.content
    if expected >= 400:
        assert set(response.json()) == {"message", "errors"}


def test_pending_provider_accept_says_pending_verification(client, world):
    client.force_login(world.users["pending_provider"])
    response = call(client, "POST", f"/api/service-requests/{world.objects['other_open_request'].pk}/accept")
    assert response.status_code == 403
    assert "pending verification" in response.json()["message"]


def test_booked_provider_reads_the_request_they_are_booked_on(client, world):
    request = world.objects["other_booked_request"]
    client.force_login(request.bookings.get().provider.user)
    assert call(client, "GET", f"/api/service-requests/{request.pk}").status_code == 200
