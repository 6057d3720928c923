"""A fake Stripe API on 127.0.0.1 that the real stripe SDK talks to (only Stripe is faked, at its
HTTP boundary), and signed webhook events: for every app's tests.

Registered as a pytest plugin by the root conftest: the ``fake_stripe`` and ``stripe_backend``
fixtures are available everywhere.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl

import pytest
import stripe
from django.db import DEFAULT_DB_ALIAS, connections
from rest_framework.test import APIClient

WEBHOOK_SECRET = "whsec_kindly_test_secret"
CONNECT_WEBHOOK_SECRET = "whsec_kindly_connect_test_secret"
CONNECT_WEBHOOK_URL = "/api/payments/stripe/connect-webhook"


@dataclass
class RecordedRequest:
    method: str
    path: str
    params: dict[str, str]
    idempotency_key: str | None
    authorization: str | None
    # Was the calling test thread's database connection inside a transaction when Stripe was
    # called? No call to an outside service may run inside one (it would hold its row locks while
    # Stripe answers). Meaningful in django_db(transaction=True) tests, where nothing else wraps it.
    caller_in_transaction: bool | None = None
    stripe_account: str | None = None  # the Stripe-Account header: a call made on a connected account


@dataclass
class FakeStripe:
    """What the fake Stripe API received and holds. `fail_next` makes the next POST answer an error
    (or any other answer). `on_post(request)` runs in the server's thread before a POST is answered,
    e.g. to look at the database from another connection while Stripe is being called."""

    url: str = ""
    requests: list[RecordedRequest] = field(default_factory=list)
    intents: dict[str, dict[str, Any]] = field(default_factory=dict)
    refunds: dict[str, dict[str, Any]] = field(default_factory=dict)
    accounts: dict[str, dict[str, Any]] = field(default_factory=dict)
    transfers: dict[str, dict[str, Any]] = field(default_factory=dict)
    # Stripe Identity's verification sessions (vetting), with the outputs a verified one gives.
    identity_sessions: dict[str, dict[str, Any]] = field(default_factory=dict)
    # payout id -> the balance transactions Stripe lists for it (GET /v1/balance_transactions?payout=)
    payout_transactions: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    # Saved cards: customers, setup intents, payment methods; `declines` maps a payment method to
    # the error code its off-session charges get (card_declined, authentication_required).
    customers: dict[str, dict[str, Any]] = field(default_factory=dict)
    setup_intents: dict[str, dict[str, Any]] = field(default_factory=dict)
    payment_methods: dict[str, dict[str, Any]] = field(default_factory=dict)
    declines: dict[str, str] = field(default_factory=dict)
    # Instant Payouts (payments.instant): each account's external accounts (a debit card that takes
    # instant payouts unless a test says otherwise), the payouts made on it, and a balance override.
    external_accounts: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    payouts: dict[str, dict[str, Any]] = field(default_factory=dict)
    instant_balance: dict[str, int] = field(default_factory=dict)
    fail_next: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    replies_by_key: dict[str, tuple[int, dict[str, Any]]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)
    on_post: Callable[[RecordedRequest], None] | None = None
    card_last4: str = "4242"  # the card of every charge (an intent read with expand[]=latest_charge)
    # The database connection of the thread that set up the fake (the test's, which calls Stripe
    # through the SDK and waits for the answer): read at each request, see caller_in_transaction.
    caller_connection: Any = None
    # Other threads' connections that call Stripe too (a Celery worker's: celery_worker adds it).
    other_connections: list[Any] = field(default_factory=list)

    def posts(self, path: str) -> list[RecordedRequest]:
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    def succeed(self, intent_id: str) -> str:
        """The client's card was charged: the intent succeeded, with a charge. Returns the charge id."""
        intent = self.intents[intent_id]
        intent["status"] = "succeeded"
        intent["latest_charge"] = intent.get("latest_charge") or f"ch_fake_{next(_ids)}"
        return intent["latest_charge"]

    def setup_succeed(self, setup_intent_id: str, *, last4: str = "4242", brand: str = "visa") -> str:
        """The card holder confirmed the setup in Stripe Elements: a card is attached to the customer.
        Returns the payment method's id."""
        setup = self.setup_intents[setup_intent_id]
        method_id = f"pm_fake_{next(_ids)}"
        self.payment_methods[method_id] = {
            "id": method_id,
            "object": "payment_method",
            "type": "card",
            "customer": setup["customer"],
            "card": {"brand": brand, "last4": last4, "exp_month": 12, "exp_year": 2034},
        }
        setup["status"] = "succeeded"
        setup["payment_method"] = method_id
        return method_id


