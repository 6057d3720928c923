"""Scale-out: two Daphne processes share Redis; a message posted through one reaches a socket
connected to the other (ARCHITECTURE.md "Scale-out": no in-process state)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from django.conf import settings
from django.test import Client
from django.utils.crypto import get_random_string

from marketplace.testing.live import DaphneServer
from messaging.tests.wsclient import HandshakeRefused, WsClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_channel_layer")]


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def first_event(ws: WsClient, event_type: str, timeout: float = 5) -> dict:
    async def loop() -> dict:
        while True:
            data = await ws.recv_json(timeout=timeout)
            assert data is not None, f"socket closed ({ws.close_code}) before {event_type}"
            if data["type"] == event_type:
                return data["payload"]

    return await asyncio.wait_for(loop(), timeout)


async def post_message(server: DaphneServer, session: str, body: dict) -> httpx.Response:
    csrf = get_random_string(32)
    async with httpx.AsyncClient(base_url=server.url, timeout=10) as http:
        return await http.post(
            "/api/messages",
            json=body,
            headers={"X-CSRFToken": csrf, "Cookie": f"{settings.SESSION_COOKIE_NAME}={session}; csrftoken={csrf}"},
        )


def test_message_posted_through_one_daphne_arrives_on_a_socket_of_another(booking, client_user, verified_provider):
    assert settings.REDIS_URL, "the scale-out test needs REDIS_URL (a shared channel layer)"
    vera = verified_provider.user
    client_session, vera_session = session_cookie(client_user), session_cookie(vera)
    first = DaphneServer(app="marketplace.asgi:application").spawn()
    second = DaphneServer(app="marketplace.asgi:application").spawn()

    async def scenario() -> None:
        cookie = f"{settings.SESSION_COOKIE_NAME}={vera_session}"
        ws = await WsClient.connect(f"{second.ws_url}/ws/events/", origin=second.url, cookie=cookie)
        try:
            res = await post_message(
                first, client_session, {"receiverId": vera.pk, "content": "Across servers", "bookingId": booking.pk}
            )
            assert res.status_code == 201, res.text
            created = await first_event(ws, "message.created")
            assert created["id"] == res.json()["id"]
            assert created["content"] == "Across servers"
            assert (await first_event(ws, "unread.count"))["count"] == 1
        finally:
            await ws.close()

    async def refused() -> None:
        # The real stack in those processes also refuses anonymous sockets and foreign origins.
        anonymous = await WsClient.connect(f"{second.ws_url}/ws/events/", origin=second.url)
        assert await anonymous.recv_json() is None and anonymous.close_code == 4401
        with pytest.raises(HandshakeRefused):
            await WsClient.connect(f"{first.ws_url}/ws/events/", origin="https://evil.example", cookie="")

    try:
        first.wait_ready()
        second.wait_ready()
        asyncio.run(scenario())
        asyncio.run(refused())
    finally:
        first.stop()
        second.stop()
