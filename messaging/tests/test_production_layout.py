"""The production layout (docs/deploy.md): gunicorn, started from the repository's gunicorn.conf.py,
serves HTTP through Django's WSGI handler with gthread workers; Daphne serves the websockets; an
event caused by a request to the one reaches a socket on the other through Redis."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import httpx
import pytest
from django.conf import settings

from marketplace.testing.live import BASE_DIR, DaphneServer
from messaging.tests.test_scale_out import first_event, post_message, session_cookie
from messaging.tests.wsclient import WsClient

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("fresh_channel_layer")]


class GunicornServer(DaphneServer):
    """gunicorn as production runs it: `gunicorn` in the checkout, its settings from
    gunicorn.conf.py (here one worker of two threads, through the environment it reads)."""

    def spawn(self) -> GunicornServer:
        env = {**self.env, "GUNICORN_BIND": f"127.0.0.1:{self.port}", "WEB_CONCURRENCY": "1", "GUNICORN_THREADS": "2"}
        self.proc = subprocess.Popen(  # noqa: S603
            [sys.executable, "-m", "gunicorn"], cwd=BASE_DIR, env=env, stdout=self._log, stderr=subprocess.STDOUT
        )
        return self


def test_gunicorn_serves_the_app_through_wsgi_with_gthread_workers():
    with GunicornServer() as server:
        ready = httpx.get(f"{server.url}/readyz", timeout=10)
        assert ready.status_code == 200, ready.text  # Django, PostgreSQL and Redis behind it
        anonymous = httpx.get(f"{server.url}/api/auth/user", timeout=10)
        assert anonymous.status_code in (401, 403)
        assert set(anonymous.json()) == {"message", "errors"}  # the API's error body, through DRF
        log = server.output()
    assert "Using worker: gthread" in log
    # Each worker binds its own socket (reuse_port): the master names none, and the answers above
    # came from GUNICORN_BIND's loopback address.
    assert "Booting worker with pid" in log


def test_a_message_posted_through_gunicorn_arrives_on_a_socket_held_by_daphne(client_user, verified_provider, booking):
    assert settings.REDIS_URL, "the layout test needs REDIS_URL (a shared channel layer)"
    vera = verified_provider.user
    client_session, vera_session = session_cookie(client_user), session_cookie(vera)
    http = GunicornServer().spawn()
    ws_server = DaphneServer(app="marketplace.asgi:application").spawn()

    async def scenario() -> None:
        cookie = f"{settings.SESSION_COOKIE_NAME}={vera_session}"
        ws = await WsClient.connect(f"{ws_server.ws_url}/ws/events/", origin=ws_server.url, cookie=cookie)
        try:
            res = await post_message(
                http, client_session, {"receiverId": vera.pk, "content": "Through the proxy", "bookingId": booking.pk}
            )
            assert res.status_code == 201, res.text
            created = await first_event(ws, "message.created")
            assert created["id"] == res.json()["id"]
            assert created["content"] == "Through the proxy"
        finally:
            await ws.close()

    try:
        http.wait_ready()
        ws_server.wait_ready()
        asyncio.run(scenario())
    finally:
        http.stop()
        ws_server.stop()
