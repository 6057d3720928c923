"""BookingSerializer (and its nested provider/request shapes) builds its dict directly (issue 8):
same output as DRF's generic path for every viewer, and for nulls, decimals, dates and datetimes."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.test import RequestFactory
from django.utils import timezone

from accounts.tests.factories import AdminUserFactory, UserFactory
from accounts.tests.representation import assert_same_output, assert_same_response
from bookings import selectors
from bookings.api.serializers import BookingProviderSerializer, BookingRequestSerializer, BookingSerializer
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    client = UserFactory(profile_image_url="https://img.example/c.png")
    provider = VerifiedProviderFactory(hourly_rate=None, specialties=[], rating=Decimal("4.75"), total_reviews=3)
    soon = timezone.localdate() + dt.timedelta(days=1)  # inside 48 hours: cannot cancel
    later = timezone.localdate() + dt.timedelta(days=10)  # may cancel
    bookings = [
        BookingFactory(service_request__client=client, provider=provider, scheduled_date=later, notes="Ring twice"),
        BookingFactory(service_request__client=client, provider=provider, scheduled_date=soon),
        BookingFactory(
            service_request__client=client,
            service_request__category=None,
            service_request__special_requirements="Wheelchair",
            provider=provider,
            status=BookingStatus.CANCELLED,
            cancelled_at=timezone.now() - dt.timedelta(hours=5),
            cancellation_reason="Feeling unwell",
            cancelled_by=client,
            total_amount=Decimal("0"),
        ),
        BookingFactory(
            service_request__client=client,
            provider=VerifiedProviderFactory(hourly_rate=Decimal("95.00")),
            status=BookingStatus.COMPLETED,
            payment_status=PaymentStatus.PAID,
            scheduled_date=timezone.localdate() - dt.timedelta(days=3),
            scheduled_time="",
            total_amount=Decimal("123456.78"),
        ),
    ]
    return {
        "client": client,
        "provider": provider.user,
        "other_provider": bookings[3].provider.user,
        "stranger": UserFactory(),
        "admin": AdminUserFactory(),
        "booking_ids": [b.pk for b in bookings],
    }


VIEWERS = ["client", "provider", "other_provider", "admin"]


@pytest.mark.parametrize("viewer", VIEWERS)
def test_booking_list_and_details_answer_the_same_bytes_as_drf_for_every_viewer(client, world, viewer):
    client.force_login(world[viewer])
    listed = assert_same_response(client, "/api/bookings")
    assert listed
    for row in listed:
        assert_same_response(client, f"/api/bookings/{row['id']}")


def test_admin_booking_list_answers_the_same_bytes_as_drf(client, world):
    client.force_login(world["admin"])
    assert len(assert_same_response(client, "/api/admin/bookings")) == 4


@pytest.mark.parametrize("viewer", [*VIEWERS, "stranger", None])
def test_serializer_output_equals_drf_for_each_booking(world, viewer):
    """Including a viewer who is no party and a serializer without a request (no viewer)."""
    rows = list(selectors.booking_list_admin())
    context = {}
    if viewer is not None:
        request = RequestFactory().get("/")
        request.user = world[viewer]
        context = {"request": request}
    data = assert_same_output(lambda: BookingSerializer(rows, many=True, context=context).data)
    by_id = {row["id"]: row for row in data}
    first, soon = by_id[world["booking_ids"][0]], by_id[world["booking_ids"][1]]
    assert first["canCancel"] is (viewer == "client")
    assert soon["canCancel"] is False
    if viewer in ("client", "provider"):
        assert first["serviceRequest"]["location"] == "12 Elm Street, Springfield"
    else:
        assert first["serviceRequest"]["location"] is None


def test_unsaved_values_are_formatted_like_drf(world):
    booking = selectors.booking_list_admin().first()
    booking.total_amount = Decimal("12.5")
    booking.cancelled_at = dt.datetime(2026, 3, 4, 5, 6, 7, tzinfo=dt.UTC)
    booking.provider.rating = Decimal("4")
    for zone in ("UTC", "Europe/Berlin", "America/New_York"):
        with timezone.override(zone):
            assert_same_output(lambda: BookingSerializer(booking).to_representation(booking))
            assert_same_output(lambda: BookingProviderSerializer(booking.provider).data)
            assert_same_output(lambda: BookingRequestSerializer(booking.service_request).data)


def test_list_rows_are_built_without_drf_fields(world):
    request = RequestFactory().get("/")
    request.user = world["client"]
    serializer = BookingSerializer(
        list(selectors.booking_list_for(user=world["client"])), many=True, context={"request": request}
    )
    assert len(serializer.data) == 4
    assert "fields" not in vars(serializer.child)
