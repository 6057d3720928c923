"""The care circle's conversation with a provider: who sees the thread,
each person's unread state, the fan-out rows, removal, and the migration of existing messages."""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.tests.factories import UserFactory
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from marketplace.testing.pages import island_props
from messaging import selectors, services
from messaging.models import Message, MessageType
from messaging.tests.factories import MessageFactory, SystemMessageFactory

pytestmark = pytest.mark.django_db


def post(api, **body):
    return api.post("/api/messages", body, format="json")


def thread_of(api, booking):
    return api.get(f"/api/messages/booking/{booking.pk}")


def unread(api) -> dict:
    return api.get("/api/messages/unread-count").json()


@pytest.fixture
def vera(verified_provider):
    return verified_provider.user


# --- who sees the thread -------------------------------------------------------------------------


def test_provider_organizer_and_member_see_the_same_thread_each_message_naming_its_sender(
    api_for, circle_booking, client_user, bob, vera
):
    first = post(api_for(client_user), receiverId=vera.pk, content="Dad likes tea", bookingId=circle_booking.pk)
    second = post(api_for(vera), receiverId=client_user.pk, content="Noted!", bookingId=circle_booking.pk)
    third = post(api_for(bob), receiverId=vera.pk, content="I will be there too", bookingId=circle_booking.pk)
    assert [r.status_code for r in (first, second, third)] == [201, 201, 201]

    views = {
        name: thread_of(api_for(u), circle_booking)
        for name, u in (("vera", vera), ("clara", client_user), ("bob", bob))
    }

    assert {v.status_code for v in views.values()} == {200}
    seen = {name: [(m["id"], m["content"], m["sender"]["firstName"]) for m in v.json()] for name, v in views.items()}
    assert (
        seen["vera"]
        == seen["clara"]
        == seen["bob"]
        == [
            (first.json()["id"], "Dad likes tea", "Clara"),
            (second.json()["id"], "Noted!", "Vera"),
            (third.json()["id"], "I will be there too", "Bob"),
        ]
    )
    assert all(m["thread"] and m["bookingId"] == circle_booking.pk for m in views["bob"].json())


def test_a_non_member_gets_404_for_the_thread_and_cannot_write_to_it(api_for, circle_booking, stranger, vera):
    api = api_for(stranger)

    assert thread_of(api, circle_booking).status_code == 404
    assert api.get("/api/messages/booking/999999").status_code == 404
    res = post(api, receiverId=vera.pk, content="Hi", bookingId=circle_booking.pk)
    assert res.status_code == 400 and "bookingId" in res.json()["errors"]
    assert not Message.objects.exists()


def test_another_provider_gets_404(api_for, circle_booking):
    other = BookingFactory().provider.user

    assert thread_of(api_for(other), circle_booking).status_code == 404


def test_receiver_must_take_part_in_the_thread(api_for, circle_booking, client_user, bob, stranger):
    outsider = post(api_for(bob), receiverId=stranger.pk, content="Hi", bookingId=circle_booking.pk)
    member_to_member = post(api_for(bob), receiverId=client_user.pk, content="Hi sis", bookingId=circle_booking.pk)

    assert outsider.status_code == 400
    assert member_to_member.status_code == 201
    # ... and still the whole thread's: the provider has her copy.
    assert Message.objects.filter(receiver=circle_booking.provider.user, content="Hi sis").exists()


def test_member_and_provider_may_write_without_a_booking_id_into_their_newest_thread(
    api_for, circle_booking, bob, vera, client_user
):
    res = post(api_for(bob), receiverId=vera.pk, content="Running late?")
    pairwise_between_members = post(api_for(bob), receiverId=client_user.pk, content="Hi")

    assert res.status_code == 201 and res.json()["bookingId"] == circle_booking.pk
    assert pairwise_between_members.status_code == 403  # no provider: no booking's thread to go to


# --- the rows: fan-out and each person's unread state ------------------------------------------


def test_a_thread_message_is_one_row_per_participant_the_senders_read(api_for, circle_booking, client_user, bob, vera):
    res = post(api_for(bob), receiverId=vera.pk, content="Hello all", bookingId=circle_booking.pk)

    rows = Message.objects.filter(content="Hello all")
    assert sorted((m.receiver_id, m.is_read, m.sender_id, m.booking_id, m.thread) for m in rows) == sorted(
        [
            (bob.pk, True, bob.pk, circle_booking.pk, True),
            (vera.pk, False, bob.pk, circle_booking.pk, True),
            (client_user.pk, False, bob.pk, circle_booking.pk, True),
        ]
    )
    assert res.json()["id"] == rows.get(receiver=bob).pk  # the sender's copy is the thread's row
    assert selectors.thread_messages(booking=circle_booking) == [rows.get(receiver=bob)]


