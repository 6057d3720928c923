"""The list cache's scopes (core.listcache): a write replaces the versions of the table it writes,
and of the row scopes it names (the session's user per user, the unread count per receiver); the
writes that send no signal (QuerySet.update(), bulk_create(), SQL through Django's cursor) too."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.contrib.auth.models import update_last_login
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.tests.factories import UserFactory
from bookings.models import Booking, Review
from bookings.tests.factories import BookingFactory
from core import listcache
from messaging import services as messaging_services
from messaging.models import Message
from messaging.tests.factories import MessageFactory
from requests_app.models import ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def _reads(queries: CaptureQueriesContext, table: str) -> bool:
    return any(f'"{table}"' in q["sql"] for q in queries.captured_queries)


def _replaced(write) -> set[str]:
    """The versions `write()` replaces (now; the same again at commit)."""
    with mock.patch.object(listcache, "_delete", wraps=listcache._delete) as delete:
        write()
    return {key for call in delete.call_args_list for key in call.args[0]}


def _row(table: str, value) -> str:
    return listcache._row_key(table, value)


ALL_USERS = listcache._all_rows_key("accounts_user")
ALL_RECEIVERS = listcache._all_rows_key("messaging_message")


def test_a_write_to_one_table_leaves_the_lists_read_from_others_cached(client, client_user, verified_provider):
    browse = "/api/providers?verified=true&sort=rating"
    first = client.get(browse).json()
    # A request and a message: tables the browse list does not show.
    ServiceRequestFactory(client=client_user)
    MessageFactory(sender=client_user, receiver=verified_provider.user)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(browse).json() == first
    assert not _reads(queries, "providers_provider")

    verified_provider.service_area = "Shelbyville only"
    verified_provider.save(update_fields=["service_area", "updated_at"])
    assert client.get(browse).json()[0]["serviceArea"] == "Shelbyville only"


def test_a_booking_write_leaves_every_session_user_cached(client, client_user, verified_provider):
    client.force_login(client_user)
    assert client.get("/api/auth/user").status_code == 200
    booking = BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    booking.notes = "Please bring the tablet charger."
    booking.save(update_fields=["notes", "updated_at"])
    Booking.objects.filter(pk=booking.pk).update(notes="Ring twice.")
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/auth/user").json()["firstName"] == "Clara"
    assert not _reads(queries, "accounts_user")


def test_a_write_to_one_user_reads_that_user_again_and_no_other(client_user, verified_provider):
    clara, pat = Client(), Client()
    clara.force_login(client_user)
    pat.force_login(verified_provider.user)
    clara.get("/api/auth/user")
    pat.get("/api/auth/user")

    User.objects.filter(pk=verified_provider.user.pk).update(first_name="Patricia")  # no signal
    with CaptureQueriesContext(connection) as queries:
        assert clara.get("/api/auth/user").json()["firstName"] == "Clara"
    assert not _reads(queries, "accounts_user")
    assert pat.get("/api/auth/user").json()["firstName"] == "Patricia"


def test_a_write_to_users_the_cache_cannot_name_reads_every_session_user_again(client_user, verified_provider):
    clara, pat = Client(), Client()
    clara.force_login(client_user)
    pat.force_login(verified_provider.user)
    clara.get("/api/auth/user")
    pat.get("/api/auth/user")

    # Which users an UPDATE by name writes, the statement does not say: every session user is read again.
    User.objects.filter(first_name=client_user.first_name).update(last_name="Stone")
    assert clara.get("/api/auth/user").json()["lastName"] == "Stone"
    with CaptureQueriesContext(connection) as queries:
        pat.get("/api/auth/user")
    assert _reads(queries, "accounts_user")


def test_the_lists_are_fresh_after_an_update_a_bulk_create_and_sql(client, client_user):
    request = ServiceRequestFactory(client=client_user, title="Tablet help")
    client.force_login(client_user)
    assert [r["title"] for r in client.get("/api/service-requests").json()] == ["Tablet help"]

    ServiceRequest.objects.filter(pk=request.pk).update(title="Tablet and phone help")
    assert [r["title"] for r in client.get("/api/service-requests").json()] == ["Tablet and phone help"]

    copies = []
    for title in ("Groceries", "Garden"):
        copy = ServiceRequest.objects.get(pk=request.pk)
        copy.pk, copy.title = None, title
        copies.append(copy)
    ServiceRequest.objects.bulk_create(copies)
    assert len(client.get("/api/service-requests").json()) == 3

    with connection.cursor() as cursor:
        cursor.execute('UPDATE "requests_app_servicerequest" SET "title" = %s WHERE "id" = %s', ["Walk", request.pk])
    assert "Walk" in [r["title"] for r in client.get("/api/service-requests").json()]


def test_a_cached_read_that_reads_a_table_it_does_not_name_fails():
    with pytest.raises(listcache.UndeclaredTables, match="bookings_review"):
        listcache.cached(("probe",), lambda: Review.objects.count(), tables=[Booking])


def test_a_save_and_an_update_by_id_replace_that_user_only(client_user, verified_provider):
    client_user.first_name = "Clarissa"
    replaced = _replaced(lambda: client_user.save(update_fields=["first_name", "updated_at"]))
    assert replaced == {listcache._table_key("accounts_user"), _row("accounts_user", client_user.pk)}

    ids = [client_user.pk, verified_provider.user.pk]
    replaced = _replaced(lambda: User.objects.filter(pk__in=ids).update(last_name="Stone"))
    assert {_row("accounts_user", pk) for pk in ids} <= replaced and ALL_USERS not in replaced


def test_a_sign_in_replaces_nothing(client_user):
    assert _replaced(lambda: update_last_login(None, client_user)) == set()


def test_a_user_created_replaces_their_own_row_only():
    replaced = _replaced(lambda: UserFactory(id="uid-new-user"))
    assert _row("accounts_user", "uid-new-user") in replaced and ALL_USERS not in replaced


def test_messages_replace_their_receivers_counts_only(client_user, verified_provider):
    booking = BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    other = UserFactory()
    clara, pat = client_user.pk, verified_provider.user.pk

    # One message (an INSERT ... VALUES) and several at once (bulk_create: INSERT ... UNNEST).
    replaced = _replaced(lambda: MessageFactory(sender=verified_provider.user, receiver=client_user, booking=booking))
    assert _row("messaging_message", clara) in replaced and ALL_RECEIVERS not in replaced
    replaced = _replaced(
        lambda: Message.objects.bulk_create(
            [Message(sender=None, receiver_id=uid, content="Your visit is tomorrow.") for uid in (clara, pat, pat)]
        )
    )
    assert {_row("messaging_message", clara), _row("messaging_message", pat)} <= replaced
    assert _row("messaging_message", other.pk) not in replaced and ALL_RECEIVERS not in replaced

    # Read by an UPDATE whose WHERE picks the receiver among ANDed conditions (one a subquery).
    replaced = _replaced(lambda: messaging_services.thread_mark_read(user=client_user, booking=booking))
    assert _row("messaging_message", clara) in replaced and ALL_RECEIVERS not in replaced

    # Either of two receivers: the statement names no single one, so every count is read again.
    replaced = _replaced(lambda: Message.objects.filter(Q(receiver_id=clara) | Q(receiver_id=pat)).update(is_read=True))
    assert ALL_RECEIVERS in replaced


def test_an_unread_count_survives_a_message_to_someone_else_read_by_an_update(client_user, verified_provider):
    booking = BookingFactory(client=client_user, service_request__client=client_user, provider=verified_provider)
    MessageFactory(sender=client_user, receiver=verified_provider.user, booking=booking, thread=True)
    clara = Client()
    clara.force_login(client_user)
    assert clara.get("/api/messages/unread-count").json()["count"] == 0

    messaging_services.thread_mark_read(user=verified_provider.user, booking=booking)
    with CaptureQueriesContext(connection) as queries:
        assert clara.get("/api/messages/unread-count").json()["count"] == 0
    assert not _reads(queries, "messaging_message")


M = '"messaging_message"'


@pytest.mark.parametrize(
    ("sql", "params", "receivers"),
    [
        (f'UPDATE {M} SET "is_read" = %s WHERE ({M}."receiver_id" = %s AND NOT {M}."is_read")', [True, "u1"], {"u1"}),
        (f'UPDATE {M} SET "is_read" = %s WHERE {M}."receiver_id" IN (%s, %s)', [True, "u1", "u2"], {"u1", "u2"}),
        (
            f'UPDATE {M} SET "booking_id" = (SELECT U0."id" FROM "bookings_booking" U0 WHERE U0."id" = %s) '
            f'WHERE {M}."receiver_id" = %s',
            [7, "u1"],
            {"u1"},
        ),
        (
            f'INSERT INTO {M} ("sender_id", "receiver_id") VALUES (%s, %s), (%s, %s) RETURNING {M}."id"',
            ["a", "u1", "b", "u2"],
            {"u1", "u2"},
        ),
        # What the statement cannot be read to name: every receiver's count.
        (
            f'UPDATE {M} SET "is_read" = %s WHERE ({M}."receiver_id" = %s OR {M}."sender_id" = %s)',
            [1, "u1", "u2"],
            None,
        ),
        (f'UPDATE {M} SET "is_read" = %s WHERE NOT ({M}."receiver_id" = %s AND {M}."is_read")', [True, "u1"], None),
        (f'DELETE FROM {M} WHERE {M}."id" IN (%s, %s)', [4, 5], None),
        (f'INSERT INTO {M} ("sender_id", "receiver_id") VALUES (%s, %s), (DEFAULT, %s)', ["a", "u1", "u2"], None),
    ],
)
def test_the_rows_a_statement_names(sql, params, receivers):
    keys = listcache._written_keys(sql.split()[0].upper(), "messaging_message", sql, params, False)
    assert listcache._table_key("messaging_message") in keys
    if receivers is None:
        assert ALL_RECEIVERS in keys
    else:
        assert ALL_RECEIVERS not in keys and {_row("messaging_message", r) for r in receivers} <= set(keys)


def test_a_helper_whose_checks_fall_due_leaves_the_cached_browse_list_by_the_clock(client, verified_provider):
    """No write happens when checks fall due: the page's life ends at her checks_due_by."""
    import time

    from django.utils import timezone

    browse = "/api/providers?sort=rating"
    verified_provider.checks_due_by = timezone.now() + dt.timedelta(seconds=2)
    verified_provider.save(update_fields=["checks_due_by"])
    assert [p["id"] for p in client.get(browse).json()] == [verified_provider.pk]
    time.sleep(2.5)
    assert client.get(browse).json() == []
