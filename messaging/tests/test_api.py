"""The message calls of spec section 7: scoping, sending rules, read marking."""

from __future__ import annotations

import datetime as dt

import pytest

from accounts.tests.factories import UserFactory
from bookings.tests.factories import BookingFactory
from messaging.models import Message, MessageType
from messaging.services import MAX_CONTENT_LENGTH
from messaging.tests.factories import MessageFactory, SystemMessageFactory

pytestmark = pytest.mark.django_db


def post_message(api, **body):
    return api.post("/api/messages", body, format="json")


# --- POST /api/messages -------------------------------------------------------------------


def test_client_sends_trimmed_message_to_provider_of_their_booking(api_for, booking, client_user, verified_provider):
    res = post_message(
        api_for(client_user), receiverId=verified_provider.user.pk, content="  Hello Vera!  ", bookingId=booking.pk
    )

    assert res.status_code == 201, res.content
    body = res.json()
    assert body["content"] == "Hello Vera!"
    assert body["senderId"] == client_user.pk
    assert body["bookingId"] == booking.pk
    assert body["messageType"] == "text"
    assert {"id", "createdAt", "updatedAt"} <= set(body)
    # A booking's message goes to its thread: the answer is the sender's copy (the thread's row,
    # read), and Vera has hers, unread.
    assert body["thread"] is True
    assert body["receiverId"] == client_user.pk and body["isRead"] is True
    stored = Message.objects.get(pk=body["id"])
    assert stored.content == "Hello Vera!" and stored.sender == client_user
    vera_copy = Message.objects.get(receiver=verified_provider.user)
    assert (vera_copy.content, vera_copy.sender, vera_copy.is_read, vera_copy.thread) == (
        "Hello Vera!",
        client_user,
        False,
        True,
    )


def test_provider_replies_to_client_without_booking_id_into_their_newest_booking(
    api_for, booking, client_user, verified_provider
):
    newer = BookingFactory(
        service_request__client=client_user,
        service_request__recipient=booking.recipient,
        provider=verified_provider,
        scheduled_date=booking.scheduled_date + dt.timedelta(days=7),
    )

    res = post_message(api_for(verified_provider.user), receiverId=client_user.pk, content="Hi Clara")

    assert res.status_code == 201
    assert res.json()["bookingId"] == newer.pk and res.json()["thread"] is True


@pytest.mark.parametrize("content", ["", "   ", "\n\t  \n"])
def test_empty_or_whitespace_only_content_is_400(api_for, booking, client_user, verified_provider, content):
    res = post_message(api_for(client_user), receiverId=verified_provider.user.pk, content=content)

    assert res.status_code == 400
    assert res.json()["errors"] == {"content": ["Message cannot be empty."]}
    assert Message.objects.count() == 0


def test_content_longer_than_the_limit_is_400(api_for, booking, client_user, verified_provider):
    api = api_for(client_user)
    too_long = post_message(api, receiverId=verified_provider.user.pk, content="x" * (MAX_CONTENT_LENGTH + 1))
    at_limit = post_message(api, receiverId=verified_provider.user.pk, content="x" * MAX_CONTENT_LENGTH)

    assert too_long.status_code == 400
    assert "content" in too_long.json()["errors"]
    assert at_limit.status_code == 201


def test_missing_fields_and_unknown_fields_are_400(api_for, booking, client_user, verified_provider):
    api = api_for(client_user)

    missing = post_message(api)
    unknown = post_message(api, receiverId=verified_provider.user.pk, content="Hi", senderId="someone")
    bad_booking = post_message(api, receiverId=verified_provider.user.pk, content="Hi", bookingId="abc")

    assert missing.status_code == 400
    assert set(missing.json()["errors"]) == {"receiverId", "content"}
    assert unknown.status_code == 400 and unknown.json()["errors"] == {"senderId": ["Unknown field."]}
    assert bad_booking.status_code == 400 and "bookingId" in bad_booking.json()["errors"]


def test_messaging_someone_without_a_shared_booking_is_403(api_for, booking, client_user, stranger):
    res = post_message(api_for(stranger), receiverId=client_user.pk, content="Hello there")

    assert res.status_code == 403
    assert res.json()["message"] == "You can only message people you have a booking with, or support."
    assert Message.objects.count() == 0


def test_unknown_receiver_is_404(api_for, client_user):
    res = post_message(api_for(client_user), receiverId="no-such-uid", content="Hello")

    assert res.status_code == 404
    assert Message.objects.count() == 0


def test_messaging_yourself_is_400(api_for, client_user):
    res = post_message(api_for(client_user), receiverId=client_user.pk, content="Note to self")

    assert res.status_code == 400
    assert "receiverId" in res.json()["errors"]


