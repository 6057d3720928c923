"""marketplace/handlers.py: Django's ASGI handler with the whole middleware chain and view in one
thread hop, on reused threads. Same responses as Django's own handler; fewer hops; a slow request
does not hold up the next; streaming, files, bodies and client addresses pass through unchanged."""

from __future__ import annotations

import asyncio
import re
import threading

import pytest
from asgiref import sync
from channels.testing import ApplicationCommunicator
from django.core.handlers.asgi import ASGIHandler
from django.core.signals import request_finished, request_started
from django.test import override_settings

from marketplace.handlers import SingleHopASGIHandler
from marketplace.tests import handler_urls

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]

HOST = [(b"host", b"127.0.0.1"), (b"accept", b"application/json")]
# Differ on every response by design.
VARYING = {b"x-request-id", b"content-security-policy"}


async def call(handler, method: str, path: str, body: bytes = b"", headers=()) -> dict:
    """status, headers and the whole body (channels' HttpCommunicator wants a body in every
    message; a streamed response may end with a message that has none, as ASGI allows)."""
    path, _, query = path.partition("?")
    scope = {"type": "http", "http_version": "1.1", "method": method, "path": path}
    scope.update(query_string=query.encode(), headers=[*HOST, *headers], client=("127.0.0.1", 50000))
    communicator = ApplicationCommunicator(handler, scope)
    await communicator.send_input({"type": "http.request", "body": body})
    response = await communicator.receive_output(timeout=10)
    assert response["type"] == "http.response.start"
    response["body"] = b""
    while True:
        message = await communicator.receive_output(timeout=10)
        response["body"] += message.get("body", b"")
        if not message.get("more_body"):
            break
    await communicator.wait(timeout=10)
    return response


def comparable(response: dict) -> tuple:
    # Pages carry a fresh CSRF token and script nonce each time.
    body = re.sub(rb'(csrf-token" content=|nonce=)"[^"]+"', rb'\1"-"', response["body"])
    headers = sorted(
        (k.lower(), v.split(b"=")[0] if k.lower() == b"set-cookie" else v)  # a fresh CSRF token each time
        for k, v in response["headers"]
        if k.lower() not in VARYING
    )
    return response["status"], headers, body


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/healthz", b""),
        ("GET", "/api/auth/user", b""),  # signed out
        ("GET", "/api/no-such-call", b""),
        ("POST", "/api/auth/session", b"{}"),  # no CSRF token, no ID token
        ("GET", "/api/service-categories", b""),
        ("GET", "/privacy-policy", b""),
        ("GET", "/no-such-page", b""),
    ],
)
async def test_answers_exactly_what_djangos_own_handler_answers(method, path, body):
    ours = await call(SingleHopASGIHandler(), method, path, body, [(b"content-type", b"application/json")])
    django = await call(ASGIHandler(), method, path, body, [(b"content-type", b"application/json")])
    assert comparable(ours) == comparable(django)
    assert {k.lower() for k, _ in ours["headers"]} >= {b"x-request-id", b"x-content-type-options"}


async def count_hops(monkeypatch, handler, path: str) -> int:
    calls = []
    original = sync.SyncToAsync.__call__

    async def counting(self, *args, **kwargs):
        calls.append(self.func)
        return await original(self, *args, **kwargs)

    monkeypatch.setattr(sync.SyncToAsync, "__call__", counting)
    await call(handler, "GET", path)
    monkeypatch.undo()
    return len(calls)


async def test_a_request_crosses_to_a_thread_once_not_a_dozen_times(monkeypatch):
    ours = await count_hops(monkeypatch, SingleHopASGIHandler(), "/api/service-categories")
    django = await count_hops(monkeypatch, ASGIHandler(), "/api/service-categories")
    assert ours == 1
    assert django >= 8


@override_settings(ROOT_URLCONF="marketplace.tests.handler_urls")
async def test_a_streaming_response_is_closed_after_sending_on_the_same_thread(monkeypatch):
    # The request; Django reading the sync iterator (as its own handler does); closing.
    assert await count_hops(monkeypatch, SingleHopASGIHandler(), "/stream") == 3
    threads = {}

    def started(**kwargs):
        threads["started"] = threading.get_ident()

    def finished(**kwargs):
        threads["finished"] = threading.get_ident()

    request_started.connect(started)
    request_finished.connect(finished)
    try:
        response = await call(SingleHopASGIHandler(), "GET", "/stream")
    finally:
        request_started.disconnect(started)
        request_finished.disconnect(finished)
    assert response["body"].startswith(b"part 0")
    assert threads["started"] == threads["finished"] != threading.get_ident()


