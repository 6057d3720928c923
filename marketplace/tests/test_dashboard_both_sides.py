"""A person who is both a client and a helper keeps her client side (ARCHITECTURE.md "Roles and
what the server allows"): applying to be a provider turns the dashboard to the helper view, which
says what she has as a client, and ?view=client shows her own requests and bookings (payable)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.models import UserType
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call, valid_application_body
from marketplace.testing.pages import island_props
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def _props(client, query: str = "") -> dict:
    return island_props(client.get("/dashboard" + query), "dashboard-props")


@pytest.fixture
def unpaid_booking(client_user):
    return BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=5),
        status=BookingStatus.SCHEDULED,
        payment_status=PaymentStatus.PENDING,
    )


def test_a_client_who_applies_is_told_of_her_unpaid_booking_in_the_helper_view(client, client_user, unpaid_booking):
    ServiceRequestFactory(client=client_user, title="Still open")
    client.force_login(client_user)
    assert call(client, "POST", "/api/provider/profile", valid_application_body()).status_code == 201

    props = _props(client)

    assert props["role"] == "provider"
    assert props["initial"]["view"] == "provider"
    assert props["initial"]["views"] == ["provider", "client"]
    assert props["initial"]["clientSide"] == {"requests": 1, "bookings": 1, "unpaid": 1}
    assert call(client, "GET", "/api/dashboard").json()["clientSide"] == props["initial"]["clientSide"]


def test_the_client_view_of_a_provider_account_lists_her_own_bookings_and_requests(client, client_user, unpaid_booking):
    own_request = ServiceRequestFactory(client=client_user, title="Still open")
    client.force_login(client_user)
    call(client, "POST", "/api/provider/profile", valid_application_body())
    client_user.refresh_from_db()
    assert client_user.user_type == UserType.PROVIDER

    props = _props(client, "?view=client")
    api = call(client, "GET", "/api/dashboard?view=client").json()

    assert props["role"] == "client"
    assert [b["id"] for b in props["initial"]["bookings"]] == [unpaid_booking.pk]
    assert props["initial"]["bookings"][0]["circleRole"] == "organizer"  # she may still pay it
    assert {r["id"] for r in props["initial"]["requests"]} == {own_request.pk, unpaid_booking.service_request_id}
    assert props["initial"]["clientSide"] is None
    assert props["initial"]["tiles"] is None
    assert api == props["initial"] | {"unread": api["unread"]}


def test_the_helper_view_says_nothing_of_a_client_side_she_does_not_have(client, verified_provider):
    client.force_login(verified_provider.user)
    initial = _props(client)["initial"]
    assert (initial["view"], initial["clientSide"]) == ("provider", None)


def test_a_client_without_a_provider_profile_cannot_ask_for_the_helper_view(client, client_user, unpaid_booking):
    client.force_login(client_user)
    initial = _props(client, "?view=provider")["initial"]
    assert (initial["view"], initial["views"], initial["tiles"]) == ("client", ["client"], None)
    assert [b["id"] for b in initial["bookings"]] == [unpaid_booking.pk]


def test_the_dashboard_api_refuses_a_view_that_is_neither_side(client, client_user):
    client.force_login(client_user)
    response = call(client, "GET", "/api/dashboard?view=admin")
    assert response.status_code == 400
    assert response.json()["errors"] == {"view": ["Choose client or provider."]}


def test_the_payouts_card_is_the_helper_views_only(client, verified_provider):
    BookingFactory(service_request__client=verified_provider.user, status=BookingStatus.SCHEDULED)
    client.force_login(verified_provider.user)
    assert 'data-testid="payouts-card"' in client.get("/dashboard").content.decode()
    assert 'data-testid="payouts-card"' not in client.get("/dashboard?view=client").content.decode()
