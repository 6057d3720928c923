"""Reasons and comments: their limit in plain words, the booking unchanged."""

from __future__ import annotations

import pytest

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from providers.tests.factories import VerifiedProviderFactory

TOO_LONG = "r" * 2001


@pytest.fixture
def confirmed(client_user):
    return BookingFactory(
        service_request__client=client_user, status=BookingStatus.CONFIRMED, payment_status=PaymentStatus.PAID
    )


def _assert_refused(response, field: str, message: str, booking) -> None:
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {field: [message]}}
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED


def test_client_cancel_reason_limit(client, client_user, confirmed):
    client.force_login(client_user)
    response = call(client, "POST", f"/api/bookings/{confirmed.pk}/cancel", {"reason": TOO_LONG})
    _assert_refused(response, "reason", "Reason can be at most 2,000 characters.", confirmed)


def test_admin_cancel_reason_limit(client, admin_user, confirmed):
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/bookings/{confirmed.pk}/cancel", {"reason": TOO_LONG})
    _assert_refused(response, "reason", "Cancellation reason can be at most 2,000 characters.", confirmed)


def test_admin_reassign_reason_limit(client, admin_user, confirmed):
    other = VerifiedProviderFactory()
    client.force_login(admin_user)
    body = {"newProviderId": other.pk, "reason": TOO_LONG}
    response = call(client, "PUT", f"/api/admin/bookings/{confirmed.pk}/reassign", body)
    _assert_refused(response, "reason", "Reason can be at most 2,000 characters.", confirmed)
    assert confirmed.provider_id != other.pk


def test_admin_reassign_to_an_impossible_provider_id(client, admin_user, confirmed):
    client.force_login(admin_user)
    body = {"newProviderId": 2**63}
    response = call(client, "PUT", f"/api/admin/bookings/{confirmed.pk}/reassign", body)
    _assert_refused(response, "newProviderId", "Provider not found.", confirmed)


def test_review_comment_limit(client, client_user):
    booking = BookingFactory(service_request__client=client_user, status=BookingStatus.COMPLETED)
    client.force_login(client_user)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": 5, "comment": TOO_LONG})
    assert response.status_code == 400
    assert response.json()["errors"] == {"comment": ["Comment can be at most 2,000 characters."]}
    assert not booking.reviews.exists()
