"""The dashboard page: who gets it, the greeting and subtitle by role, and the island's props."""

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory, ReviewFactory
from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


def test_signed_out_visitor_gets_the_landing_page_at_root_and_login_for_dashboard(client):
    assert "dashboard-root" not in client.get("/").content.decode()
    response = client.get("/dashboard")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fdashboard"


@pytest.mark.parametrize("path", ["/", "/dashboard"])
def test_client_sees_the_client_dashboard(client, client_user, path):
    client.force_login(client_user)
    response = client.get(path)
    html = response.content.decode()
    assert response.status_code == 200
    assert "Welcome back, Clara!" in html
    assert "Your trusted home support dashboard" in html
    assert "/static/dist/assets/dashboard-" in html
    props = island_props(response, "dashboard-props")
    assert props["role"] == "client"
    assert props["user"] == {"id": client_user.pk, "firstName": "Clara", "userType": "client"}
    assert props["hasProviderProfile"] is False


def test_provider_sees_the_provider_subtitle(client, verified_provider):
    client.force_login(verified_provider.user)
    response = client.get("/")
    html = response.content.decode()
    assert "Welcome back, Vera!" in html
    assert "Manage your services and help seniors in your community" in html
    props = island_props(response, "dashboard-props")
    assert props["role"] == "provider"
    assert props["hasProviderProfile"] is True


def test_greeting_falls_back_to_there_without_a_first_name(client):
    user = UserFactory(first_name="")
    client.force_login(user)
    assert "Welcome back, there!" in client.get("/dashboard").content.decode()


def test_props_list_the_bookings_the_client_already_reviewed(client, client_user):
    reviewed = BookingFactory(service_request__client=client_user, status=BookingStatus.COMPLETED)
    ReviewFactory(booking=reviewed)
    BookingFactory(service_request__client=client_user, status=BookingStatus.COMPLETED)
    ReviewFactory()  # someone else's review
    client.force_login(client_user)
    props = island_props(client.get("/dashboard"), "dashboard-props")
    assert props["reviewedBookingIds"] == [reviewed.pk]


def test_user_name_is_escaped_in_the_greeting_and_props(client):
    user = UserFactory(first_name="<script>alert(1)</script>")
    client.force_login(user)
    html = client.get("/dashboard").content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "Welcome back, &lt;script&gt;alert(1)&lt;/script&gt;!" in html
