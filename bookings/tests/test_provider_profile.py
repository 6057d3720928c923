"""A helper's profile as a family sees it (GET /api/providers/{id}/profile and the /providers/{id}
page): what was checked and when, never a check without a date, never where she lives; only a
verified, active helper's for everyone signed in, another's for staff and herself alone."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory, ReviewFactory
from marketplace.testing.api import call
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory

pytestmark = pytest.mark.django_db

CHECKED_ID = dt.datetime(2026, 3, 14, 15, 0, tzinfo=dt.UTC)
CHECKED_BACKGROUND = dt.datetime(2026, 4, 2, 9, 30, tzinfo=dt.UTC)


@pytest.fixture
def helper():
    return VerifiedProviderFactory(
        user__first_name="Rosa",
        user__last_name="Delgado",
        home_zip="62704",
        service_area="Springfield and Chatham",
        identity_verified_at=CHECKED_ID,
        background_checked_at=CHECKED_BACKGROUND,
    )


def test_a_family_reads_the_dates_of_her_checks_her_visits_and_reviews(client, client_user, helper):
    for status in (BookingStatus.COMPLETED, BookingStatus.COMPLETED, BookingStatus.CONFIRMED):
        BookingFactory(provider=helper, status=status)
    ReviewFactory(booking__provider=helper, rating=4, comment="Patient with my mother's tablet.")
    ReviewFactory(booking__provider=helper, comment="Hidden one.", is_public=False)
    client.force_login(client_user)

    response = call(client, "GET", f"/api/providers/{helper.pk}/profile")

    assert response.status_code == 200
    profile = response.json()
    assert profile["user"]["firstName"] == "Rosa" and profile["user"]["lastName"] == "Delgado"
    assert profile["identityVerifiedAt"] == "2026-03-14T11:00:00-04:00"
    assert profile["backgroundCheckedAt"] == "2026-04-02T05:30:00-04:00"
    assert profile["serviceArea"] == "Springfield and Chatham"
    assert profile["hourlyRate"] == 30.0 and profile["specialties"] == ["tech-support", "light-errands"]
    # Her completed visits (the review's booking is a fourth, not completed); public reviews only.
    assert profile["visitsCompleted"] == 2
    assert [r["comment"] for r in profile["reviews"]] == ["Patient with my mother's tablet."]
    assert profile["reviews"][0]["reviewer"]["lastName"].endswith(".")


def test_where_she_lives_and_how_to_reach_her_are_never_in_it(client, client_user, helper):
    client.force_login(client_user)
    text = call(client, "GET", f"/api/providers/{helper.pk}/profile").content.decode()
    for private in ("62704", helper.phone, helper.user.email, "homeZip", "latitude", "travelMiles"):
        assert private not in text


def test_a_helper_without_evidence_has_no_dates(client, client_user):
    unchecked = VerifiedProviderFactory()
    client.force_login(client_user)
    profile = call(client, "GET", f"/api/providers/{unchecked.pk}/profile").json()
    assert profile["identityVerifiedAt"] is None and profile["backgroundCheckedAt"] is None


@pytest.mark.parametrize(
    "fields",
    [
        {"verification_status": VerificationStatus.PENDING},
        {"verification_status": VerificationStatus.REJECTED},
        {"verification_status": VerificationStatus.VERIFIED, "is_active": False},
    ],
    ids=["pending", "rejected", "inactive"],
)
def test_a_helper_not_shown_to_families_is_404_except_to_staff_and_herself(
    client, client_user, verified_provider, admin_user, fields
):
    hidden = ProviderFactory(**fields)
    for viewer in (client_user, verified_provider.user):
        client.force_login(viewer)
        assert call(client, "GET", f"/api/providers/{hidden.pk}/profile").status_code == 404
        assert client.get(f"/providers/{hidden.pk}").status_code == 404
    for viewer in (admin_user, hidden.user):
        client.force_login(viewer)
        assert call(client, "GET", f"/api/providers/{hidden.pk}/profile").status_code == 200
        assert client.get(f"/providers/{hidden.pk}").status_code == 200


def test_signed_out_the_api_says_401_and_the_page_asks_to_sign_in(client, helper):
    assert call(client, "GET", f"/api/providers/{helper.pk}/profile").status_code == 401
    page = client.get(f"/providers/{helper.pk}")
    assert page.status_code == 302 and page["Location"].startswith("/login")


def test_no_such_helper_is_404(client, client_user):
    client.force_login(client_user)
    assert call(client, "GET", "/api/providers/999999/profile").status_code == 404
    assert client.get("/providers/999999").status_code == 404


def test_the_page_carries_the_same_profile_as_the_api(client, client_user, helper):
    client.force_login(client_user)
    page = client.get(f"/providers/{helper.pk}")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<title>Rosa Delgado - Kindly helper</title>" in html
    props = json.loads(re.search(r'<script id="provider-profile-props"[^>]*>(.*?)</script>', html, re.S)[1])
    assert props["profile"] == call(client, "GET", f"/api/providers/{helper.pk}/profile").json()


def test_the_booking_card_carries_the_badge_dates(client, client_user, helper):
    BookingFactory(provider=helper, service_request__client=client_user, status=BookingStatus.CONFIRMED)
    client.force_login(client_user)
    (booking,) = call(client, "GET", "/api/bookings").json()
    assert booking["provider"]["identityVerifiedAt"] == "2026-03-14T11:00:00-04:00"
    assert booking["provider"]["backgroundCheckedAt"] == "2026-04-02T05:30:00-04:00"
