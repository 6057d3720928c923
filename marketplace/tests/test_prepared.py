"""marketplace/prepared.py: the dashboard's lists with their SQL compiled once per process give
exactly the rows, related objects, annotations and totals of their QuerySets, for every viewer
and page; values that would not reach the SQL as parameters are refused."""

from __future__ import annotations

import datetime as dt
import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.test import RequestFactory
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings import selectors as booking_selectors
from bookings.api.serializers import BookingSerializer
from bookings.models import Booking, BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.prepared import BoundList, PreparedList
from providers import selectors as provider_selectors
from providers.api.serializers import PublicProviderSerializer
from providers.tests.factories import VerifiedProviderFactory
from requests_app import selectors as request_selectors
from requests_app.api.serializers import ServiceRequestSerializer
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

PAGES = [(0, 50), (0, 3), (1, 2), (3, 3), (5, 50), (40, 3)]


@pytest.fixture
def world(db):
    client = UserFactory(profile_image_url="https://img.example/c.png")
    provider = VerifiedProviderFactory(hourly_rate=None, rating=Decimal("4.75"))
    # Someone who books as a client and works as a provider: both sides of the OR.
    both = VerifiedProviderFactory()
    later = timezone.localdate() + dt.timedelta(days=10)
    BookingFactory(service_request__client=client, provider=provider, scheduled_date=later, notes="Ring twice")
    BookingFactory(service_request__client=client, provider=both, status=BookingStatus.CONFIRMED)
    BookingFactory(
        service_request__client=both.user,
        service_request__category=None,
        provider=provider,
        status=BookingStatus.CANCELLED,
        cancelled_at=timezone.now() - dt.timedelta(hours=5),
        cancelled_by=both.user,
    )
    BookingFactory(
        service_request__client=client,
        provider=provider,
        status=BookingStatus.COMPLETED,
        scheduled_date=timezone.localdate() - dt.timedelta(days=3),
    )
    for i in range(4):
        ServiceRequestFactory(client=client, title=f"Mine {i}", max_budget=None if i == 1 else Decimal("40"))
    ServiceRequestFactory(client=both.user, category=None)
    reopened = ServiceRequestFactory(client=UserFactory(), status=RequestStatus.OPEN)
    BookingFactory(service_request=reopened, provider=both, status=BookingStatus.CANCELLED)
    return {"client": client, "provider": provider.user, "both": both.user, "stranger": UserFactory()}


def viewed_by(user):
    request = RequestFactory().get("/")
    request.user = user
    return {"request": request}


@pytest.mark.parametrize("who", ["client", "provider", "both", "stranger"])
def test_bookings_page_and_total_are_the_querysets(world, who):
    user = world[who]
    bound = booking_selectors.booking_list_page_for(user=user)
    assert isinstance(bound, BoundList)
    queryset = booking_selectors.booking_list_for(user=user)
    for offset, limit in PAGES:
        prepared = bound.page(offset, limit)
        plain = list(queryset[offset : offset + limit])
        assert [b.pk for b in prepared] == [b.pk for b in plain]
        assert (
            BookingSerializer(prepared, many=True, context=viewed_by(user)).data
            == BookingSerializer(plain, many=True, context=viewed_by(user)).data
        )
    assert bound.count() == queryset.count()


@pytest.mark.parametrize("who", ["client", "provider", "both", "stranger"])
def test_request_pages_and_totals_are_the_querysets(world, who):
    user = world[who]
    bound = request_selectors.service_request_list_page(user=user)
    queryset = request_selectors.service_request_list(user=user)
    assert queryset.count() > 0 or who == "stranger"
    for offset, limit in PAGES:
        prepared = bound.page(offset, limit)
        plain = list(queryset[offset : offset + limit])
        assert [(r.pk, r.booked_provider_user_id, r.booking_id) for r in prepared] == [
            (r.pk, r.booked_provider_user_id, r.booking_id) for r in plain
        ]
        assert (
            ServiceRequestSerializer(prepared, many=True, context=viewed_by(user)).data
            == ServiceRequestSerializer(plain, many=True, context=viewed_by(user)).data
        )
    assert bound.count() == queryset.count()