def test_booking_id_must_be_a_booking_between_the_two(api_for, booking, client_user, verified_provider):
    other_booking = BookingFactory()  # between two other people

    res = post_message(
        api_for(client_user), receiverId=verified_provider.user.pk, content="Hi", bookingId=other_booking.pk
    )
    missing = post_message(api_for(client_user), receiverId=verified_provider.user.pk, content="Hi", bookingId=99999)

    assert res.status_code == 400
    assert res.json()["errors"] == {"bookingId": ["This booking is not one between you and the receiver."]}
    assert missing.status_code == 400
    assert Message.objects.count() == 0


def test_anyone_can_write_to_support_and_admin_can_write_to_anyone(api_for, client_user, stranger, admin_user):
    to_support = post_message(api_for(stranger), receiverId=admin_user.pk, content="I need help")
    from_admin = post_message(api_for(admin_user), receiverId=client_user.pk, content="How can we help?")

    assert to_support.status_code == 201
    assert from_admin.status_code == 201


def test_admin_may_reference_a_booking_of_the_receiver_only(api_for, booking, client_user, stranger, admin_user):
    api = api_for(admin_user)
    ok = post_message(api, receiverId=client_user.pk, content="About your booking", bookingId=booking.pk)
    wrong = post_message(api, receiverId=stranger.pk, content="About a booking", bookingId=booking.pk)

    assert ok.status_code == 201
    assert wrong.status_code == 400


def test_inactive_receiver_is_404(api_for, booking, client_user, verified_provider):
    verified_provider.user.is_active = False
    verified_provider.user.save(update_fields=["is_active"])

    res = post_message(api_for(client_user), receiverId=verified_provider.user.pk, content="Hello")

    assert res.status_code == 404


def test_signed_out_is_401(client):
    res = client.post("/api/messages", {"receiverId": "x", "content": "Hi"}, content_type="application/json")

    assert res.status_code == 401
    assert res.json() == {"message": "Unauthorized", "errors": {}}


# --- GET /api/messages/conversation/{otherUserId} ------------------------------------------


def test_conversation_lists_both_directions_oldest_first_and_marks_incoming_read(
    api_for, booking, client_user, verified_provider
):
    vera = verified_provider.user
    first = MessageFactory(sender=client_user, receiver=vera, content="one")
    second = MessageFactory(sender=vera, receiver=client_user, content="two")
    third = MessageFactory(sender=vera, receiver=client_user, content="three")

    res = api_for(client_user).get(f"/api/messages/conversation/{vera.pk}")

    assert res.status_code == 200
    assert [m["id"] for m in res.json()] == [first.pk, second.pk, third.pk]
    second.refresh_from_db()
    third.refresh_from_db()
    first.refresh_from_db()
    assert second.is_read and third.is_read
    assert first.is_read is False  # the caller's own message stays unread for Vera


def test_conversation_never_shows_another_pairs_messages(api_for, booking, client_user, verified_provider, stranger):
    vera = verified_provider.user
    MessageFactory(sender=client_user, receiver=vera, content="private")
    mine = MessageFactory(sender=stranger, receiver=vera, content="mine")

    as_stranger = api_for(stranger).get(f"/api/messages/conversation/{vera.pk}")
    about_client = api_for(stranger).get(f"/api/messages/conversation/{client_user.pk}")

    assert [m["id"] for m in as_stranger.json()] == [mine.pk]
    assert about_client.status_code == 200 and about_client.json() == []
    assert Message.objects.get(content="private").is_read is False


def test_conversation_with_unknown_user_is_404(api_for, client_user):
    assert api_for(client_user).get("/api/messages/conversation/nobody").status_code == 404


def test_conversation_excludes_system_notifications(api_for, booking, client_user, verified_provider):
    SystemMessageFactory(receiver=client_user, content="Booking confirmed")

    res = api_for(client_user).get(f"/api/messages/conversation/{verified_provider.user.pk}")

    assert res.json() == []


# --- unread count, system notifications, all ----------------------------------------------


def test_unread_count_counts_messages_to_the_caller_only(api_for, booking, client_user, verified_provider):
    vera = verified_provider.user
    MessageFactory.create_batch(2, sender=vera, receiver=client_user)
    MessageFactory(sender=vera, receiver=client_user, is_read=True)
    MessageFactory(sender=client_user, receiver=vera)
    SystemMessageFactory(receiver=client_user)

    res = api_for(client_user).get("/api/messages/unread-count")

    assert res.status_code == 200
    assert res.json() == {"count": 3, "systemCount": 1, "bySender": {vera.pk: 2}, "byBooking": {}}


