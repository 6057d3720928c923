"""/ws/events/ through the real ASGI stack (origin check, session auth) and the Redis layer."""

from __future__ import annotations

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from channels_redis.core import RedisChannelLayer
from django.conf import settings
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from accounts.tests.factories import AdminUserFactory
from core.realtime import send_on_commit
from marketplace.asgi import application
from marketplace.testing.second_factor import with_verified_second_factor
from messaging import services
from messaging.consumers import CLOSE_SECOND_FACTOR, CLOSE_UNAUTHENTICATED

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.asyncio,
    pytest.mark.usefixtures("fresh_channel_layer"),
]

GOOD_ORIGIN = b"http://127.0.0.1"
# Long enough for a pushed event to cross Redis on loopback many times over.
QUIET = 0.4


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


def socket(cookie: str | None = None, origin: bytes = GOOD_ORIGIN) -> WebsocketCommunicator:
    headers = [(b"origin", origin)]
    if cookie:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    return WebsocketCommunicator(application, "/ws/events/", headers=headers)


async def connected(user_cookie: str) -> WebsocketCommunicator:
    """A signed-in socket, past the unread count every socket gets first."""
    comm = socket(user_cookie)
    ok, _ = await comm.connect(timeout=5)
    assert ok
    first = await comm.receive_json_from(timeout=5)
    assert first["type"] == "unread.count"
    return comm


async def next_event(comm: WebsocketCommunicator, event_type: str, timeout: float = 5) -> dict:
    """The payload of the next event of this type (other types before it are skipped)."""
    while True:
        data = await comm.receive_json_from(timeout=timeout)
        if data["type"] == event_type:
            return data["payload"]


@sync_to_async
def api_call(user, method: str, path: str, body: dict | None = None):
    """One API call as the signed-in user, from a thread (the ORM is sync-only)."""
    api = APIClient()
    api.force_login(user)
    return getattr(api, method)(path, body, format="json")


@pytest.fixture
def cookies(client_user, verified_provider, stranger, booking):
    return {
        "client": session_cookie(client_user),
        "provider": session_cookie(verified_provider.user),
        "stranger": session_cookie(stranger),
    }


async def test_anonymous_socket_is_closed_with_4401():
    comm = socket()
    ok, _ = await comm.connect(timeout=5)
    assert ok  # accepted only so that the close code reaches the browser
    closing = await comm.receive_output(timeout=5)
    assert closing == {"type": "websocket.close", "code": CLOSE_UNAUTHENTICATED}


async def test_forged_session_cookie_is_treated_as_anonymous():
    comm = socket("not-a-real-session-key")
    await comm.connect(timeout=5)
    assert (await comm.receive_output(timeout=5))["code"] == CLOSE_UNAUTHENTICATED


async def test_staff_socket_without_the_second_step_is_closed_and_with_it_opens():
    """Staff rights on the socket (staff events) wait for the second step, as the staff API does."""
    without = await database_sync_to_async(lambda: session_cookie(AdminUserFactory()))()
    comm = socket(without)
    ok, _ = await comm.connect(timeout=5)
    assert ok
    assert await comm.receive_output(timeout=5) == {"type": "websocket.close", "code": CLOSE_SECOND_FACTOR}

    passed = await database_sync_to_async(lambda: session_cookie(with_verified_second_factor(AdminUserFactory())))()
    comm = await connected(passed)
    await comm.disconnect()


async def test_foreign_origin_is_refused(cookies):
    comm = socket(cookies["client"], origin=b"https://evil.example")
    ok, _ = await comm.connect(timeout=5)
    assert ok is False


async def test_message_reaches_receiver_and_senders_tabs_and_unread_count_is_pushed(
    cookies, client_user, verified_provider, booking
):
    vera = verified_provider.user
    provider_socket = await connected(cookies["provider"])
    client_socket = await connected(cookies["client"])

    res = await api_call(
        client_user, "post", "/api/messages", {"receiverId": vera.pk, "content": "Hello Vera", "bookingId": booking.pk}
    )
    assert res.status_code == 201

    created = await next_event(provider_socket, "message.created")
    assert created["id"] == res.json()["id"]
    assert created["content"] == "Hello Vera"
    assert created["senderId"] == client_user.pk
    unread = await next_event(provider_socket, "unread.count")
    assert unread == {"count": 1, "systemCount": 0, "bySender": {client_user.pk: 1}, "byBooking": {str(booking.pk): 1}}
    echoed = await next_event(client_socket, "message.created")
    assert echoed["id"] == created["id"]

    await provider_socket.disconnect()
    await client_socket.disconnect()


