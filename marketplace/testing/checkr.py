"""A fake Checkr API on 127.0.0.1 (only Checkr is faked, at its HTTP boundary: vetting.gateways'
httpx client talks to it), and signed Checkr webhook events, for every app's tests.

``fake_checkr`` starts it; ``vetting_live`` points the live vetting gateways at it and at the fake
Stripe (Stripe Identity), with their webhook secrets.
"""

from __future__ import annotations

import base64
import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

CHECKR_API_KEY = "checkr_test_key_kindly"
IDENTITY_WEBHOOK_SECRET = "whsec_kindly_identity_test_secret"
CHECKR_URL = "/api/vetting/checkr/webhook"
IDENTITY_URL = "/api/vetting/stripe/webhook"

_ids = itertools.count(1)


@dataclass
class CheckrRequest:
    method: str
    path: str
    body: dict[str, Any]
    api_key: str
    caller_in_transaction: bool | None = None


@dataclass
class FakeCheckr:
    url: str = ""
    requests: list[CheckrRequest] = field(default_factory=list)
    candidates: dict[str, dict[str, Any]] = field(default_factory=dict)
    invitations: dict[str, dict[str, Any]] = field(default_factory=dict)
    # (status, body) answers given to the next POSTs instead of the real one (an outage: 503).
    fail_next: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    caller_connection: Any = None

    def posts(self, path: str) -> list[CheckrRequest]:
        return [r for r in self.requests if r.method == "POST" and r.path == path]


def _handle(fake: FakeCheckr, request: CheckrRequest) -> tuple[int, dict[str, Any]]:
    if request.api_key != CHECKR_API_KEY:
        return 401, {"error": "Bad authentication"}
    if request.method == "POST" and request.path == "/v1/candidates":
        candidate = {"id": f"cand{next(_ids):06d}", "object": "candidate", **request.body}
        fake.candidates[candidate["id"]] = candidate
        return 201, candidate
    if request.method == "POST" and request.path == "/v1/invitations":
        if request.body.get("candidate_id") not in fake.candidates:
            return 404, {"error": "Candidate not found"}
        if not request.body.get("package"):
            return 400, {"error": "package is required"}
        invitation_id = f"inv{next(_ids):06d}"
        invitation = {
            "id": invitation_id,
            "object": "invitation",
            "status": "pending",
            "candidate_id": request.body["candidate_id"],
            "package": request.body["package"],
            "invitation_url": f"https://apply.checkr.com/invite/kindly/{invitation_id}",
        }
        fake.invitations[invitation_id] = invitation
        return 201, invitation
    return 404, {"error": "Not found"}


def _handler_for(fake: FakeCheckr) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _serve(self, method: str) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else {}
            except ValueError:
                body = {}
            auth = self.headers.get("Authorization") or ""
            api_key = ""
            if auth.startswith("Basic "):
                api_key = base64.b64decode(auth[6:]).decode().partition(":")[0]
            caller = fake.caller_connection
            request = CheckrRequest(
                method, self.path, body, api_key, None if caller is None else caller.in_atomic_block
            )
            with fake.lock:
                fake.requests.append(request)
                if method == "POST" and fake.fail_next:
                    status, answer = fake.fail_next.pop(0)
                else:
                    status, answer = _handle(fake, request)
            data = json.dumps(answer).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

    return Handler


@pytest.fixture
def fake_checkr(request):
    fake = FakeCheckr(caller_connection=connections[DEFAULT_DB_ALIAS])
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(fake))
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    # shutdown() waits for serve_forever to look again: every 0.05 s, not its default 0.5 s.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield fake
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)
    marker = request.node.get_closest_marker("django_db")
    if marker is not None and marker.kwargs.get("transaction"):
        inside = [f"{r.method} {r.path}" for r in fake.requests if r.caller_in_transaction]
        assert not inside, f"Checkr was called inside a database transaction: {inside}"


@pytest.fixture
def vetting_live(settings, stripe_backend, fake_checkr) -> FakeCheckr:
    """The live vetting gateways: Stripe Identity through the fake Stripe, Checkr through the fake Checkr."""
    settings.VETTING_BACKEND = "live"
    settings.STRIPE_IDENTITY_WEBHOOK_SECRET = IDENTITY_WEBHOOK_SECRET
    settings.CHECKR_API_KEY = CHECKR_API_KEY
    settings.CHECKR_BASE_URL = fake_checkr.url
    settings.CHECKR_PACKAGE = "tasker_standard"
    return fake_checkr


def checkr_event(event_type: str, report: dict[str, Any], *, event_id: str | None = None) -> dict[str, Any]:
    return {
        "id": event_id or f"evtcheckr{next(_ids):06d}",
        "object": "event",
        "type": event_type,
        "created_at": "2026-11-26T00:00:00Z",
        "data": {"object": {"object": "report", **report}},
    }


def checkr_webhook(client, event: dict[str, Any], *, key: str = CHECKR_API_KEY, body: bytes | None = None):
    """POST an event to Kindly's Checkr webhook, signed as Checkr signs (HMAC-SHA256 of the body, hex)."""
    from vetting.gateways import checkr_signature

    payload = json.dumps(event).encode()
    return client.generic(
        "POST",
        CHECKR_URL,
        body if body is not None else payload,
        content_type="application/json",
        HTTP_X_CHECKR_SIGNATURE=checkr_signature(payload, key),
    )