async def test_sequential_requests_reuse_one_worker_thread_off_the_event_loop():
    seen = []

    def record(**kwargs):
        seen.append(threading.get_ident())

    request_started.connect(record)
    try:
        handler = SingleHopASGIHandler()
        for _ in range(3):
            assert (await call(handler, "GET", "/healthz"))["status"] == 200
    finally:
        request_started.disconnect(record)
    assert len(seen) == 3
    assert len(set(seen)) == 1
    assert seen[0] != threading.get_ident()


@override_settings(ROOT_URLCONF="marketplace.tests.handler_urls")
async def test_a_request_waiting_in_its_view_does_not_hold_up_the_next():
    handler_urls.released.clear()
    handler = SingleHopASGIHandler(max_threads=2)
    waiting = asyncio.ensure_future(call(handler, "GET", "/wait"))
    await asyncio.sleep(0.2)
    assert (await call(handler, "GET", "/release"))["body"] == b"ok"
    assert (await waiting)["body"] == b"released"
    # Both threads go back to the handler for later requests.
    assert len(handler._idle) == 2


@override_settings(ROOT_URLCONF="marketplace.tests.handler_urls")
async def test_beyond_max_threads_a_request_waits_for_a_free_thread():
    handler_urls.released.clear()
    handler = SingleHopASGIHandler(max_threads=1)
    waiting = asyncio.ensure_future(call(handler, "GET", "/wait?timeout=0.5"))
    await asyncio.sleep(0.1)
    # The one thread is busy: the release can only run after the wait gave up.
    assert (await call(handler, "GET", "/release"))["body"] == b"ok"
    assert (await waiting)["body"] == b"timed out"
    assert handler._threads == 1


@override_settings(ROOT_URLCONF="marketplace.tests.handler_urls")
async def test_a_request_cancelled_while_waiting_for_a_thread_gives_nothing_away():
    handler_urls.released.clear()
    handler = SingleHopASGIHandler(max_threads=1)
    holding = asyncio.ensure_future(call(handler, "GET", "/wait?timeout=5"))
    await asyncio.sleep(0.1)
    queued = asyncio.ensure_future(handler._acquire())
    await asyncio.sleep(0.1)
    queued.cancel()
    with pytest.raises(asyncio.CancelledError):
        await queued
    handler_urls.released.set()
    assert (await holding)["body"] == b"released"
    # The thread went back to the pool, not to the cancelled waiter.
    assert len(handler._idle) == 1
    assert (await call(handler, "GET", "/release"))["body"] == b"ok"


@override_settings(ROOT_URLCONF="marketplace.tests.handler_urls")
async def test_streaming_and_file_responses_arrive_whole():
    handler = SingleHopASGIHandler()
    streamed = await call(handler, "GET", "/stream")
    assert streamed["status"] == 200
    assert streamed["body"] == b"".join(f"part {i}\n".encode() for i in range(5))
    filed = await call(handler, "GET", "/file")
    assert filed["status"] == 200
    assert filed["body"] == b"x" * 200_000


@override_settings(ROOT_URLCONF="marketplace.tests.handler_urls")
async def test_body_in_chunks_and_client_address_reach_the_view():
    handler = SingleHopASGIHandler()
    scope = {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "path": "/echo",
        "query_string": b"",
        "headers": HOST,
        "client": ("203.0.113.9", 4242),
    }
    communicator = ApplicationCommunicator(handler, scope)
    await communicator.send_input({"type": "http.request", "body": b"abc", "more_body": True})
    await communicator.send_input({"type": "http.request", "body": b"def"})
    start = await communicator.receive_output(timeout=10)
    body = await communicator.receive_output(timeout=10)
    assert start["status"] == 200
    assert body["body"] == b"fedcba"
    address = ApplicationCommunicator(handler, {**scope, "method": "GET", "path": "/client"})
    await address.send_input({"type": "http.request", "body": b""})
    await address.receive_output(timeout=10)
    assert (await address.receive_output(timeout=10))["body"] == b"203.0.113.9"


async def test_a_client_gone_before_its_body_ends_gets_nothing_and_breaks_nothing():
    handler = SingleHopASGIHandler()
    scope = {"type": "http", "http_version": "1.1", "method": "POST", "path": "/api/service-requests"}
    communicator = ApplicationCommunicator(handler, {**scope, "query_string": b"", "headers": HOST})
    await communicator.send_input({"type": "http.request", "body": b"{", "more_body": True})
    await communicator.send_input({"type": "http.disconnect"})
    await communicator.wait(timeout=10)
    assert await communicator.receive_nothing()
    assert (await call(handler, "GET", "/healthz"))["status"] == 200


async def test_only_http_is_served():
    with pytest.raises(ValueError, match="websocket"):
        await SingleHopASGIHandler()({"type": "websocket"}, None, None)
