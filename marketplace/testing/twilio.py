"""A fake Twilio API on 127.0.0.1 that the real twilio SDK talks to (TWILIO_API_BASE), as with Stripe.

It records each message sent, and answers error 21610 ("unsubscribed recipient") for numbers
in ``opted_out``, as Twilio does once a number has answered STOP.
"""

from __future__ import annotations

import itertools
import json
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

import pytest

ACCOUNT_SID = "AC00000000000000000000000000000000"
FROM_NUMBER = "+15005550006"


@dataclass
class FakeTwilio:
    url: str = ""
    sent: list[dict[str, str]] = field(default_factory=list)
    opted_out: set[str] = field(default_factory=set)
    fail_next: list[int] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


_ids = itertools.count(1)


def _handler_for(fake: FakeTwilio) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _reply(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            params = dict(parse_qsl(self.rfile.read(length).decode()))
            if not self.path.endswith("/Messages.json"):
                self._reply(404, {"code": 20404, "message": "not found", "status": 404})
                return
            with fake.lock:
                if fake.fail_next:
                    status = fake.fail_next.pop(0)
                    self._reply(status, {"code": 20500, "message": "Internal error", "status": status})
                    return
                if params.get("To") in fake.opted_out:
                    self._reply(
                        400, {"code": 21610, "message": "Attempt to send to unsubscribed recipient", "status": 400}
                    )
                    return
                sid = f"SM{next(_ids):032d}"
                fake.sent.append({**params, "sid": sid, "authorization": self.headers.get("Authorization", "")})
            self._reply(
                201,
                {
                    "sid": sid,
                    "status": "queued",
                    "to": params.get("To"),
                    "from": params.get("From"),
                    "body": params.get("Body"),
                    "account_sid": ACCOUNT_SID,
                },
            )

    return Handler


@pytest.fixture
def fake_twilio(settings):
    fake = FakeTwilio()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(fake))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    settings.TWILIO_ACCOUNT_SID = ACCOUNT_SID
    settings.TWILIO_AUTH_TOKEN = "test-auth-token"
    settings.TWILIO_FROM_NUMBER = FROM_NUMBER
    settings.TWILIO_API_BASE = fake.url
    yield fake
    server.shutdown()
    server.server_close()
