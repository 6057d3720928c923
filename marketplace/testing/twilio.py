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
    # The account's numbers as Twilio holds them: {"+1...": {"voice_url": ..., "sms_url": ...}}.
    numbers: dict[str, dict[str, str]] = field(default_factory=dict)
    # Calls Kindly placed (Calls.json): the form Twilio was given (To, From, Url, StatusCallback...).
    calls: list[dict[str, str]] = field(default_factory=list)
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

        def do_GET(self) -> None:  # noqa: N802
            path, _, query = self.path.partition("?")
            if not path.endswith("/IncomingPhoneNumbers.json"):
                self._reply(404, {"code": 20404, "message": "not found", "status": 404})
                return
            wanted = dict(parse_qsl(query)).get("PhoneNumber")
            rows = [
                {"sid": f"PN{i:032d}", "account_sid": ACCOUNT_SID, "phone_number": number, **urls}
                for i, (number, urls) in enumerate(sorted(fake.numbers.items()))
                if wanted in (None, number)
            ]
            self._reply(
                200,
                {"incoming_phone_numbers": rows, "next_page_uri": None, "page": 0, "page_size": 50, "uri": path},
            )

        def do_POST(self) -> None:  # noqa: N802
            length = int(self.headers.get("Content-Length") or 0)
            params = dict(parse_qsl(self.rfile.read(length).decode()))
            if self.path.endswith("/Calls.json"):
                with fake.lock:
                    sid = f"CA{next(_ids):032d}"
                    fake.calls.append({**params, "sid": sid})
                self._reply(
                    201,
                    {
                        "sid": sid,
                        "status": "queued",
                        "to": params.get("To"),
                        "from": params.get("From"),
                        "account_sid": ACCOUNT_SID,
                    },
                )
                return
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
    # shutdown() waits for serve_forever to look again: every 0.05 s, not its default 0.5 s.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    settings.TWILIO_ACCOUNT_SID = ACCOUNT_SID
    settings.TWILIO_AUTH_TOKEN = "test-auth-token"
    settings.TWILIO_FROM_NUMBER = FROM_NUMBER
    settings.TWILIO_API_BASE = fake.url
    yield fake
    server.shutdown()
    server.server_close()


# ---------------------------------------------------------------- Twilio calling our webhooks
# Twilio posts a form to a number's Voice or Messaging URL, signed with the account's auth token
# (X-Twilio-Signature over the full URL and the sorted form fields), and carries out the TwiML
# answer: <Dial><Number> rings that number with the Kindly number as caller ID; <Message to from>
# sends a text; a <Message> without "to" answers the sender.

AUTH_TOKEN = "test-auth-token"


def twilio_post(client, path: str, params: dict[str, str], *, token: str = AUTH_TOKEN, signature: str | None = None):
    """POST `params` to `path` exactly as Twilio does (form body, signed with `token`)."""
    from twilio.request_validator import RequestValidator

    url = f"http://testserver{path}"
    signed = RequestValidator(token).compute_signature(url, params) if signature is None else signature
    return client.post(path, params, headers={"X-Twilio-Signature": signed})


@dataclass
class TwimlActions:
    """What Twilio would do with a TwiML answer."""

    said: list[str] = field(default_factory=list)
    dialed: list[str] = field(default_factory=list)
    caller_id: str = ""
    dial_action: str = ""
    texts: list[dict[str, str]] = field(default_factory=list)
    hung_up: bool = False
    # <Gather>: where the keys pressed (or the words said) go, and how many keys it waits for.
    gather_action: str = ""
    gather_digits: int = 0
    gather_input: str = ""
    redirect: str = ""
    record: dict[str, str] = field(default_factory=dict)
    slow: bool = False
    # The language each <Say> speaks in, and the one a <Gather> listens for (speech).
    languages: list[str] = field(default_factory=list)
    gather_language: str = ""
    # What comes after a <Gather>: Twilio runs it only when the caller pressed and said nothing.
    if_silent: list[str] = field(default_factory=list)


