"""the dashboard page carries its island's first data (the API's own shapes), and
GET /api/dashboard answers the same for the island's refreshes; the provider's tiles are counts
over all their bookings, not over a page of them."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from marketplace.testing.pages import island_props
from messaging.tests.factories import SystemMessageFactory
from providers.tests.factories import ProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def _initial(client) -> dict:
    return island_props(client.get("/dashboard"), "dashboard-props")["initial"]


def test_completed_counts_every_visit_beyond_the_first_page_of_fifty(client, verified_provider):
    BookingFactory.create_batch(55, provider=verified_provider, status=BookingStatus.COMPLETED)
    BookingFactory.create_batch(2, provider=verified_provider, status=BookingStatus.SCHEDULED)
    BookingFactory(provider=verified_provider, status=BookingStatus.CONFIRMED)
    BookingFactory(status=BookingStatus.COMPLETED)  # another provider's
    client.force_login(verified_provider.user)

    assert _initial(client)["tiles"] == {"today": 0, "completed": 55}
    assert call(client, "GET", "/api/dashboard").json()["tiles"] == {"today": 0, "completed": 55}
    # The bookings list API still answers one page of 50.
    assert len(call(client, "GET", "/api/bookings").json()) == 50


def test_the_client_gets_the_first_three_of_the_apis_lists_and_the_unread_count(client, client_user):
    for _ in range(4):
        BookingFactory(service_request__client=client_user, status=BookingStatus.SCHEDULED)
        ServiceRequestFactory(client=client_user)
    ServiceRequestFactory()  # someone else's
    SystemMessageFactory.create_batch(2, receiver=client_user)
    client.force_login(client_user)

    initial = _initial(client)
    assert initial["bookings"] == call(client, "GET", "/api/bookings").json()[:3]
    assert initial["requests"] == call(client, "GET", "/api/service-requests?limit=3").json()
    assert (initial["tiles"], initial["unread"]) == (None, 2)
    assert isinstance(initial["bookings"][0]["totalAmount"], float)  # money as numbers, as the API sends it
    assert call(client, "GET", "/api/dashboard").json() == initial


def test_a_provider_gets_the_visits_they_make_and_open_requests_of_others(client, verified_provider):
    visit = BookingFactory(provider=verified_provider, status=BookingStatus.CONFIRMED)
    BookingFactory(service_request__client=verified_provider.user)  # booked by them as a client
    ServiceRequestFactory(client=verified_provider.user, title="My own request")
    open_requests = ServiceRequestFactory.create_batch(4)
    client.force_login(verified_provider.user)

    initial = _initial(client)
    assert [b["id"] for b in initial["bookings"]] == [visit.pk]
    assert initial["requests"] == call(client, "GET", "/api/service-requests?limit=3").json()
    assert {r["id"] for r in initial["requests"]} <= {r.pk for r in open_requests}
    assert initial["requests"][0]["client"].keys() == {"id", "firstName", "lastName"}  # first name + initial
    assert initial["tiles"] == {"today": 0, "completed": 0}


@pytest.mark.parametrize(
    "make_account",
    [lambda: ProviderFactory().user, lambda: UserFactory(user_type="provider")],
    ids=["pending", "switched"],
)
def test_an_unvetted_provider_account_gets_no_open_requests(client, make_account):
    ServiceRequestFactory.create_batch(2)
    client.force_login(make_account())
    assert _initial(client)["requests"] == []
    assert call(client, "GET", "/api/dashboard").json()["requests"] == []


def test_the_page_reads_its_data_in_a_fixed_number_of_queries(client, verified_provider, django_assert_max_num_queries):
    for _ in range(5):
        BookingFactory(provider=verified_provider, status=BookingStatus.COMPLETED)
        ServiceRequestFactory()
    client.force_login(verified_provider.user)
    # 8, one for a verified provider's payouts card (payments.selectors.payout_card), one for
    # when the next request sent to another provider opens to all (the cached lists expire then),
    # one for what she has as a client (bookings.selectors.client_side_counts), and five for the
    # open requests she can take (her profile, hours, time off, visits, the rows she can take:
    # requests_app.selectors.lists._open_of_others), read once whatever their number, and one for the
    # visits whose helper left offered to her (bookings.selectors.replacement_offers_for).
    with django_assert_max_num_queries(17):
        assert client.get("/dashboard").status_code == 200


def test_the_dashboard_api_needs_a_signed_in_user(client):
    response = call(client, "GET", "/api/dashboard")
    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized", "errors": {}}