async def test_a_new_socket_starts_with_the_current_unread_count(cookies, client_user, verified_provider, booking):
    vera = verified_provider.user
    await database_sync_to_async(services.message_send)(sender=client_user, receiver_id=vera.pk, content="One")

    comm = socket(cookies["provider"])
    await comm.connect(timeout=5)

    assert await comm.receive_json_from(timeout=5) == {
        "type": "unread.count",
        "payload": {"count": 1, "systemCount": 0, "bySender": {client_user.pk: 1}, "byBooking": {str(booking.pk): 1}},
    }
    await comm.disconnect()


async def test_unread_count_is_pushed_after_reading(cookies, client_user, verified_provider, booking):
    vera = verified_provider.user
    await database_sync_to_async(services.message_send)(sender=client_user, receiver_id=vera.pk, content="One")
    provider_socket = await connected(cookies["provider"])

    res = await api_call(vera, "get", f"/api/messages/conversation/{client_user.pk}")
    assert res.status_code == 200

    assert await next_event(provider_socket, "unread.count") == {
        "count": 0,
        "systemCount": 0,
        "bySender": {},
        "byBooking": {},
    }
    await provider_socket.disconnect()


async def test_a_user_never_receives_another_pairs_messages(cookies, client_user, verified_provider, stranger):
    stranger_socket = await connected(cookies["stranger"])
    provider_socket = await connected(cookies["provider"])

    await database_sync_to_async(services.message_send)(
        sender=client_user, receiver_id=verified_provider.user.pk, content="Private"
    )

    await next_event(provider_socket, "message.created")
    assert await stranger_socket.receive_nothing(timeout=QUIET)
    await stranger_socket.disconnect()
    await provider_socket.disconnect()


async def test_typing_reaches_only_the_other_party_of_a_shared_booking(
    cookies, client_user, verified_provider, stranger
):
    vera = verified_provider.user
    client_socket = await connected(cookies["client"])
    provider_socket = await connected(cookies["provider"])
    stranger_socket = await connected(cookies["stranger"])

    await client_socket.send_json_to({"type": "typing", "to": vera.pk})
    assert await next_event(provider_socket, "typing") == {"from": client_user.pk}

    # No shared booking: dropped both ways, and nobody else hears it either.
    await stranger_socket.send_json_to({"type": "typing", "to": vera.pk})
    await client_socket.send_json_to({"type": "typing", "to": stranger.pk})
    assert await provider_socket.receive_nothing(timeout=QUIET)
    assert await stranger_socket.receive_nothing(timeout=QUIET)
    assert await client_socket.receive_nothing(timeout=0.05)

    for comm in (client_socket, provider_socket, stranger_socket):
        await comm.disconnect()


async def test_a_socket_left_idle_longer_than_the_layers_blocking_read_stays_open_and_live(
    cookies, client_user, verified_provider, booking
):
    """The consumer waits for events in a blocking Redis read of brpop_timeout (5 s); a socket quiet
    for longer must neither die (redis-py's own 5 s read timeout once killed every idle consumer,
    and each page reconnected every few seconds) nor miss the next event."""
    vera = verified_provider.user
    provider_socket = await connected(cookies["provider"])
    await asyncio.sleep(RedisChannelLayer.brpop_timeout + 1.5)
    await provider_socket.receive_nothing(timeout=0.1)  # raises what the consumer died of, if it did

    res = await api_call(
        client_user,
        "post",
        "/api/messages",
        {"receiverId": vera.pk, "content": "Still there?", "bookingId": booking.pk},
    )
    assert res.status_code == 201
    assert (await next_event(provider_socket, "message.created"))["content"] == "Still there?"
    await provider_socket.disconnect()


async def test_malformed_frames_are_ignored_and_the_socket_stays_open(cookies, client_user):
    comm = await connected(cookies["client"])

    await comm.send_to(text_data="{not json")
    await comm.send_to(text_data=json.dumps(["typing"]))
    await comm.send_json_to({"type": "typing", "to": 42})
    await comm.send_json_to({"type": "unknown"})
    assert await comm.receive_nothing(timeout=0.2)

    # Still open: an event pushed now arrives.
    await database_sync_to_async(send_on_commit)([client_user.pk], "booking.updated", {"id": 1})
    assert await comm.receive_json_from(timeout=5) == {"type": "booking.updated", "payload": {"id": 1}}
    await comm.disconnect()


async def test_system_notification_is_pushed_on_commit_and_not_on_rollback(cookies, client_user):
    comm = await connected(cookies["client"])

    def notify_then_roll_back():
        with transaction.atomic():
            services.system_notify(receivers=[client_user], content="Rolled back")
            transaction.set_rollback(True)

    await database_sync_to_async(notify_then_roll_back)()
    assert await comm.receive_nothing(timeout=QUIET)

    await database_sync_to_async(services.system_notify)(receivers=[client_user], content="Booking confirmed")
    created = await next_event(comm, "message.created")
    assert created["senderId"] == "system" and created["content"] == "Booking confirmed"
    assert await next_event(comm, "unread.count") == {"count": 1, "systemCount": 1, "bySender": {}, "byBooking": {}}
    await comm.disconnect()