_ids = itertools.count(1)


def _off_session_charge(fake: FakeStripe, intent: dict[str, Any], params: dict[str, str]) -> tuple[int, dict]:
    """A PaymentIntent created with confirm=true and off_session=true on a saved card."""
    method = fake.payment_methods.get(params.get("payment_method", ""))
    if method is None or method["customer"] != params.get("customer"):
        return 400, {"error": {"type": "invalid_request_error", "message": "No such PaymentMethod"}}
    intent["payment_method"] = method["id"]
    intent["customer"] = params.get("customer")
    code = fake.declines.get(method["id"])
    if code:
        intent["status"] = "requires_payment_method"
        intent["last_payment_error"] = {"code": code, "message": "Your card was declined."}
        fake.intents[intent["id"]] = intent
        message = (
            "This payment requires authentication." if code == "authentication_required" else "Your card was declined."
        )
        return 402, {"error": {"type": "card_error", "code": code, "message": message, "payment_intent": intent}}
    intent["status"] = "succeeded"
    intent["latest_charge"] = f"ch_fake_{next(_ids)}"
    fake.intents[intent["id"]] = intent
    return 200, intent


def _nested(params: dict[str, str], prefix: str) -> dict[str, str]:
    """Stripe form encoding: metadata[booking_id]=7 -> {"booking_id": "7"}."""
    return {k[len(prefix) + 1 : -1]: v for k, v in params.items() if k.startswith(prefix + "[") and k.endswith("]")}


DEBIT_CARD = {"object": "card", "currency": "usd", "available_payout_methods": ["standard", "instant"]}
BANK_ACCOUNT = {"object": "bank_account", "currency": "usd", "available_payout_methods": ["standard"]}


def instant_available(fake: FakeStripe, account: str) -> int:
    """The account's balance Stripe can pay out instantly: what was transferred to it, less
    reversals and payouts (or the test's override)."""
    if account in fake.instant_balance:
        return fake.instant_balance[account]
    sent = sum(t["amount"] - t["amount_reversed"] for t in fake.transfers.values() if t["destination"] == account)
    return sent - sum(p["amount"] for p in fake.payouts.values() if p["account"] == account)


def _handle_connected(
    fake: FakeStripe, method: str, path: str, params: dict[str, str], account: str | None
) -> tuple[int, dict[str, Any]] | None:
    """Calls on a connected account for Instant Payouts (None: not one of these)."""
    if method == "GET" and path.startswith("/v1/accounts/") and path.endswith("/external_accounts"):
        account_id = path.split("/")[3]
        if account_id not in fake.accounts:
            return 404, {"error": {"type": "invalid_request_error", "message": "No such account"}}
        cards = fake.external_accounts.get(account_id, [DEBIT_CARD])
        kind = params.get("object")
        data = [{"id": f"card_fake_{i}", **c} for i, c in enumerate(cards) if not kind or c["object"] == kind]
        return 200, {"object": "list", "url": path, "has_more": False, "data": data}
    if method == "GET" and path == "/v1/balance" and account:
        amount = instant_available(fake, account)
        return 200, {
            "object": "balance",
            "available": [{"amount": amount, "currency": "usd"}],
            "pending": [{"amount": 0, "currency": "usd"}],
            "instant_available": [{"amount": amount, "currency": "usd"}],
        }
    if method == "POST" and path == "/v1/payouts" and account:
        amount = int(params["amount"])
        instant = params.get("method") == "instant"
        if instant and "instant" not in {
            m for c in fake.external_accounts.get(account, [DEBIT_CARD]) for m in c["available_payout_methods"]
        }:
            return 400, {"error": {"type": "invalid_request_error", "message": "Instant payouts are not supported."}}
        if amount > instant_available(fake, account):
            return 400, {
                "error": {"type": "invalid_request_error", "code": "balance_insufficient", "message": "Insufficient"}
            }
        payout = {
            "id": f"po_fake_{next(_ids)}",
            "object": "payout",
            "amount": amount,
            "currency": params["currency"],
            "method": params.get("method", "standard"),
            "status": "in_transit",
            "metadata": _nested(params, "metadata"),
            "account": account,
        }
        fake.payouts[payout["id"]] = payout
        return 200, payout
    return None