def test_unread_counts_are_per_person(api_for, circle_booking, client_user, bob, vera):
    post(api_for(vera), receiverId=client_user.pk, content="One", bookingId=circle_booking.pk)
    post(api_for(vera), receiverId=client_user.pk, content="Two", bookingId=circle_booking.pk)
    clara, bobs = api_for(client_user), api_for(bob)
    key = str(circle_booking.pk)

    assert unread(clara) == {"count": 2, "systemCount": 0, "bySender": {vera.pk: 2}, "byBooking": {key: 2}}
    assert unread(bobs) == unread(clara)
    assert unread(api_for(vera))["count"] == 0  # her own messages

    thread_of(clara, circle_booking)  # Clara reads the thread

    assert unread(clara)["count"] == 0
    assert unread(bobs)["byBooking"] == {key: 2}  # Bob has not read it yet
    post(api_for(bob), receiverId=vera.pk, content="Thanks", bookingId=circle_booking.pk)
    assert unread(clara)["byBooking"] == {key: 1}
    assert unread(api_for(vera))["byBooking"] == {key: 1}


@pytest.mark.sqlite
def test_the_unread_count_stays_one_query(client_user, circle_booking, bob, vera):
    for i in range(3):
        services.message_send(sender=vera, receiver_id=bob.pk, content=f"m{i}", booking_id=circle_booking.pk)
    SystemMessageFactory(receiver=bob)

    with CaptureQueriesContext(connection) as queries:
        summary = selectors.unread_summary(user_id=bob.pk)

    assert len(queries) == 1
    assert (summary.count, summary.system_count, summary.by_booking) == (4, 1, {str(circle_booking.pk): 3})


def test_thread_call_runs_a_fixed_number_of_queries(
    api_for, circle_booking, client_user, bob, vera, django_assert_max_num_queries
):
    for i in range(10):
        services.message_send(sender=vera, receiver_id=bob.pk, content=f"v{i}", booking_id=circle_booking.pk)
        services.message_send(sender=bob, receiver_id=vera.pk, content=f"b{i}", booking_id=circle_booking.pk)
    api = api_for(client_user)

    with django_assert_max_num_queries(8):
        res = thread_of(api, circle_booking)

    assert len(res.json()) == 20


def test_someone_who_joins_later_sees_the_whole_history_without_unread(api_for, circle_booking, harold, vera):
    post(api_for(vera), receiverId=circle_booking.client_id, content="Before you came", bookingId=circle_booking.pk)
    late = UserFactory(first_name="Lena")
    CircleMember.objects.create(recipient=harold, user=late, role=CircleRole.MEMBER)
    api = api_for(late)

    assert [m["content"] for m in thread_of(api, circle_booking).json()] == ["Before you came"]
    assert unread(api)["count"] == 0


# --- removal ----------------------------------------------------------------------------------


def test_a_removed_member_loses_the_thread_and_its_unread_at_once(
    api_for, circle_booking, harold, bob, vera, client_user, remove_member
):
    post(api_for(vera), receiverId=bob.pk, content="Before", bookingId=circle_booking.pk)
    bobs = api_for(bob)
    assert unread(bobs)["count"] == 1

    remove_member(harold, bob)

    assert thread_of(bobs, circle_booking).status_code == 404
    assert unread(bobs)["count"] == 0  # the copy he can no longer open is not left unread
    after = post(api_for(vera), receiverId=client_user.pk, content="After", bookingId=circle_booking.pk)
    assert after.status_code == 201
    assert not Message.objects.filter(receiver=bob, content="After").exists()
    assert post(bobs, receiverId=vera.pk, content="Hi", bookingId=circle_booking.pk).status_code == 400
    assert post(bobs, receiverId=vera.pk, content="Hi").status_code == 403
    assert not any(c["thread"] for c in api_for(bob).get("/api/messages/conversations").json())


def test_removal_keeps_the_unread_of_threads_still_shared(
    api_for, circle_booking, harold, bob, vera, verified_provider, remove_member
):
    """Bob's own circle's booking with the same provider stays his: only Harold's threads go."""
    own = BookingFactory(service_request__client=bob, provider=verified_provider)
    services.message_send(sender=vera, receiver_id=bob.pk, content="Harold", booking_id=circle_booking.pk)
    services.message_send(sender=vera, receiver_id=bob.pk, content="Bob's own", booking_id=own.pk)

    remove_member(harold, bob)

    assert unread(api_for(bob))["byBooking"] == {str(own.pk): 1}


# --- the list and the page --------------------------------------------------------------------


def test_conversations_list_the_thread_for_members_and_the_provider(api_for, circle_booking, bob, vera, client_user):
    as_member = api_for(bob).get("/api/messages/conversations").json()
    as_provider = api_for(vera).get("/api/messages/conversations").json()

    circle_booking.recipient.time_zone = "America/New_York"
    circle_booking.recipient.save(update_fields=["time_zone"])
    # Her zone goes with her: the page reads the messages' times on her clock.
    recipient = {"id": circle_booking.recipient_id, "fullName": "Harold Smith", "timeZone": "America/New_York"}
    assert [(c["user"]["id"], c["role"], c["bookingId"], c["thread"], c["recipient"]) for c in as_member] == [
        (vera.pk, "provider", circle_booking.pk, True, recipient)
    ]
    assert [(c["user"]["id"], c["role"], c["bookingId"], c["recipient"]) for c in as_provider] == [
        (client_user.pk, "client", circle_booking.pk, recipient)
    ]


