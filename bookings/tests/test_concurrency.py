"""Race conditions on real PostgreSQL: concurrent accepts and concurrent reviews."""

from __future__ import annotations

import threading
from decimal import ROUND_HALF_UP, Decimal

import pytest
from django.db import connection
from django.test import Client

from bookings.models import Booking, BookingStatus, Review
from bookings.services import review_create
from bookings.tests.factories import BookingFactory
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory


def _run_at_once(workers: list) -> None:
    barrier = threading.Barrier(len(workers))

    def wrap(work):
        def run():
            try:
                barrier.wait(timeout=10)
                work()
            finally:
                connection.close()

        return run

    threads = [threading.Thread(target=wrap(w)) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert not any(t.is_alive() for t in threads)


@pytest.mark.django_db(transaction=True)
def test_eight_providers_accepting_one_request_at_once_make_exactly_one_booking():
    service_request = ServiceRequestFactory()
    providers = VerifiedProviderFactory.create_batch(8)
    browsers = []
    for provider in providers:
        browser = Client()
        browser.force_login(provider.user)
        browsers.append(browser)
    statuses: list[int] = []
    lock = threading.Lock()

    def accept(browser):
        def work():
            response = browser.post(f"/api/service-requests/{service_request.pk}/accept")
            with lock:
                statuses.append(response.status_code)

        return work

    _run_at_once([accept(b) for b in browsers])

    assert sorted(statuses) == [201] + [409] * 7
    assert Booking.objects.filter(service_request=service_request).count() == 1
    service_request.refresh_from_db()
    assert service_request.status == RequestStatus.BOOKED


@pytest.mark.django_db(transaction=True)
def test_concurrent_reviews_of_one_provider_keep_rating_and_count_right():
    provider = VerifiedProviderFactory()
    ratings = [5, 4, 3, 2, 1, 5, 4, 4]
    bookings = [BookingFactory(provider=provider, status=BookingStatus.COMPLETED) for _ in ratings]
    errors: list[Exception] = []

    def review(booking, rating):
        def work():
            try:
                review_create(booking_id=booking.pk, actor=booking.client, rating=rating, comment="Thanks")
            except Exception as exc:  # collected and asserted below
                errors.append(exc)

        return work

    _run_at_once([review(b, r) for b, r in zip(bookings, ratings, strict=True)])

    assert errors == []
    provider.refresh_from_db()
    assert Review.objects.filter(reviewed=provider.user).count() == 8
    assert provider.total_reviews == 8
    expected = (Decimal(sum(ratings)) / len(ratings)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    assert provider.rating == expected