async def test_booking_updated_events_from_booking_services_are_relayed(cookies, client_user, booking):
    comm = await connected(cookies["client"])

    await database_sync_to_async(send_on_commit)([client_user.pk], "booking.updated", {"id": booking.pk})

    assert await comm.receive_json_from(timeout=5) == {"type": "booking.updated", "payload": {"id": booking.pk}}
    await comm.disconnect()


# --- a care circle's booking thread ---------------------------------------------


@pytest.fixture
def circle_cookies(client_user, verified_provider, bob, stranger, circle_booking):
    return {
        "clara": session_cookie(client_user),
        "vera": session_cookie(verified_provider.user),
        "bob": session_cookie(bob),
        "stranger": session_cookie(stranger),
    }


async def test_every_member_gets_a_thread_message_live_with_their_own_unread_count(
    circle_cookies, client_user, verified_provider, bob, circle_booking
):
    vera = verified_provider.user
    clara_socket = await connected(circle_cookies["clara"])
    bob_socket = await connected(circle_cookies["bob"])
    stranger_socket = await connected(circle_cookies["stranger"])

    res = await api_call(
        vera,
        "post",
        "/api/messages",
        {"receiverId": client_user.pk, "content": "On my way", "bookingId": circle_booking.pk},
    )
    assert res.status_code == 201

    key = str(circle_booking.pk)
    for comm in (clara_socket, bob_socket):
        created = await next_event(comm, "message.created")
        assert (created["id"], created["content"], created["thread"]) == (res.json()["id"], "On my way", True)
        assert created["sender"]["firstName"] == "Vera"
        assert await next_event(comm, "unread.count") == {
            "count": 1,
            "systemCount": 0,
            "bySender": {vera.pk: 1},
            "byBooking": {key: 1},
        }
    assert await stranger_socket.receive_nothing(timeout=QUIET)

    # Bob reads the thread: only his count drops.
    await api_call(bob, "get", f"/api/messages/booking/{circle_booking.pk}")
    assert (await next_event(bob_socket, "unread.count"))["count"] == 0
    assert await clara_socket.receive_nothing(timeout=QUIET)

    for comm in (clara_socket, bob_socket, stranger_socket):
        await comm.disconnect()


async def test_a_removed_member_stops_getting_the_threads_events_at_once(
    circle_cookies, client_user, verified_provider, bob, harold, circle_booking, remove_member
):
    vera = verified_provider.user
    bob_socket = await connected(circle_cookies["bob"])
    clara_socket = await connected(circle_cookies["clara"])
    vera_socket = await connected(circle_cookies["vera"])

    # Before: Bob hears the thread's typing and messages.
    await vera_socket.send_json_to({"type": "typing", "booking": circle_booking.pk})
    assert await next_event(bob_socket, "typing") == {"from": vera.pk, "name": "Vera", "bookingId": circle_booking.pk}
    assert (await next_event(clara_socket, "typing"))["from"] == vera.pk

    await database_sync_to_async(remove_member)(harold, bob)
    # His socket stays open (his own events still come), but nothing of Harold's threads.
    await api_call(
        vera,
        "post",
        "/api/messages",
        {"receiverId": client_user.pk, "content": "After", "bookingId": circle_booking.pk},
    )
    await vera_socket.send_json_to({"type": "typing", "booking": circle_booking.pk})
    assert (await next_event(clara_socket, "message.created"))["content"] == "After"
    assert (await next_event(clara_socket, "typing"))["from"] == vera.pk
    assert await bob_socket.receive_nothing(timeout=QUIET)
    assert (await next_event(vera_socket, "message.created"))["content"] == "After"  # her own, echoed

    # Nor can he type into it any more.
    await bob_socket.send_json_to({"type": "typing", "booking": circle_booking.pk})
    assert await vera_socket.receive_nothing(timeout=QUIET)
    res = await api_call(bob, "get", f"/api/messages/booking/{circle_booking.pk}")
    assert res.status_code == 404

    for comm in (bob_socket, clara_socket, vera_socket):
        await comm.disconnect()


async def test_typing_into_a_thread_one_takes_no_part_in_is_dropped(circle_cookies, verified_provider, circle_booking):
    stranger_socket = await connected(circle_cookies["stranger"])
    vera_socket = await connected(circle_cookies["vera"])

    await stranger_socket.send_json_to({"type": "typing", "booking": circle_booking.pk})
    await stranger_socket.send_json_to({"type": "typing", "booking": "1"})
    await stranger_socket.send_json_to({"type": "typing", "booking": 10**30})

    assert await vera_socket.receive_nothing(timeout=QUIET)
    for comm in (stranger_socket, vera_socket):
        await comm.disconnect()