@pytest.mark.parametrize("sort", [*provider_selectors.SORTS, "unknown"])
def test_browse_pages_and_totals_are_the_querysets_in_every_order(world, sort):
    VerifiedProviderFactory(hourly_rate=None, rating=Decimal("4.75"))
    VerifiedProviderFactory(hourly_rate=Decimal("20"), rating=Decimal("4.75"), total_reviews=9)
    VerifiedProviderFactory(is_active=False)
    bound = provider_selectors.provider_list_public_page(sort=sort)
    queryset = provider_selectors.provider_list_public(sort=sort)
    for offset, limit in PAGES:
        prepared = bound.page(offset, limit)
        plain = list(queryset[offset : offset + limit])
        assert PublicProviderSerializer(prepared, many=True).data == PublicProviderSerializer(plain, many=True).data
    assert bound.count() == queryset.count() == 4
    # A search or a specialty filter is an ordinary QuerySet.
    assert not isinstance(provider_selectors.provider_list_public_page(search="help", sort=sort), BoundList)


def test_one_query_per_page_and_per_total_with_related_objects_loaded(world):
    bound = booking_selectors.booking_list_page_for(user=world["client"])
    bound.page(0, 50)  # compiled once per process; later calls only run it
    with CaptureQueriesContext(connection) as queries:
        page = bound.page(0, 50)
        total = bound.count()
        names = [(b.client.first_name, b.provider.user.email, b.service_request.title) for b in page]
    assert len(queries) == 2
    assert total == len(page) == len(names) == 3


def test_a_value_that_does_not_reach_the_sql_as_a_parameter_is_refused(db):
    ignored = PreparedList(lambda user_id: Booking.objects.order_by("id"), "user_id")
    with pytest.raises(ValueError, match="user_id"):
        ignored.page(0, 10, user_id="someone")
    in_the_text = PreparedList(lambda user_id: Booking.objects.extra(where=[f"client_id = '{user_id}'"]), "user_id")
    with pytest.raises(ValueError, match="user_id"):
        in_the_text.count(user_id="someone")


def test_a_bound_list_is_sliced_a_page_at_a_time(world):
    bound = booking_selectors.booking_list_page_for(user=world["client"])
    assert [b.pk for b in bound[1:3]] == [b.pk for b in bound.page(1, 2)]
    for wrong in (0, slice(0, None), slice(None, 3), slice(0, 3, 2)):
        with pytest.raises(TypeError, match="a page at a time"):
            bound[wrong]


def test_values_must_be_the_named_strings(world):
    prepared = PreparedList(lambda user_id: Booking.objects.filter(client_id=user_id).order_by("id"), "user_id")
    with pytest.raises(TypeError, match="user_id"):
        prepared.page(0, 10, who="someone")
    with pytest.raises(TypeError, match="string"):
        prepared.page(0, 10, user_id=42)


def test_past_the_kept_shapes_pages_are_still_right(world):
    prepared = PreparedList(lambda user_id: Booking.objects.filter(client_id=user_id).order_by("id"), "user_id")
    prepared.max_shapes = 2
    ids = list(Booking.objects.filter(client_id=world["client"].pk).order_by("id").values_list("pk", flat=True))
    for offset in range(5):
        assert [b.pk for b in prepared.page(offset, 1, user_id=world["client"].pk)] == ids[offset : offset + 1]
    assert len(prepared._compiled) == 2


@pytest.mark.django_db(transaction=True)
def test_threads_share_the_compiled_sql_and_each_gets_its_own_rows():
    clients = [UserFactory() for _ in range(4)]
    for i, client in enumerate(clients):
        for _ in range(i + 1):
            BookingFactory(service_request__client=client)
    prepared = PreparedList(lambda user_id: Booking.objects.filter(client_id=user_id).order_by("id"), "user_id")
    results, errors = {}, []

    def read(client):
        try:
            for _ in range(20):
                results[client.pk] = [b.client_id for b in prepared.page(0, 50, user_id=client.pk)]
        except Exception as error:  # noqa: BLE001 (reported below)
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=read, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    assert {pk: len(rows) for pk, rows in results.items()} == {c.pk: i + 1 for i, c in enumerate(clients)}
    assert all(set(rows) == {pk} for pk, rows in results.items())
