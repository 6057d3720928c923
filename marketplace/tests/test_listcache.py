"""The list cache (core.listcache): the hot lists are read from the database once, then
from Redis until a table they show is written (by any path: save, update(), bulk_create(), SQL),
or until a booking's "can cancel" turns false; the session's user and the unread count until a
write to that person's own rows."""

from __future__ import annotations

import datetime as dt

import pytest
from django.contrib.auth.models import update_last_login
from django.db import connection, transaction
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from bookings import lifecycle
from bookings.api.serializers import can_cancel_max_age
from bookings.models import Booking, Review
from bookings.tests.factories import BookingFactory
from core import listcache
from messaging import services as messaging_services
from messaging.models import Message
from messaging.tests.factories import MessageFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def _tables_read(queries: CaptureQueriesContext) -> set[str]:
    tables = ("bookings_booking", "requests_app_servicerequest")
    return {t for t in tables for q in queries.captured_queries if t in q["sql"]}


def test_the_bookings_list_is_read_once_then_from_the_cache_until_a_booking_is_saved(client, client_user):
    booking = BookingFactory(client=client_user, service_request__client=client_user)
    client.force_login(client_user)
    first = client.get("/api/bookings")
    with CaptureQueriesContext(connection) as queries:
        again = client.get("/api/bookings")
    assert again.json() == first.json() and again["X-Total-Count"] == "1"
    assert _tables_read(queries) == set()

    booking.notes = "Please bring the tablet charger."
    booking.save(update_fields=["notes", "updated_at"])
    assert client.get("/api/bookings").json()[0]["notes"] == "Please bring the tablet charger."


def test_a_status_changed_by_an_update_query_is_seen_at_once(client, client_user):
    request = ServiceRequestFactory(client=client_user, status=RequestStatus.OPEN)
    client.force_login(client_user)
    assert client.get("/api/service-requests").json()[0]["status"] == "open"
    with transaction.atomic():
        lifecycle.take_request(service_request_id=request.pk)  # QuerySet.update(): no post_save
    assert client.get("/api/service-requests").json()[0]["status"] == "booked"


def test_each_viewer_and_page_is_cached_apart(client, client_user, verified_provider):
    booking = BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    BookingFactory(client=client_user, service_request__client=client_user)
    client.force_login(client_user)
    assert [b["id"] for b in client.get("/api/bookings?limit=1&offset=1").json()] != [
        b["id"] for b in client.get("/api/bookings?limit=1").json()
    ]
    as_client = client.get("/api/bookings").json()
    client.force_login(verified_provider.user)
    as_provider = client.get("/api/bookings").json()
    assert [b["id"] for b in as_provider] == [booking.pk]
    assert len(as_client) == 2


def test_a_value_read_before_the_commit_is_dropped_when_it_commits(django_capture_on_commit_callbacks, client_user):
    with django_capture_on_commit_callbacks(execute=True):
        client_user.first_name = "Clarissa"
        client_user.save(update_fields=["first_name", "updated_at"])
        # Another request reading now sees the rows before the commit, and caches them.
        assert listcache.cached(("probe",), lambda: "read before", tables=[User]) == "read before"
    assert listcache.cached(("probe",), lambda: "read after the commit", tables=[User]) == "read after the commit"


def test_a_sign_in_alone_keeps_the_cached_values(client_user):
    def probe(value):
        return listcache.cached(("probe",), lambda: value, tables=[User], rows=[(User, client_user.pk)])

    assert probe("cached") == "cached"
    update_last_login(None, client_user)
    assert probe("read again") == "cached"
    client_user.last_name = "Stone"
    client_user.save(update_fields=["last_name", "updated_at"])
    assert probe("read again") == "read again"


def test_a_list_with_a_cancellable_booking_lives_until_its_cancel_window_closes(client, client_user):
    booking = BookingFactory(
        client=client_user,
        service_request__client=client_user,
        scheduled_date=timezone.localdate() + dt.timedelta(days=3),
        scheduled_time="morning",
    )
    client.force_login(client_user)
    bookings = client.get("/api/bookings").json()
    assert bookings[0]["canCancel"] is True
    closes_in = (booking.visit_start - dt.timedelta(hours=48) - timezone.now()).total_seconds()
    assert abs(can_cancel_max_age(bookings) - closes_in) < 5
    assert can_cancel_max_age([{**bookings[0], "canCancel": False}]) is None


def test_the_dashboard_counts_a_new_message_at_once_and_reads_its_lists_from_the_cache(
    client, client_user, verified_provider
):
    BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    client.force_login(client_user)
    assert client.get("/api/dashboard").json()["unread"] == 0
    MessageFactory(sender=verified_provider.user, receiver=client_user)
    with CaptureQueriesContext(connection) as queries:
        data = client.get("/api/dashboard").json()
    assert data["unread"] == 1 and len(data["bookings"]) == 1
    assert _tables_read(queries) == set()


def _reads_messages(queries: CaptureQueriesContext) -> bool:
    return any("messaging_message" in q["sql"] for q in queries.captured_queries)


def test_the_unread_count_is_cached_per_person_until_a_message_to_them_is_written_or_read(
    client, client_user, verified_provider, django_capture_on_commit_callbacks
):
    booking = BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    client.force_login(client_user)
    assert client.get("/api/messages/unread-count").json()["count"] == 0
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/messages/unread-count").json()["count"] == 0
    assert not _reads_messages(queries)

    # A message to someone else leaves this count cached; one to them (a bulk INSERT) is counted.
    MessageFactory(sender=client_user, receiver=verified_provider.user)
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/messages/unread-count")
    assert not _reads_messages(queries)
    with django_capture_on_commit_callbacks(execute=True):
        messaging_services.message_send(
            sender=verified_provider.user, receiver_id=client_user.pk, content="On my way", booking_id=booking.pk
        )
    assert client.get("/api/messages/unread-count").json()["count"] == 1

    # Read by an UPDATE query (no signal): counted again at once.
    with django_capture_on_commit_callbacks(execute=True):
        messaging_services.thread_mark_read(user=client_user, booking=booking)
    assert client.get("/api/messages/unread-count").json()["count"] == 0