def test_reading_a_conversation_lowers_the_unread_count(api_for, booking, client_user, verified_provider):
    vera = verified_provider.user
    MessageFactory.create_batch(2, sender=vera, receiver=client_user)
    api = api_for(client_user)

    api.get(f"/api/messages/conversation/{vera.pk}")

    assert api.get("/api/messages/unread-count").json()["count"] == 0


def test_system_notifications_are_listed_and_marked_read(api_for, client_user, stranger):
    mine = SystemMessageFactory(receiver=client_user, content="Your booking is confirmed")
    SystemMessageFactory(receiver=stranger, content="Not yours")
    api = api_for(client_user)

    res = api.get("/api/messages/system-notifications")

    assert res.status_code == 200
    body = res.json()
    assert [m["id"] for m in body] == [mine.pk]
    assert body[0]["senderId"] == "system"
    assert body[0]["messageType"] == MessageType.SYSTEM
    assert body[0]["isRead"] is True
    assert api.get("/api/messages/unread-count").json()["systemCount"] == 0
    assert Message.objects.get(receiver=stranger).is_read is False


def test_all_lists_only_the_callers_messages_newest_first(api_for, booking, client_user, verified_provider, stranger):
    vera = verified_provider.user
    a = MessageFactory(sender=client_user, receiver=vera)
    b = MessageFactory(sender=vera, receiver=client_user)
    s = SystemMessageFactory(receiver=client_user)
    MessageFactory(sender=stranger, receiver=vera)

    res = api_for(client_user).get("/api/messages/all")

    assert res.status_code == 200
    assert [m["id"] for m in res.json()] == [s.pk, b.pk, a.pk]
    assert res["X-Total-Count"] == "3"


def test_all_runs_a_fixed_number_of_queries(api_for, client_user, django_assert_max_num_queries):
    senders = UserFactory.create_batch(5)
    for sender in senders:
        MessageFactory.create_batch(3, sender=sender, receiver=client_user)
    api = api_for(client_user)

    with django_assert_max_num_queries(6):
        res = api.get("/api/messages/all")

    assert len(res.json()) == 15


@pytest.mark.parametrize(
    "path",
    [
        "/api/messages/all",
        "/api/messages/unread-count",
        "/api/messages/conversation/anyone",
        "/api/messages/system-notifications",
        "/api/messages/conversations",
    ],
)
def test_reads_need_a_signed_in_user(client, path):
    assert client.get(path).status_code == 401


def test_hostile_input_is_refused_without_a_server_error(api_for, booking, client_user, verified_provider):
    api = api_for(client_user)
    vera = verified_provider.user

    nul_content = post_message(api, receiverId=vera.pk, content="hi\x00there")
    nul_receiver = post_message(api, receiverId="a\x00b", content="hi")
    huge_booking = post_message(api, receiverId=vera.pk, content="hi", bookingId=10**30)
    not_object = api.post("/api/messages", ["not", "an", "object"], format="json")
    nul_path = api.get("/api/messages/conversation/a%00b")
    long_path = api.get("/api/messages/conversation/" + "x" * 300)

    assert [r.status_code for r in (nul_content, nul_receiver, huge_booking, not_object)] == [400] * 4
    assert [r.status_code for r in (nul_path, long_path)] == [404, 404]
    assert Message.objects.count() == 0


def test_conversation_runs_a_fixed_number_of_queries(
    api_for, booking, client_user, verified_provider, django_assert_max_num_queries
):
    vera = verified_provider.user
    for _ in range(10):
        MessageFactory(sender=vera, receiver=client_user)
        MessageFactory(sender=client_user, receiver=vera)
    api = api_for(client_user)

    with django_assert_max_num_queries(8):
        res = api.get(f"/api/messages/conversation/{vera.pk}")

    assert len(res.json()) == 20


def test_conversations_lists_booking_partners_of_the_caller_only(
    api_for, booking, client_user, verified_provider, stranger
):
    BookingFactory(service_request__client=stranger)  # someone else's booking

    mine = api_for(client_user).get("/api/messages/conversations")
    theirs = api_for(verified_provider.user).get("/api/messages/conversations")

    assert mine.status_code == 200
    assert [(c["user"]["id"], c["role"], c["bookingId"]) for c in mine.json()] == [
        (verified_provider.user.pk, "provider", booking.pk)
    ]
    assert [(c["user"]["id"], c["role"]) for c in theirs.json()] == [(client_user.pk, "client")]
    assert "email" not in mine.json()[0]["user"]
