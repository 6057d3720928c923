"""ServiceRequest.status is owned by requests_app.services: the moves a booking causes go through it."""

from __future__ import annotations

import pytest

from core.errors import Conflict
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.services import (
    service_request_mark_booked,
    service_request_mark_cancelled,
    service_request_mark_completed,
)
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def test_an_open_request_is_marked_booked():
    request = ServiceRequestFactory(status=RequestStatus.OPEN)
    service_request_mark_booked(service_request_id=request.pk)
    assert ServiceRequest.objects.get(pk=request.pk).status == RequestStatus.BOOKED


@pytest.mark.parametrize("status", [RequestStatus.BOOKED, RequestStatus.CANCELLED, RequestStatus.COMPLETED])
def test_a_request_that_is_no_longer_open_cannot_be_booked_again(status):
    request = ServiceRequestFactory(status=status)
    before = ServiceRequest.objects.get(pk=request.pk).updated_at
    with pytest.raises(Conflict, match="no longer open"):
        service_request_mark_booked(service_request_id=request.pk)
    after = ServiceRequest.objects.get(pk=request.pk)
    assert (after.status, after.updated_at) == (status, before)


def test_a_booked_request_follows_its_booking_to_cancelled_or_completed():
    cancelled = ServiceRequestFactory(status=RequestStatus.BOOKED)
    completed = ServiceRequestFactory(status=RequestStatus.BOOKED)
    service_request_mark_cancelled(service_request_id=cancelled.pk)
    service_request_mark_completed(service_request_id=completed.pk)
    assert ServiceRequest.objects.get(pk=cancelled.pk).status == RequestStatus.CANCELLED
    assert ServiceRequest.objects.get(pk=completed.pk).status == RequestStatus.COMPLETED
