"""Providers: public listing (search, filter, sorts in the database), own profile, application rules."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import UserType
from marketplace.testing.api import call, valid_application_body
from providers.models import Provider, VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory

# The listing's queries (specialties in a JSON list, sorts with NULLS LAST) run on SQLite too.
pytestmark = pytest.mark.sqlite


@pytest.fixture
def listed(db):
    return {
        "alice": VerifiedProviderFactory(
            bio="Patient helper with smartphones and tablets, fifty years of kindness in my pocket.",
            service_area="North Springfield",
            specialties=["tech-support"],
            hourly_rate=Decimal("40"),
            rating=Decimal("4.90"),
            total_reviews=3,
        ),
        "bob": VerifiedProviderFactory(
            bio="Former nurse. I check in on seniors and keep families updated every single week.",
            service_area="Shelbyville",
            specialties=["wellness-checks", "appointment-support"],
            hourly_rate=Decimal("25"),
            rating=Decimal("4.50"),
            total_reviews=12,
        ),
        "cara": VerifiedProviderFactory(
            bio="Organised and cheerful: decluttering, sorting mail, and errands around town.",
            service_area="Capital City",
            specialties=["home-organization", "light-errands"],
            hourly_rate=Decimal("30"),
            rating=Decimal("4.80"),
            total_reviews=7,
        ),
        "pending": ProviderFactory(service_area="Shelbyville"),
        "inactive": VerifiedProviderFactory(is_active=False, service_area="Shelbyville"),
    }


def _ids(client, query=""):
    response = call(client, "GET", f"/api/providers{query}")
    assert response.status_code == 200, response.content
    return [p["id"] for p in response.json()]


def test_public_listing_shows_only_verified_active_providers_without_email_or_phone(client, listed):
    response = call(client, "GET", "/api/providers?verified=true")
    assert {p["id"] for p in response.json()} == {listed[n].pk for n in ("alice", "bob", "cara")}
    first = response.json()[0]
    assert "phone" not in first
    assert set(first["user"]) == {"id", "firstName", "lastName", "profileImageUrl"}
    assert first["hourlyRate"] == 40
    assert response["X-Total-Count"] == "3"


@pytest.mark.parametrize(
    ("search", "names"),
    [
        ("TABLETS", ["alice"]),  # bio, case-insensitive
        ("shelbyville", ["bob"]),  # service area
        ("Light-Errands", ["cara"]),  # specialty id
        ("organization", ["cara"]),  # specialty name ("Home Organization")
        ("wellness", ["bob"]),
        ("nobody here", []),
    ],
)
def test_search_matches_bio_service_area_and_specialties(client, listed, search, names):
    assert _ids(client, f"?search={search}") == [listed[n].pk for n in names]


def test_specialty_filter_and_the_four_sorts(client, listed):
    assert _ids(client, "?specialty=appointment-support") == [listed["bob"].pk]
    order = {
        "rating": ["alice", "cara", "bob"],
        "reviews": ["bob", "cara", "alice"],
        "rate-low": ["bob", "cara", "alice"],
        "rate-high": ["alice", "cara", "bob"],
    }
    for sort, names in order.items():
        assert _ids(client, f"?sort={sort}") == [listed[n].pk for n in names], sort
    assert _ids(client) == [listed[n].pk for n in order["rating"]]


@pytest.mark.parametrize(
    ("specialty", "names"),
    [
        ("tech-support", ["alice"]),
        ("wellness-checks", ["bob"]),
        ("appointment-support", ["bob"]),
        ("home-organization", ["cara"]),
        ("light-errands", ["cara"]),
        ("communication-support", []),  # ends like tech-support and appointment-support: matches neither
    ],
)
def test_each_specialty_filters_exactly_its_providers(client, listed, specialty, names):
    assert _ids(client, f"?specialty={specialty}") == [listed[n].pk for n in names]


def test_specialty_filter_with_a_search_and_a_sort(client, listed):
    dora = VerifiedProviderFactory(
        bio="Errands and groceries.", service_area="Shelbyville", specialties=["light-errands"], rating=Decimal("5")
    )
    assert _ids(client, "?specialty=light-errands&sort=rating") == [dora.pk, listed["cara"].pk]
    assert _ids(client, "?specialty=light-errands&search=shelbyville") == [dora.pk]
    assert _ids(client, "?specialty=wellness-checks&search=shelbyville") == [listed["bob"].pk]
    assert _ids(client, "?specialty=tech-support&search=shelbyville") == []


@pytest.mark.parametrize(
    "query", ["?sort=cheapest", "?specialty=gardening", "?verified=yes", "?verified=", "?limit=0", "?offset=x"]
)
def test_bad_listing_queries_are_400(client, listed, query):
    response = call(client, "GET", f"/api/providers{query}")
    assert response.status_code == 400
    assert set(response.json()) == {"message", "errors"}


def test_apply_creates_a_pending_profile_and_makes_the_user_a_provider(client, client_user):
    client.force_login(client_user)
    assert call(client, "GET", "/api/provider/profile").status_code == 404

    response = call(client, "POST", "/api/provider/profile", valid_application_body())

    assert response.status_code == 201, response.content
    provider = Provider.objects.get(user=client_user)
    assert provider.verification_status == VerificationStatus.PENDING
    assert provider.hourly_rate == Decimal("35")
    assert provider.specialties == ["tech-support", "wellness-checks"]
    client_user.refresh_from_db()
    assert client_user.user_type == UserType.PROVIDER
    own = call(client, "GET", "/api/provider/profile").json()
    assert (own["phone"], own["user"]["email"], own["verificationStatus"]) == (
        "555-123-4567",
        client_user.email,
        "pending",
    )
    second = call(client, "POST", "/api/provider/profile", valid_application_body())
    assert second.status_code == 409
    assert Provider.objects.filter(user=client_user).count() == 1


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("phone", "555-1234", "Phone number must be at least 10 digits"),
        ("specialties", [], "Please select at least one specialty"),
        ("hourlyRate", None, "Please enter your hourly rate"),
        ("hourlyRate", 10, "Hourly rate must be between $15 and $100"),
        ("hourlyRate", 105, "Hourly rate must be between $15 and $100"),
        ("hourlyRate", 32, "Hourly rate must be a multiple of $5"),
        ("serviceArea", "", "Please enter your service area"),
        ("bio", "Too short a bio.", "Please provide a detailed bio (at least 50 characters)"),
        ("experience", "Some.", "Please describe your experience"),
        ("specialties", ["gardening"], None),
        ("hourlyRate", "35", None),
        ("phone", 5551234567, None),
    ],
)
def test_application_rules_use_the_spec_messages(client, client_user, field, value, message):
    client.force_login(client_user)
    response = call(client, "POST", "/api/provider/profile", valid_application_body(**{field: value}))
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert [key.split(".")[0] for key in errors] == [field]
    if message:
        assert errors[field] == [message]
    assert not Provider.objects.filter(user=client_user).exists()


def test_missing_specialties_uses_the_spec_message(client, client_user):
    client.force_login(client_user)
    body = valid_application_body()
    del body["specialties"]
    response = call(client, "POST", "/api/provider/profile", body)
    assert response.json()["errors"] == {"specialties": ["Please select at least one specialty"]}


def test_reviews_of_an_unverified_provider_are_not_public(client, listed):
    assert call(client, "GET", f"/api/providers/{listed['pending'].pk}/reviews").status_code == 404
    assert call(client, "GET", f"/api/providers/{listed['alice'].pk}/reviews").json() == []
