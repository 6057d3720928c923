"""A fake geocoding service at the HTTP boundary, and the place tasks run in the test's process.

``fake_nominatim`` serves Nominatim's /search on a free local port: the real GeopyGeocoder (geopy's
Nominatim client, its own HTTP adapter) talks to it when ``geopy_backend`` points settings at it.
It answers from `places` (query text -> (latitude, longitude)); any other query finds nothing;
`fail_next` answers the next requests with an error status (503 down, 429 over the rate). It
records each query and whether the caller's database connection was inside a transaction then.

``places_in_process`` runs circles.tasks.place_recipient and providers.tasks.place_provider when
they are enqueued (on commit), in the test's process, instead of leaving them on the Redis queue.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from django.db import DEFAULT_DB_ALIAS, connections


@dataclass
class FakeNominatim:
    places: dict[str, tuple[float, float]] = field(default_factory=dict)
    fail_next: list[int] = field(default_factory=list)
    queries: list[str] = field(default_factory=list)
    callers_in_transaction: list[bool] = field(default_factory=list)
    caller_connection: Any = None
    port: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)


def _handler_for(fake: FakeNominatim) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            query = parse_qs(url.query).get("q", [""])[0]
            with fake.lock:
                fake.queries.append(query)
                caller = fake.caller_connection
                fake.callers_in_transaction.append(bool(caller is not None and caller.in_atomic_block))
                status = fake.fail_next.pop(0) if fake.fail_next else 200
            if status != 200:
                body: Any = {"error": "unavailable"}
            elif url.path != "/search":
                status, body = 404, {"error": "not found"}
            elif query in fake.places:
                lat, lon = fake.places[query]
                body = [{"lat": str(lat), "lon": str(lon), "display_name": query, "place_id": 1}]
            else:
                body = []
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    return Handler


@pytest.fixture
def fake_nominatim():
    fake = FakeNominatim(caller_connection=connections[DEFAULT_DB_ALIAS])
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(fake))
    fake.port = server.server_address[1]
    # shutdown() waits for serve_forever to look again: every 0.05 s, not its default 0.5 s.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture
def geopy_backend(settings, fake_nominatim) -> FakeNominatim:
    """The production geocoder (geopy's Nominatim) pointed at the fake service."""
    settings.GEOCODER = "nominatim"
    settings.GEOCODER_OPTIONS = {
        "user_agent": "kindly-tests",
        "domain": f"127.0.0.1:{fake_nominatim.port}",
        "scheme": "http",
    }
    settings.GEOCODER_QUERY_OPTIONS = {"country_codes": "us"}
    settings.GEOCODER_TIMEOUT = 5.0
    return fake_nominatim


@pytest.fixture
def places_in_process(monkeypatch) -> list[tuple[str, tuple]]:
    """The place tasks run when enqueued (after the commit), here; their retries run at once, one
    after the other (a task's countdown is not waited for). Returns the list of what was enqueued,
    (task name, args)."""
    from circles import tasks as circle_tasks
    from providers import tasks as provider_tasks

    enqueued: list[tuple[str, tuple]] = []
    for task in (circle_tasks.place_recipient, provider_tasks.place_provider):

        def delay(*args, _task=task, **kwargs):
            enqueued.append((_task.name, args))
            result = _task.apply(args=args, kwargs=kwargs)
            if result.failed():
                raise result.result
            return result

        monkeypatch.setattr(task, "delay", delay)
    return enqueued
