"""A request's status, once a helper takes it, moves with its bookings in one module:
bookings.lifecycle (requests_app alone moves a request nobody has taken)."""

from __future__ import annotations

import pytest

from bookings import lifecycle
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from core.errors import Conflict
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def test_an_open_request_is_taken():
    request = ServiceRequestFactory(status=RequestStatus.OPEN)
    lifecycle.take_request(service_request_id=request.pk)
    assert ServiceRequest.objects.get(pk=request.pk).status == RequestStatus.BOOKED


@pytest.mark.parametrize("status", [RequestStatus.BOOKED, RequestStatus.CANCELLED, RequestStatus.COMPLETED])
def test_a_request_that_is_no_longer_open_cannot_be_taken_again(status):
    request = ServiceRequestFactory(status=status)
    before = ServiceRequest.objects.get(pk=request.pk).updated_at
    with pytest.raises(Conflict, match="no longer open"):
        lifecycle.take_request(service_request_id=request.pk)
    after = ServiceRequest.objects.get(pk=request.pk)
    assert (after.status, after.updated_at) == (status, before)


@pytest.mark.parametrize(
    ("others", "settled"),
    [
        ([], RequestStatus.CANCELLED),
        ([BookingStatus.CANCELLED], RequestStatus.CANCELLED),
        ([BookingStatus.COMPLETED], RequestStatus.COMPLETED),
        ([BookingStatus.CONFIRMED], RequestStatus.BOOKED),
        ([BookingStatus.SCHEDULED, BookingStatus.COMPLETED], RequestStatus.BOOKED),
    ],
)
def test_a_booked_request_settles_when_its_last_visit_ahead_ends(others, settled):
    booking = BookingFactory(status=BookingStatus.CONFIRMED, service_request__status=RequestStatus.BOOKED)
    for status in others:
        BookingFactory(service_request=booking.service_request, status=status)
    lifecycle.cancel(booking, actor=booking.client, reason="")
    assert ServiceRequest.objects.get(pk=booking.service_request_id).status == settled


def test_a_completed_visit_completes_its_request():
    booking = BookingFactory(status=BookingStatus.CONFIRMED, service_request__status=RequestStatus.BOOKED)
    lifecycle.complete(booking, now=booking.visit_start)
    booking.refresh_from_db()
    assert booking.status == BookingStatus.COMPLETED
    assert ServiceRequest.objects.get(pk=booking.service_request_id).status == RequestStatus.COMPLETED