def twiml_actions(response) -> TwimlActions:
    """Read a TwiML answer (an HttpResponse) as Twilio carries it out."""
    import xml.etree.ElementTree as ElementTree

    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/xml")
    root = ElementTree.fromstring(response.content)  # noqa: S314 (our own answer, in a test)
    assert root.tag == "Response"
    actions = TwimlActions()

    def read(verb) -> None:
        if verb.tag == "Say":
            actions.said.append("".join(verb.itertext()).strip())
            actions.languages.append(verb.get("language", ""))
            actions.slow = actions.slow or any(p.get("rate", "100%") != "100%" for p in verb.iter("prosody"))
        elif verb.tag == "Dial":
            actions.caller_id = verb.get("callerId", "")
            actions.dial_action = verb.get("action", "")
            actions.dialed += [number.text or "" for number in verb.iter("Number")]
        elif verb.tag == "Message":
            actions.texts.append({"to": verb.get("to", ""), "from": verb.get("from", ""), "body": verb.text or ""})
        elif verb.tag == "Hangup":
            actions.hung_up = True
        elif verb.tag == "Gather":
            actions.gather_action = verb.get("action", "")
            actions.gather_digits = int(verb.get("numDigits", "0") or 0)
            actions.gather_input = verb.get("input", "dtmf")
            actions.gather_language = verb.get("language", "")
            for child in verb:
                read(child)
        elif verb.tag == "Redirect":
            actions.redirect = verb.text or ""
        elif verb.tag == "Record":
            actions.record = dict(verb.attrib)

    for verb in root:
        if actions.gather_action:
            if verb.tag == "Say":
                actions.if_silent.append("".join(verb.itertext()).strip())
            elif verb.tag in ("Redirect", "Hangup"):
                actions.if_silent.append(verb.tag)
            continue
        read(verb)
    return actions


class MenuCall:
    """One call to Kindly's phone menu, as Twilio runs it: each <Gather> waits for keys or words,
    posted to its action with the same CallSid; a <Redirect> is followed at once."""

    def __init__(self, client, *, from_: str, to: str = FROM_NUMBER, sid: str = "") -> None:
        self.client = client
        self.params = {"AccountSid": ACCOUNT_SID, "CallSid": sid or f"CA{next(_ids):032d}", "From": from_, "To": to}
        self.last = TwimlActions()
        self.heard: list[str] = []

    def _run(self, path: str, extra: dict[str, str]) -> TwimlActions:
        said: list[str] = []
        languages: list[str] = []
        for _ in range(10):
            actions = twiml_actions(twilio_post(self.client, path, {**self.params, **extra}))
            said += actions.said
            languages += actions.languages
            if not actions.redirect or actions.gather_action:
                break
            path, extra = actions.redirect, {}
        actions.said = said
        actions.languages = languages
        self.heard += said
        self.last = actions
        return actions

    def start(self) -> TwimlActions:
        return self._run("/api/phone/menu", {"CallStatus": "ringing"})

    def press(self, digits: str) -> TwimlActions:
        assert self.last.gather_action, f"nothing is waiting for keys: {self.last}"
        return self._run(self.last.gather_action, {"Digits": digits})

    def speak(self, words: str) -> TwimlActions:
        assert "speech" in self.last.gather_input, f"this step takes keys only: {self.last}"
        return self._run(self.last.gather_action, {"SpeechResult": words, "Confidence": "0.9"})

    def post(self, path: str, **extra: str) -> TwimlActions:
        return self._run(path, extra)


class PhoneNetwork:
    """People's phones calling and texting Kindly numbers through (fake) Twilio."""

    def __init__(self, client) -> None:
        self.client = client
        self.sids = itertools.count(1)

    def call(self, *, from_: str, to: str, sid: str | None = None) -> tuple[str, TwimlActions]:
        sid = sid or f"CA{next(self.sids):032d}"
        params = {"AccountSid": ACCOUNT_SID, "CallSid": sid, "From": from_, "To": to, "CallStatus": "ringing"}
        return sid, twiml_actions(twilio_post(self.client, "/api/phone/twilio/voice", params))

    def hang_up(self, *, sid: str, from_: str, to: str, seconds: int, status: str = "completed") -> TwimlActions:
        params = {
            "AccountSid": ACCOUNT_SID,
            "CallSid": sid,
            "From": from_,
            "To": to,
            "DialCallStatus": status,
            "DialCallDuration": str(seconds),
        }
        return twiml_actions(twilio_post(self.client, "/api/phone/twilio/voice/done", params))

    def text(self, *, from_: str, to: str, body: str, sid: str | None = None) -> TwimlActions:
        sid = sid or f"SM{next(self.sids):032d}"
        params = {"AccountSid": ACCOUNT_SID, "MessageSid": sid, "From": from_, "To": to, "Body": body, "NumMedia": "0"}
        return twiml_actions(twilio_post(self.client, "/api/phone/twilio/text", params))


POOL = ["+15005550101", "+15005550102"]


@pytest.fixture
def phone_lines(fake_twilio, settings):
    """Twilio set up with a pool of two Kindly numbers for masked calls and texts."""
    settings.TWILIO_PROXY_NUMBERS = list(POOL)
    return fake_twilio