def _handle(
    fake: FakeStripe, method: str, path: str, params: dict[str, str], on_account: str | None = None
) -> tuple[int, dict[str, Any]]:
    connected = _handle_connected(fake, method, path, params, on_account)
    if connected is not None:
        return connected
    if method == "POST" and path == "/v1/identity/verification_sessions":
        session_id = f"vs_fake_{next(_ids)}"
        session = {
            "id": session_id,
            "object": "identity.verification_session",
            "type": params.get("type"),
            "options": {
                "document": {"require_matching_selfie": params.get("options[document][require_matching_selfie]")}
            },
            "client_reference_id": params.get("client_reference_id"),
            "return_url": params.get("return_url"),
            "metadata": _nested(params, "metadata"),
            "status": "requires_input",
            "url": f"https://verify.stripe.com/start/{session_id}",
            "last_error": None,
            "verified_outputs": None,
        }
        fake.identity_sessions[session_id] = session
        return 200, session
    if method == "GET" and path.startswith("/v1/identity/verification_sessions/"):
        session = fake.identity_sessions.get(path.rsplit("/", 1)[-1])
        if session:
            return 200, session
    if method == "POST" and path == "/v1/payment_intents":
        intent_id = f"pi_fake_{next(_ids)}"
        intent = {
            "id": intent_id,
            "object": "payment_intent",
            "amount": int(params["amount"]),
            "currency": params["currency"],
            "metadata": _nested(params, "metadata"),
            "client_secret": f"{intent_id}_secret_fake",
            "status": "requires_payment_method",
            "latest_charge": None,
        }
        if params.get("confirm") == "true" and params.get("off_session") == "true":
            return _off_session_charge(fake, intent, params)
        fake.intents[intent_id] = intent
        return 200, intent
    if method == "POST" and path == "/v1/customers":
        customer = {"id": f"cus_fake_{next(_ids)}", "object": "customer", "email": params.get("email")}
        fake.customers[customer["id"]] = customer
        return 200, customer
    if method == "POST" and path == "/v1/setup_intents":
        if params.get("customer") not in fake.customers:
            return 400, {"error": {"type": "invalid_request_error", "message": "No such customer"}}
        setup_id = f"seti_fake_{next(_ids)}"
        setup = {
            "id": setup_id,
            "object": "setup_intent",
            "customer": params["customer"],
            "usage": params.get("usage"),
            "client_secret": f"{setup_id}_secret_fake",
            "status": "requires_payment_method",
            "payment_method": None,
        }
        fake.setup_intents[setup_id] = setup
        return 200, setup
    if method == "GET" and path.startswith("/v1/setup_intents/"):
        setup = fake.setup_intents.get(path.rsplit("/", 1)[-1])
        if setup:
            method_id = setup["payment_method"]
            if method_id and params.get("expand[0]") == "payment_method":
                return 200, {**setup, "payment_method": fake.payment_methods[method_id]}
            return 200, setup
    if method == "POST" and path.startswith("/v1/payment_methods/") and path.endswith("/detach"):
        payment_method = fake.payment_methods.get(path.split("/")[3])
        if payment_method is None or payment_method["customer"] is None:
            message = "The payment method you provided is not attached to a customer so detachment is impossible."
            return 400, {"error": {"type": "invalid_request_error", "message": message}}
        payment_method["customer"] = None
        return 200, payment_method
    if method == "POST" and path == "/v1/refunds":
        intent = fake.intents.get(params.get("payment_intent", ""))
        if intent is None:
            return 400, {"error": {"type": "invalid_request_error", "message": "No such payment_intent"}}
        refund = {
            "id": f"re_fake_{next(_ids)}",
            "object": "refund",
            "payment_intent": intent["id"],
            "amount": int(params.get("amount") or intent["amount"]),
            "status": "succeeded",
        }
        fake.refunds[refund["id"]] = refund
        return 200, refund
    if method == "POST" and path == "/v1/accounts":
        account = {
            "id": f"acct_fake_{next(_ids)}",
            "object": "account",
            "type": params.get("type"),
            "email": params.get("email"),
            "charges_enabled": False,
            "payouts_enabled": False,
            "details_submitted": False,
            "requirements": {"currently_due": ["external_account", "individual.dob.day"], "past_due": []},
            "metadata": _nested(params, "metadata"),
        }
        fake.accounts[account["id"]] = account
        return 200, account
    if method == "GET" and path.startswith("/v1/accounts/"):
        found = fake.accounts.get(path.rsplit("/", 1)[-1])
        if found:
            return 200, found
    if method == "POST" and path == "/v1/account_links":
        if params.get("account") not in fake.accounts:
            return 400, {"error": {"type": "invalid_request_error", "message": "No such account"}}
        url = f"https://connect.stripe.com/setup/e/{params['account']}/fake{next(_ids)}"
        return 200, {"object": "account_link", "url": url, "expires_at": int(time.time()) + 300}
    if method == "POST" and path == "/v1/transfers":
        if params.get("destination") not in fake.accounts:
            return 400, {"error": {"type": "invalid_request_error", "message": "No such destination"}}
        transfer = {
            "id": f"tr_fake_{next(_ids)}",
            "object": "transfer",
            "amount": int(params["amount"]),
            "currency": params["currency"],
            "destination": params["destination"],
            "destination_payment": f"py_fake_{next(_ids)}",
            "source_transaction": params.get("source_transaction"),
            "transfer_group": params.get("transfer_group"),
            "metadata": _nested(params, "metadata"),
            "reversed": False,
            "amount_reversed": 0,
        }
        fake.transfers[transfer["id"]] = transfer
        return 200, transfer
    if method == "POST" and path.startswith("/v1/transfers/") and path.endswith("/reversals"):
        transfer = fake.transfers.get(path.split("/")[3])
        if transfer is None:
            return 404, {"error": {"type": "invalid_request_error", "message": "No such transfer"}}
        if transfer["reversed"]:
            return 400, {
                "error": {"type": "invalid_request_error", "code": "transfer_already_reversed", "message": "reversed"}
            }
        amount = int(params.get("amount") or transfer["amount"] - transfer["amount_reversed"])
        transfer["amount_reversed"] += amount
        transfer["reversed"] = transfer["amount_reversed"] >= transfer["amount"]
        reversal = {"id": f"trr_fake_{next(_ids)}", "object": "transfer_reversal", "amount": amount}
        return 200, {**reversal, "transfer": transfer["id"]}
    if method == "GET" and path == "/v1/balance_transactions":
        data = fake.payout_transactions.get(params.get("payout", ""), [])
        return 200, {"object": "list", "url": path, "has_more": False, "data": data}
    if method == "GET" and path.startswith("/v1/payment_intents/"):
        intent = fake.intents.get(path.rsplit("/", 1)[-1])
        if intent and intent["latest_charge"] and params.get("expand[0]") == "latest_charge":
            charge = {
                "id": intent["latest_charge"],
                "object": "charge",
                "payment_intent": intent["id"],
                "payment_method_details": {"type": "card", "card": {"brand": "visa", "last4": fake.card_last4}},
            }
            return 200, {**intent, "latest_charge": charge}
        if intent:
            return 200, intent
    return 404, {"error": {"type": "invalid_request_error", "message": f"Unrecognized request URL ({path})."}}


