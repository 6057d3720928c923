"""The provider shapes build their dict directly (issue 8): same output as DRF's generic path, for
the public listing (anyone), the own profile and the admin list."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import AdminUserFactory, UserFactory
from accounts.tests.representation import assert_same_output, assert_same_response
from providers.api.serializers import ProviderSerializer, PublicProviderSerializer
from providers.models import Provider, VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def providers():
    return [
        VerifiedProviderFactory(
            rating=Decimal("4.90"),
            total_reviews=12,
            availability={"monday": ["morning", "afternoon"], "notes": None},
            user__profile_image_url="https://img.example/p.png",
        ),
        VerifiedProviderFactory(hourly_rate=None, specialties=[], bio="", experience="", service_area=""),
        VerifiedProviderFactory(hourly_rate=Decimal("100.00"), rating=Decimal("0"), user__first_name=""),
        ProviderFactory(),
        ProviderFactory(verification_status=VerificationStatus.REJECTED, is_active=False),
    ]


@pytest.mark.parametrize("signed_in", [None, "client", "admin"])
@pytest.mark.parametrize("sort", ["rating", "rate-low", "reviews"])
def test_browse_answers_the_same_bytes_as_drf_for_anyone(client, providers, signed_in, sort):
    if signed_in == "client":
        client.force_login(UserFactory())
    elif signed_in == "admin":
        client.force_login(AdminUserFactory())
    listed = assert_same_response(client, f"/api/providers?verified=true&sort={sort}")
    assert len(listed) == 3
    assert all("email" not in row["user"] and "phone" not in row for row in listed)


def test_own_profile_and_admin_list_answer_the_same_bytes_as_drf(client, providers):
    for provider in providers:
        client.force_login(provider.user)
        body = assert_same_response(client, "/api/provider/profile")
        assert body["phone"] == provider.phone
        assert body["user"]["email"] == provider.user.email
    client.force_login(AdminUserFactory())
    assert len(assert_same_response(client, "/api/admin/providers")) == 5


def test_serializers_equal_drf_for_every_provider_and_unsaved_values(providers):
    rows = list(Provider.objects.select_related("user").order_by("pk"))
    assert_same_output(lambda: PublicProviderSerializer(rows, many=True).data)
    assert_same_output(lambda: ProviderSerializer(rows, many=True).data)
    fresh = providers[0]
    fresh.hourly_rate = Decimal("35")
    fresh.rating = Decimal("4.5")
    fresh.updated_at = dt.datetime(2026, 6, 1, 12, 0, tzinfo=dt.UTC)
    for zone in ("UTC", "America/New_York"):
        with timezone.override(zone):
            assert_same_output(lambda: PublicProviderSerializer(fresh).data)
            assert_same_output(lambda: ProviderSerializer(fresh).data)


def test_list_rows_are_built_without_drf_fields(providers):
    serializer = PublicProviderSerializer(list(Provider.objects.select_related("user")), many=True)
    assert len(serializer.data) == 5
    assert "fields" not in vars(serializer.child)
