"""The dashboard catches up after its websocket was down (found by the care circle
journey): a booking accepted while the socket was down appears when it reconnects, no reload.
Daphne (websockets) on the test database, Redis, Chromium."""

from __future__ import annotations

import asyncio
import datetime as dt
import re
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.utils import timezone
from playwright.sync_api import Browser, expect

from bookings.services import service_request_accept
from marketplace.testing.browser import sign_in_browser
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def server(transactional_db, daphne_servers):
    from channels.layers import get_channel_layer

    layer = get_channel_layer()
    if hasattr(layer, "flush"):  # sockets of earlier runs stay in their groups: start empty
        flusher = threading.Thread(target=lambda: asyncio.run(layer.flush()))
        flusher.start()
        flusher.join(timeout=10)
    daphne = daphne_servers()
    yield daphne
    sys.stdout.write(daphne.output())  # pytest shows it when the test failed


def in_thread(fn, /, **kwargs):
    """A service as a request runs it: in a thread without an event loop (Playwright keeps one here)."""

    def call():
        try:
            return fn(**kwargs)
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(call).result(timeout=10)


def test_a_booking_accepted_while_the_socket_was_down_appears_when_it_reconnects(
    browser: Browser, server, client_user, verified_provider
):
    request = ServiceRequestFactory(
        client=client_user, title="Tablet lessons", preferred_date=timezone.localdate() + dt.timedelta(days=9)
    )
    context = browser.new_context(base_url=server.url)
    page = context.new_page()
    sign_in_browser(page, server.url, client_user)
    state = {"down": False}
    sockets = []

    def route(ws):
        sockets.append(ws)
        if state["down"]:
            ws.close()
        else:
            ws.connect_to_server()

    page.route_web_socket(re.compile(r"/ws/events/$"), route)
    # The dashboard's reads of its lists in flight (lib/query's usePollWhileDisconnected reads them
    # again when a socket opens after the page was down, the first one included).
    reading: list[str] = []
    page.on("request", lambda r: "/api/dashboard" in r.url and reading.append(r.url))
    page.on("requestfinished", lambda r: "/api/dashboard" in r.url and reading.remove(r.url))
    page.on("requestfailed", lambda r: "/api/dashboard" in r.url and reading.remove(r.url))
    try:
        page.goto("/dashboard")
        expect(page.get_by_test_id("request-item").filter(has_text="Tablet lessons")).to_be_visible()
        deadline = time.monotonic() + 10
        while not sockets:
            assert time.monotonic() < deadline, "the dashboard opened no websocket"
            page.wait_for_timeout(50)
        # Open first: a page reads its lists again only after a socket it had was lost (one that
        # opens soon after the page loaded missed nothing). Until idle sockets stopped dying after
        # 5 s, this test passed on such a death, whether or not the socket had opened at first.
        expect(page.locator('[data-island="dashboard"]')).to_have_attribute("data-connected", "true")
        # Let the read the opening started land first: one still in flight when the request is
        # accepted below would bring the booking in as if the lost event had arrived (a fresh
        # clone's run failed so once).
        page.wait_for_timeout(200)
        deadline = time.monotonic() + 10
        while reading:
            assert time.monotonic() < deadline, f"the dashboard's reads never finished: {reading}"
            page.wait_for_timeout(50)

        # The socket drops and stays down while the request is accepted: that event is lost.
        state["down"] = True
        sockets[0].close()
        in_thread(service_request_accept, service_request_id=request.pk, actor=verified_provider.user)
        expect(page.get_by_test_id("booking-item")).to_have_count(0)

        # It comes back (the page's own retry): the dashboard reads its lists again.
        state["down"] = False
        item = page.get_by_test_id("booking-item")
        expect(item).to_have_count(1, timeout=20000)
        expect(item).to_contain_text("Tablet lessons")
        # The list may come from the poll while the socket is down; the page still opens a new one.
        deadline = time.monotonic() + 20
        while len(sockets) < 2:
            assert time.monotonic() < deadline, "the dashboard never opened its socket again"
            page.wait_for_timeout(100)
    finally:
        context.close()