def _handler_for(fake: FakeStripe) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
            pass

        def _reply(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Request-Id", f"req_fake_{next(_ids)}")
            self.end_headers()
            self.wfile.write(data)

        def _serve(self, method: str) -> None:
            path, _, query = self.path.partition("?")
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length).decode() if length else query
            params = dict(parse_qsl(raw, keep_blank_values=True))
            key = self.headers.get("Idempotency-Key")
            caller = fake.caller_connection
            recorded = RecordedRequest(
                method,
                path,
                params,
                key,
                self.headers.get("Authorization"),
                caller_in_transaction=None
                if caller is None
                else any(c.in_atomic_block for c in [caller, *fake.other_connections]),
                stripe_account=self.headers.get("Stripe-Account"),
            )
            if method == "POST" and fake.on_post is not None:
                fake.on_post(recorded)
            with fake.lock:
                fake.requests.append(recorded)
                if method == "POST" and fake.fail_next:
                    status, body = fake.fail_next.pop(0)
                elif method == "POST" and key and key in fake.replies_by_key:
                    status, body = fake.replies_by_key[key]  # Stripe replays the first answer for a key
                else:
                    status, body = _handle(fake, method, path, params, recorded.stripe_account)
                    if method == "POST" and key:
                        fake.replies_by_key[key] = (status, body)
            self._reply(status, body)

        def do_GET(self) -> None:  # noqa: N802
            self._serve("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._serve("POST")

    return Handler


def _transactional(request: pytest.FixtureRequest) -> bool:
    marker = request.node.get_closest_marker("django_db")
    return marker is not None and bool(marker.kwargs.get("transaction"))


@pytest.fixture
def fake_stripe(request):
    """The fake Stripe server. In django_db(transaction=True) tests it also fails the test when
    Stripe was called from inside a transaction (no outside call holds the database's locks)."""
    fake = FakeStripe(caller_connection=connections[DEFAULT_DB_ALIAS])
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(fake))
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    # shutdown() waits for serve_forever to look again: every 0.05 s, not its default 0.5 s.
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield fake
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)
    if _transactional(request):
        inside = [f"{r.method} {r.path}" for r in fake.requests if r.caller_in_transaction]
        assert not inside, f"Stripe was called inside a database transaction: {inside}"


