"""ServiceRequestSerializer builds its dict directly (issue 8): same output as DRF's generic path
for every viewer, and for nulls, decimals, dates and datetimes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import RequestFactory
from django.utils import timezone

from accounts.tests.factories import AdminUserFactory, UserFactory
from accounts.tests.representation import assert_same_output, assert_same_response, fast_serializer_classes
from bookings.tests.factories import BookingFactory
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app import selectors
from requests_app.api.serializers import CategorySummarySerializer, ServiceRequestSerializer
from requests_app.models import RequestStatus, TimeWindow, Urgency
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Two clients' requests in every state and shape, a booked provider, a pending provider, an admin."""
    alice = UserFactory(first_name="Alice", profile_image_url="https://img.example/a.png")
    bob = UserFactory(first_name="", last_name="")
    booked_provider = VerifiedProviderFactory()
    requests = [
        ServiceRequestFactory(client=alice, max_budget=Decimal("45.50"), special_requirements="Stairs"),
        ServiceRequestFactory(
            client=alice,
            category=None,
            preferred_date=None,
            preferred_time="",
            max_budget=None,
            urgency=Urgency.URGENT,
            location="",
        ),
        ServiceRequestFactory(client=alice, status=RequestStatus.CANCELLED, max_budget=Decimal("0")),
        ServiceRequestFactory(client=bob, preferred_time=TimeWindow.EVENING, max_budget=Decimal("999999.99")),
    ]
    booking = BookingFactory(service_request__client=alice, provider=booked_provider)
    completed = BookingFactory(service_request__client=bob, provider=booked_provider)
    completed.service_request.status = RequestStatus.COMPLETED
    completed.service_request.save()
    with_profile = ProviderFactory(user=UserFactory()).user  # a client account with a provider profile
    requests.append(ServiceRequestFactory(client=with_profile))
    return {
        "alice": alice,
        "bob": bob,
        "booked_provider": booked_provider.user,
        "other_provider": VerifiedProviderFactory().user,
        "pending_provider": ProviderFactory().user,
        "client_with_profile": with_profile,
        "admin": AdminUserFactory(),
        "request_ids": [r.pk for r in requests] + [booking.service_request_id, completed.service_request_id],
    }


VIEWERS = ["alice", "bob", "booked_provider", "other_provider", "pending_provider", "client_with_profile", "admin"]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_request_list_and_details_answer_the_same_bytes_as_drf_for_every_viewer(client, world, viewer):
    client.force_login(world[viewer])
    listed = assert_same_response(client, "/api/service-requests")
    if viewer == "pending_provider":
        assert listed == [], "no open request of anyone before the profile is verified"
    else:
        assert listed, "each viewer sees some requests"
    for pk in world["request_ids"]:
        response = client.get(f"/api/service-requests/{pk}")
        if response.status_code == 200:
            assert_same_response(client, f"/api/service-requests/{pk}")


def test_admin_list_answers_the_same_bytes_as_drf(client, world):
    client.force_login(world["admin"])
    assert len(assert_same_response(client, "/api/admin/service-requests")) == len(world["request_ids"])


@pytest.mark.parametrize("viewer", VIEWERS)
def test_serializer_output_equals_drf_for_each_selector_row(world, viewer):
    user = world[viewer]
    request = RequestFactory().get("/")
    request.user = user
    rows = list(selectors.service_request_visible(user=user).order_by("pk"))
    if viewer == "pending_provider":
        assert rows == []  # not verified yet: nothing of anyone else's
        return
    assert rows

    def produce():
        return ServiceRequestSerializer(rows, many=True, context={"request": request}).data

    data = assert_same_output(produce)
    # The viewer-dependent parts really differ between rows and viewers (the comparison covers them).
    if viewer == "alice":
        assert {row["location"] for row in data} >= {"12 Elm Street, Springfield", ""}
        assert all("email" in row["client"] for row in data if row["clientId"] == user.pk)
    if viewer == "other_provider":
        assert all(row["status"] == "open" and row["location"] is not None for row in data)
        assert all(row["specialRequirements"] is not None for row in data)
        assert all(set(row["client"]) == {"id", "firstName", "lastName"} for row in data)
        assert {row["client"]["lastName"] for row in data} <= {"", *(f"{c}." for c in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
    if viewer == "admin":
        assert all(row["location"] is None and "email" in row["client"] for row in data)
        assert all(row["specialRequirements"] is None for row in data)


def test_unsaved_values_are_formatted_like_drf(world):
    """Values as a service hands them over before a reload: Decimal('7'), an aware UTC datetime."""
    request = RequestFactory().get("/")
    request.user = world["alice"]
    row = selectors.service_request_visible(user=world["alice"]).order_by("pk").first()
    row.max_budget = Decimal("7")
    row.created_at = dt.datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=dt.UTC)
    for zone in ("UTC", "America/New_York"):
        with timezone.override(zone):
            data = assert_same_output(
                lambda: ServiceRequestSerializer(row, context={"request": request}).to_representation(row)
            )
    assert data["createdAt"] == "2026-01-01T22:04:05.678901-05:00"
    assert data["maxBudget"] == Decimal("7.00")


def test_category_summary_equals_drf(world):
    row = selectors.service_request_list_admin().exclude(category=None).first()
    assert_same_output(lambda: CategorySummarySerializer(row.category).data)


def test_list_rows_are_built_without_drf_fields(world):
    """The point of the fast path: no per-call field construction for the rows."""
    request = RequestFactory().get("/")
    request.user = world["alice"]
    serializer = ServiceRequestSerializer(
        list(selectors.service_request_list(user=world["alice"])), many=True, context={"request": request}
    )
    assert len(serializer.data) == 4
    assert "fields" not in vars(serializer.child)


def test_the_generic_switch_covers_every_fast_serializer():
    names = {cls.__name__ for cls in fast_serializer_classes()}
    assert names >= {
        "PublicUserSerializer",
        "UserSummarySerializer",
        "UserSerializer",
        "PublicProviderSerializer",
        "ProviderSerializer",
        "BookingProviderSerializer",
        "BookingRequestSerializer",
        "BookingSerializer",
        "CategorySummarySerializer",
        "ClientInitialSerializer",
        "ServiceRequestSerializer",
        "UnreadCountSerializer",
    }


def test_open_request_of_someone_else_hides_the_location_from_a_client(world):
    """A sanity check that the fast path keeps the privacy rule (not only equality)."""
    request = RequestFactory().get("/")
    request.user = world["alice"]
    bob_open = selectors.service_request_list_admin().filter(client=world["bob"], status="open").first()
    data = ServiceRequestSerializer(bob_open, context={"request": request}).data
    assert data["location"] is None
    assert "email" not in data["client"]
    assert timezone.localdate() < dt.date.fromisoformat(data["preferredDate"])