def test_a_count_read_before_a_message_commits_is_dropped_when_it_commits(
    client_user, verified_provider, django_capture_on_commit_callbacks
):
    from messaging.selectors import unread_summary

    with django_capture_on_commit_callbacks(execute=True):
        MessageFactory(sender=verified_provider.user, receiver=client_user)
        # Another request counting now sees the rows before the commit, and caches its count.
        listcache.cached(("unread", client_user.pk), lambda: "read before", rows=[(Message, client_user.pk)])
    assert unread_summary(user_id=client_user.pk).count == 1


def test_the_signed_in_user_is_read_from_the_cache_until_it_is_saved(client, client_user):
    client.force_login(client_user)
    assert client.get("/api/auth/user").json()["firstName"] == "Clara"
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/auth/user").status_code == 200
    assert not any("accounts_user" in q["sql"] for q in queries.captured_queries)

    client_user.first_name = "Clarissa"
    client_user.save(update_fields=["first_name", "updated_at"])
    assert client.get("/api/auth/user").json()["firstName"] == "Clarissa"


def test_a_deactivated_user_is_signed_out_on_their_next_request(client, client_user):
    client.force_login(client_user)
    assert client.get("/api/auth/user").status_code == 200
    client_user.is_active = False
    client_user.save(update_fields=["is_active", "updated_at"])
    assert client.get("/api/auth/user").status_code == 401


@override_settings(
    CACHES={
        "default": {
            "BACKEND": "django_redis.cache.RedisCache",
            "LOCATION": "redis://127.0.0.1:9/0",  # nothing listens there
            "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.2, "SOCKET_TIMEOUT": 0.2},
        }
    }
)
def test_a_cache_that_is_down_means_reading_from_the_database(client, client_user):
    BookingFactory(client=client_user, service_request__client=client_user)
    client.force_login(client_user)
    response = client.get("/api/bookings")
    assert response.status_code == 200 and len(response.json()) == 1


def test_the_browse_list_is_one_for_everyone_until_a_provider_is_saved(client, client_user, verified_provider):
    first = client.get("/api/providers?verified=true&sort=rating").json()
    client.force_login(client_user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/providers?verified=true&sort=rating").json() == first
    assert not any("providers_provider" in q["sql"] for q in queries.captured_queries)

    verified_provider.service_area = "Shelbyville only"
    verified_provider.save(update_fields=["service_area", "updated_at"])
    assert client.get("/api/providers?verified=true&sort=rating").json()[0]["serviceArea"] == "Shelbyville only"


def test_reads_read_together_are_each_computed_once_and_a_write_recomputes_only_what_shows_its_table(
    client_user, verified_provider
):
    computed = []

    def reads():
        return [
            listcache.Read(("together", "reviews"), lambda: computed.append("reviews") or 1, tables=[Review]),
            listcache.Read(("together", "bookings"), lambda: computed.append("bookings") or 2, tables=[Booking]),
        ]

    assert listcache.cached_all(reads()) == [1, 2]
    assert listcache.cached_all(reads()) == [1, 2]
    assert computed == ["reviews", "bookings"]
    BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    assert listcache.cached_all(reads()) == [1, 2]
    assert computed == ["reviews", "bookings", "bookings"]
    listcache.forget()
    listcache.cached_all(reads())
    assert computed == ["reviews", "bookings", "bookings", "reviews", "bookings"]


def test_the_dashboard_page_reads_its_cached_values_in_one_round_trip(client, client_user, verified_provider):
    from unittest import mock

    BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    client.force_login(client_user)
    assert client.get("/dashboard").status_code == 200
    with (
        mock.patch.object(listcache.cache, "get_many", wraps=listcache.cache.get_many) as get_many,
        mock.patch.object(listcache.cache, "get", wraps=listcache.cache.get) as get,
        CaptureQueriesContext(connection) as queries,
    ):
        assert b"Your trusted home support dashboard" in client.get("/dashboard").content
    # The signed-in user, then the dashboard's lists with the unread count: a value and its version
    # come together, so nothing is read twice and nothing from the database.
    assert (get_many.call_count, get.call_count) == (2, 0)
    assert _tables_read(queries) == set() and not _reads_messages(queries)


def test_a_version_that_vanishes_between_its_two_reads_is_a_miss(client_user):
    """A version key evicted or flushed between the first read (absent: added) and the second
    (to learn the version two first readers agreed on) is read from the database, not an error."""
    from unittest import mock

    real_add = listcache.cache.add

    def add_then_evicted(key, *args, **kwargs):
        added = real_add(key, *args, **kwargs)
        listcache.cache.delete(key)  # Redis evicts it (or a FLUSHDB) before the next read
        return added

    with mock.patch.object(listcache.cache, "add", side_effect=add_then_evicted):
        assert listcache.cached(("vanishing",), lambda: "from the database", tables=[User]) == "from the database"
    # Once the versions are back, the value is cached as usual.
    computed = []
    for _ in range(2):
        assert listcache.cached(("vanishing",), lambda: computed.append(1) or "cached", tables=[User]) == "cached"
    assert computed == [1]