@pytest.fixture
def stripe_backend(settings, fake_stripe) -> FakeStripe:
    """Payments go through the Stripe gateway, whose SDK talks to the fake server."""
    settings.PAYMENTS_BACKEND = "stripe"
    settings.STRIPE_SECRET_KEY = "sk_test_kindly_fake"
    settings.STRIPE_PUBLISHABLE_KEY = "pk_test_kindly_fake"
    settings.STRIPE_WEBHOOK_SECRET = WEBHOOK_SECRET
    settings.STRIPE_CONNECT_WEBHOOK_SECRET = CONNECT_WEBHOOK_SECRET
    settings.STRIPE_API_BASE = fake_stripe.url
    return fake_stripe


def stripe_event(event_type: str, obj: dict[str, Any], *, event_id: str | None = None) -> dict[str, Any]:
    return {
        "id": event_id or f"evt_fake_{next(_ids)}",
        "object": "event",
        "api_version": "2025-01-01",
        "created": int(time.time()),
        "type": event_type,
        "livemode": False,
        "data": {"object": obj},
    }


def signed_webhook(
    client: APIClient,
    event: dict[str, Any],
    *,
    secret: str = WEBHOOK_SECRET,
    timestamp=None,
    body=None,
    url: str = "/api/payments/stripe/webhook",
):
    """POST an event to the webhook with a Stripe-Signature header made by the SDK's own helper.

    `body` sends other bytes than the signed ones (a tampered body). Events of connected accounts
    go to CONNECT_WEBHOOK_URL, signed with CONNECT_WEBHOOK_SECRET (connect_webhook).
    """
    payload = json.dumps(event)
    header = stripe.WebhookSignature.generate_signature_header(payload, secret, timestamp=timestamp)
    return client.generic(
        "POST",
        url,
        body if body is not None else payload,
        content_type="application/json",
        HTTP_STRIPE_SIGNATURE=header,
    )


def pay_with_stripe(booking, api_as):
    """Create the intent through the API, then let Stripe's webhook say it succeeded."""
    assert (
        api_as(booking.client).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code
        == 200
    )
    booking.refresh_from_db()
    event = stripe_event("payment_intent.succeeded", {"id": booking.payment_intent_id, "object": "payment_intent"})
    assert signed_webhook(api_as(None), event).json()["outcome"] == "paid"
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == ("confirmed", "paid")
    return booking


def connect_webhook(client: APIClient, event: dict[str, Any], *, account: str):
    """POST an event of a connected account (it names the account) to the Connect endpoint."""
    return signed_webhook(client, {**event, "account": account}, secret=CONNECT_WEBHOOK_SECRET, url=CONNECT_WEBHOOK_URL)
