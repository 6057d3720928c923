"""/api/admin/* lists are searched, filtered, paged and counted by the server."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory, bulk_providers
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceCategoryFactory, ServiceRequestFactory

pytestmark = pytest.mark.django_db

LISTS = ["/api/admin/providers", "/api/admin/bookings", "/api/admin/service-requests", "/api/admin/summary"]


@pytest.fixture
def as_admin(client, admin_user):
    client.force_login(admin_user)
    return client


def ids(response) -> set[int]:
    assert response.status_code == 200, response.content
    return {row["id"] for row in response.json()}


# ---- who may ask ---------------------------------------------------------------------------------


@pytest.mark.parametrize("url", LISTS)
@pytest.mark.parametrize("who", ["client_user", "verified_provider"])
def test_non_admins_get_403(client, request, url, who):
    user = request.getfixturevalue(who)
    client.force_login(getattr(user, "user", user))
    response = client.get(url, {"search": "a"})
    assert response.status_code == 403
    assert response.json()["message"]


@pytest.mark.parametrize("url", LISTS)
def test_signed_out_callers_get_401(client, db, url):
    assert client.get(url).status_code == 401


# ---- providers -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("search", "found"),
    [
        ("pAt", {"pat"}),  # first name, any case
        ("PENDING", {"pat"}),  # last name
        ("pat pending", {"pat"}),  # full name
        ("@helpers.ORG", {"vic"}),  # email
        ("home-organization", {"pat"}),  # specialty id
        ("home org", {"pat"}),  # specialty name
        ("technology", {"vic", "rita"}),  # service name of tech-support
        ("nobody", set()),
    ],
)
def test_provider_search_covers_names_email_and_specialties(as_admin, search, found):
    people = {
        "pat": ProviderFactory(
            user__first_name="Pat",
            user__last_name="Pending",
            user__email="pat@example.com",
            specialties=["home-organization"],
        ),
        "vic": VerifiedProviderFactory(
            user__first_name="Vic",
            user__last_name="Verified",
            user__email="vic@helpers.org",
            specialties=["tech-support"],
        ),
        "rita": ProviderFactory(
            user__first_name="Rita",
            user__last_name="Rejected",
            verification_status=VerificationStatus.REJECTED,
            specialties=["tech-support", "light-errands"],
        ),
    }
    response = call(as_admin, "GET", f"/api/admin/providers?search={search.replace(' ', '+')}")
    assert ids(response) == {people[name].pk for name in found}
    assert response["X-Total-Count"] == str(len(found))


def test_provider_bio_is_not_searched_by_the_admin_box(as_admin):
    ProviderFactory(bio="Expert gardener with fifty years of practice in the community garden.")
    assert ids(as_admin.get("/api/admin/providers", {"search": "gardener"})) == set()


def test_providers_page_through_300_with_the_total_in_a_header(as_admin):
    bulk_providers(300, status=VerificationStatus.PENDING, prefix="Pending")
    seen: list[int] = []
    for offset in range(0, 300, 40):
        response = as_admin.get("/api/admin/providers", {"status": "pending", "limit": 40, "offset": offset})
        assert response["X-Total-Count"] == "300"
        seen += [row["id"] for row in response.json()]
    assert len(seen) == len(set(seen)) == 300


def test_the_link_header_points_to_the_next_and_previous_pages(as_admin):
    bulk_providers(25, status=VerificationStatus.PENDING, prefix="Pending")
    first = as_admin.get("/api/admin/providers", {"search": "pending", "limit": 10})
    assert first["Link"] == '<http://testserver/api/admin/providers?limit=10&offset=10&search=pending>; rel="next"'
    middle = as_admin.get("/api/admin/providers", {"search": "pending", "limit": 10, "offset": 10})
    assert 'offset=20&search=pending>; rel="next"' in middle["Link"]
    assert '<http://testserver/api/admin/providers?limit=10&search=pending>; rel="prev"' in middle["Link"]
    last = as_admin.get("/api/admin/providers", {"search": "pending", "limit": 10, "offset": 20})
    assert 'rel="next"' not in last["Link"]
    assert "Link" not in as_admin.get("/api/admin/providers", {"search": "pending"})  # one page


def test_search_and_status_combine_and_count(as_admin):
    bulk_providers(30, status=VerificationStatus.VERIFIED, prefix="Vera")
    bulk_providers(20, status=VerificationStatus.PENDING, prefix="Vera")
    bulk_providers(10, status=VerificationStatus.PENDING, prefix="Otto")
    response = as_admin.get("/api/admin/providers", {"search": "vera", "status": "pending", "limit": 5})
    assert response["X-Total-Count"] == "20"
    assert len(response.json()) == 5
    assert {row["verificationStatus"] for row in response.json()} == {"pending"}
    assert all(row["user"]["firstName"] == "Vera" for row in response.json())


@pytest.mark.parametrize(
    ("url", "query", "field"),
    [
        ("/api/admin/providers", {"status": "approved"}, "status"),
        ("/api/admin/bookings", {"status": "done"}, "status"),
        ("/api/admin/bookings", {"date": "tomorrow"}, "date"),
        ("/api/admin/service-requests", {"status": "pending"}, "status"),
        ("/api/admin/providers", {"search": "x" * 201}, "search"),
    ],
)
def test_bad_filters_are_a_400_naming_the_field(as_admin, url, query, field):
    response = as_admin.get(url, query)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == [field]


# ---- bookings --------------------------------------------------------------------------------------


@pytest.fixture
def bookings(db):
    vera = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Lang", user__email="vera@helpers.org")
    today = timezone.localdate()
    return {
        "clara": BookingFactory(
            provider=vera,
            service_request__client=UserFactory(first_name="Clara", last_name="Brown", email="clara@example.com"),
            service_request__title="Set up my tablet",
            status=BookingStatus.CONFIRMED,
            scheduled_date=today,
        ),
        "otto": BookingFactory(
            service_request__client=UserFactory(first_name="Otto", last_name="Weiss", email="otto@example.com"),
            service_request__title="Groceries on Tuesday",
            status=BookingStatus.CANCELLED,
            scheduled_date=today + dt.timedelta(days=3),
        ),
    }


@pytest.mark.parametrize(
    ("search", "found"),
    [
        ("clara brown", {"clara"}),  # the client
        ("OTTO@EXAMPLE", {"otto"}),  # the client's email
        ("vera lang", {"clara"}),  # the provider
        ("groceries", {"otto"}),  # the request's title
        ("nobody", set()),
    ],
)
def test_booking_search(as_admin, bookings, search, found):
    assert ids(as_admin.get("/api/admin/bookings", {"search": search})) == {bookings[k].pk for k in found}


def test_booking_search_by_id_and_filters(as_admin, bookings):
    clara, otto = bookings["clara"], bookings["otto"]
    assert ids(as_admin.get("/api/admin/bookings", {"search": f"#{otto.pk}"})) == {otto.pk}
    assert ids(as_admin.get("/api/admin/bookings", {"status": "cancelled"})) == {otto.pk}
    assert ids(as_admin.get("/api/admin/bookings", {"date": timezone.localdate().isoformat()})) == {clara.pk}


# ---- service requests ------------------------------------------------------------------------------


def test_service_request_search_and_status(as_admin):
    errands = ServiceCategoryFactory(slug="light-errands", name="Light Errands")
    # No digit in the other request's text (the factories number titles and emails): the search by
    # the shopping request's id must not also find it by a "#18" or a "user18@" that happens to hold it.
    phone = ServiceRequestFactory(
        client=UserFactory(first_name="Mabel", last_name="Stone", email="mabel.stone@example.com"),
        title="Help with my phone",
        description="Please help me with my new phone.",
    )
    shop = ServiceRequestFactory(category=errands, status=RequestStatus.COMPLETED, title="Pharmacy pickup")
    assert ids(as_admin.get("/api/admin/service-requests", {"search": "mabel stone"})) == {phone.pk}
    assert ids(as_admin.get("/api/admin/service-requests", {"search": "NEW PHONE"})) == {phone.pk}
    assert ids(as_admin.get("/api/admin/service-requests", {"search": "light errands"})) == {shop.pk}
    assert ids(as_admin.get("/api/admin/service-requests", {"search": "pharmacy"})) == {shop.pk}
    assert ids(as_admin.get("/api/admin/service-requests", {"search": str(shop.pk)})) == {shop.pk}
    assert ids(as_admin.get("/api/admin/service-requests", {"status": "completed"})) == {shop.pk}
    assert ids(as_admin.get("/api/admin/service-requests", {"status": "open"})) == {phone.pk}


# ---- counts ----------------------------------------------------------------------------------------


def test_summary_counts_every_record_in_three_queries(as_admin, bookings, django_assert_num_queries):
    bulk_providers(7, status=VerificationStatus.PENDING, prefix="Pia")
    bulk_providers(2, status=VerificationStatus.REJECTED, prefix="Rex")
    ServiceRequestFactory(status=RequestStatus.COMPLETED)
    ServiceRequestFactory()  # open
    # Three verified: Vera and the two bookings' providers (one of them Vera).
    # + the session, the user and the device the session passed the second step with (django-otp)
    with django_assert_num_queries(3 + 3):
        response = as_admin.get("/api/admin/summary")
    assert response.status_code == 200
    assert response.json() == {
        "providers": {"pending": 7, "verified": 2, "rejected": 2, "total": 11},
        "bookings": {"total": 2, "confirmed": 1, "cancelled": 1},
        "serviceRequests": {"total": 4, "open": 1, "completed": 1},
    }


def test_the_admin_page_renders_the_counts_in_its_props(as_admin):
    bulk_providers(3, status=VerificationStatus.PENDING, prefix="Pia")
    response = as_admin.get("/admin")
    assert response.status_code == 200
    assert '"pending": 3' in response.content.decode()


@pytest.mark.parametrize(
    ("url", "query"),
    [
        ("/api/admin/providers", {"search": "helper", "status": "verified"}),
        ("/api/admin/bookings", {"search": "helper"}),
        ("/api/admin/service-requests", {"search": "tablet", "status": "open"}),
    ],
)
def test_a_searched_page_costs_the_same_queries_for_5_or_60_rows(as_admin, url, query):
    """A full page also counts the matches (one COUNT): still a fixed number of queries."""
    counts = []
    for rows in (5, 60):
        providers = bulk_providers(rows, prefix="Helper")
        for provider in providers[: rows // 5]:
            BookingFactory(provider=provider)
        ServiceRequestFactory.create_batch(rows // 5)
        with CaptureQueriesContext(connection) as queries:
            response = as_admin.get(url, {**query, "limit": 10})
        assert response.status_code == 200
        assert len(response.json()) > 0
        counts.append(len(queries))
    assert counts[0] <= counts[1] <= counts[0] + 1  # + the COUNT once the page is full