def test_messages_page_props_name_the_recipient(client, circle_booking, bob):
    client.force_login(bob)

    props = island_props(client.get("/messages"), "messages-props")

    assert props["conversations"][0]["recipient"]["fullName"] == "Harold Smith"
    assert props["unread"]["byBooking"] == {}


# --- typing rules (selectors the socket uses) ------------------------------------------------


def test_member_and_provider_share_a_booking_for_typing_and_the_stranger_does_not(
    circle_booking, bob, vera, client_user, stranger
):
    assert selectors.share_booking(user_a=bob, user_b=vera)
    assert selectors.share_booking(user_a=vera, user_b=client_user)
    assert not selectors.share_booking(user_a=bob, user_b=client_user)  # no provider between them
    assert not selectors.share_booking(user_a=stranger, user_b=vera)
    assert selectors.thread_participant_ids(booking=circle_booking) == [vera.pk, client_user.pk, bob.pk]


# --- the migration of existing messages -------------------------------------------------------


def run_migration() -> None:
    migration = importlib.import_module("messaging.migrations.0003_existing_messages_to_threads")
    migration.forwards(apps, None)


@pytest.mark.sqlite
def test_migration_turns_existing_booking_messages_into_the_threads_losing_nothing(
    api_for, booking, client_user, vera, admin_user
):
    # The rows as they were before threads: one per message, thread=False.
    with_booking = MessageFactory(sender=client_user, receiver=vera, booking=booking, content="Hello Vera")
    reply = MessageFactory(sender=vera, receiver=client_user, booking=booking, content="Hi Clara", is_read=True)
    no_booking = MessageFactory(sender=vera, receiver=client_user, booking=None, content="See you Monday")
    support = MessageFactory(sender=client_user, receiver=admin_user, booking=booking, content="Help")
    system = SystemMessageFactory(receiver=client_user, booking=booking, content="Booking confirmed")
    Message.objects.filter(pk=with_booking.pk).update(created_at=with_booking.created_at.replace(year=2025))
    before = {m.pk: (m.sender_id, m.receiver_id, m.content) for m in Message.objects.all()}

    run_migration()

    after = {m.pk: m for m in Message.objects.all()}
    # Every row is still there, unchanged but for thread (and the booking-less one's booking).
    assert all((after[pk].sender_id, after[pk].receiver_id, after[pk].content) == v for pk, v in before.items())
    assert [after[m.pk].thread for m in (with_booking, reply, no_booking, support, system)] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert after[no_booking.pk].booking_id == booking.pk
    # Each sender got their own read copy with the original's time: the thread's rows.
    copies = [m for pk, m in after.items() if pk not in before]
    assert sorted((m.sender_id, m.receiver_id, m.content, m.is_read) for m in copies) == sorted(
        [
            (client_user.pk, client_user.pk, "Hello Vera", True),
            (vera.pk, vera.pk, "Hi Clara", True),
            (vera.pk, vera.pk, "See you Monday", True),
        ]
    )
    copy = next(m for m in copies if m.content == "Hello Vera")
    assert copy.created_at.year == 2025 and copy.message_type == MessageType.TEXT
    # Both still see all three, in the thread and in the pairwise call; unread state is kept.
    for user in (client_user, vera):
        api = api_for(user)
        assert {m["content"] for m in thread_of(api, booking).json()} == {"Hello Vera", "Hi Clara", "See you Monday"}
    assert unread(api_for(client_user))["systemCount"] == 1
    pairwise = api_for(vera).get(f"/api/messages/conversation/{client_user.pk}").json()
    assert [m["content"] for m in pairwise] == ["Hello Vera", "Hi Clara", "See you Monday"]
    # Running it again adds nothing.
    run_migration()
    assert Message.objects.count() == len(after)


def test_all_lists_each_thread_message_once(api_for, circle_booking, client_user, bob, vera):
    mine = post(api_for(bob), receiverId=vera.pk, content="Mine", bookingId=circle_booking.pk).json()
    theirs = post(api_for(vera), receiverId=bob.pk, content="Theirs", bookingId=circle_booking.pk).json()

    res = api_for(bob).get("/api/messages/all").json()

    assert [m["content"] for m in res] == ["Theirs", "Mine"]
    assert res[1]["id"] == mine["id"]  # his own copy: the thread's row
    assert res[0]["id"] != theirs["id"] and res[0]["receiverId"] == bob.pk  # his copy of Vera's
