"""The outside services of vetting, behind two interfaces like the payment gateways
(payments.gateways): Stripe Identity (IdentityGateway) and Checkr (BackgroundCheckGateway), each
with an offline gateway for `make run` that completes the flow on a Kindly page.

`identity_gateway()` and `background_gateway()` pick one from settings.VETTING_BACKEND at call
time. Every method is called outside any database transaction (from Celery: vetting.tasks) and
raises GatewayError when the service refuses or cannot be reached. Nothing here logs the
applicant's data (names, dates of birth, emails): only ids and HTTP statuses.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
import secrets
from abc import ABC, abstractmethod
from dataclasses import dataclass

import httpx
import stripe
from django.conf import settings
from django.urls import reverse

from core.errors import GatewayError

logger = logging.getLogger(__name__)

TIMEOUT_SECONDS = 20
STRIPE_MAX_NETWORK_RETRIES = 2
CHECKR_SIGNATURE_HEADER = "X-Checkr-Signature"

OFFLINE = "offline"
LIVE = "live"


@dataclass(frozen=True)
class CreatedSession:
    session_id: str
    url: str


@dataclass(frozen=True)
class VerifiedOutputs:
    first_name: str
    last_name: str
    date_of_birth: dt.date | None


@dataclass(frozen=True)
class CreatedInvitation:
    candidate_id: str
    invitation_id: str
    invitation_url: str


class IdentityGateway(ABC):
    name: str

    @abstractmethod
    def session_create(self, *, reference: str, return_url: str, idempotency_key: str) -> CreatedSession:
        """A document verification session with a matching selfie; the applicant goes to its url."""

    @abstractmethod
    def verified_outputs(self, session_id: str) -> VerifiedOutputs | None:
        """The verified name and date of birth of a verified session (None: the gateway keeps none)."""


class BackgroundCheckGateway(ABC):
    name: str

    @abstractmethod
    def invite(
        self, *, first_name: str, last_name: str, email: str, candidate_id: str, package: str, idempotency_key: str
    ) -> CreatedInvitation:
        """The candidate (reused when `candidate_id` is given) and an invitation to the package: the
        applicant consents and gives her details in the hosted flow at invitation_url."""


# ---------------------------------------------------------------- Stripe Identity


class StripeIdentityGateway(IdentityGateway):
    name = LIVE

    def _client(self) -> stripe.StripeClient:
        base_addresses: dict = {}
        if settings.STRIPE_API_BASE:
            base_addresses["api"] = settings.STRIPE_API_BASE
        return stripe.StripeClient(
            settings.STRIPE_SECRET_KEY,
            base_addresses=base_addresses,
            max_network_retries=STRIPE_MAX_NETWORK_RETRIES,
            http_client=stripe.RequestsClient(timeout=TIMEOUT_SECONDS),
        )

    def session_create(self, *, reference: str, return_url: str, idempotency_key: str) -> CreatedSession:
        try:
            session = self._client().v1.identity.verification_sessions.create(
                {
                    "type": "document",
                    "options": {"document": {"require_matching_selfie": True}},
                    "client_reference_id": reference,
                    "metadata": {"reference": reference},
                    "return_url": return_url,
                },
                {"idempotency_key": idempotency_key},
            )
        except stripe.StripeError as exc:
            raise GatewayError(f"Stripe Identity: {type(exc).__name__} (HTTP {exc.http_status})") from exc
        return CreatedSession(session_id=session.id, url=session.url or "")

    def verified_outputs(self, session_id: str) -> VerifiedOutputs | None:
        try:
            session = self._client().v1.identity.verification_sessions.retrieve(
                session_id, {"expand": ["verified_outputs", "verified_outputs.dob"]}
            )
        except stripe.StripeError as exc:
            raise GatewayError(f"Stripe Identity: {type(exc).__name__} (HTTP {exc.http_status})") from exc
        outputs = (session.to_dict().get("verified_outputs") or {}) if session else {}
        dob = outputs.get("dob") or {}
        try:
            born = dt.date(int(dob["year"]), int(dob["month"]), int(dob["day"])) if dob else None
        except (KeyError, TypeError, ValueError):
            born = None
        return VerifiedOutputs(
            first_name=str(outputs.get("first_name") or ""),
            last_name=str(outputs.get("last_name") or ""),
            date_of_birth=born,
        )


def identity_event_verify(body: bytes, signature: str | None) -> dict:
    """The Stripe Identity webhook's event, once its signature checks with
    STRIPE_IDENTITY_WEBHOOK_SECRET. Raises stripe.SignatureVerificationError or ValueError."""
    return stripe.Webhook.construct_event(body, signature, settings.STRIPE_IDENTITY_WEBHOOK_SECRET).to_dict()


# ---------------------------------------------------------------- Checkr


class CheckrGateway(BackgroundCheckGateway):
    """Checkr's REST API over httpx (there is no official Python SDK): basic auth with the API key."""

    name = LIVE

    def _post(self, path: str, data: dict, idempotency_key: str) -> dict:
        url = settings.CHECKR_BASE_URL.rstrip("/") + path
        try:
            response = httpx.post(
                url,
                json=data,
                auth=(settings.CHECKR_API_KEY, ""),
                headers={"Idempotency-Key": idempotency_key},
                timeout=TIMEOUT_SECONDS,
            )
        except httpx.HTTPError as exc:
            raise GatewayError(f"Checkr {path}: {type(exc).__name__}") from exc
        if response.status_code >= 300:
            raise GatewayError(f"Checkr {path}: HTTP {response.status_code}")
        try:
            return response.json()
        except ValueError as exc:
            raise GatewayError(f"Checkr {path}: unreadable answer") from exc

    def invite(
        self, *, first_name: str, last_name: str, email: str, candidate_id: str, package: str, idempotency_key: str
    ) -> CreatedInvitation:
        if not candidate_id:
            candidate = self._post(
                "/v1/candidates",
                {"first_name": first_name, "last_name": last_name, "email": email},
                f"{idempotency_key}-candidate",
            )
            candidate_id = str(candidate.get("id") or "")
            if not candidate_id:
                raise GatewayError("Checkr /v1/candidates: no id in the answer")
        invitation = self._post(
            "/v1/invitations",
            {"candidate_id": candidate_id, "package": package, "work_locations": [{"country": "US"}]},
            f"{idempotency_key}-invitation",
        )
        return CreatedInvitation(
            candidate_id=candidate_id,
            invitation_id=str(invitation.get("id") or ""),
            invitation_url=str(invitation.get("invitation_url") or ""),
        )


def checkr_signature(body: bytes, api_key: str) -> str:
    """Checkr signs each webhook's body: the hex HMAC-SHA256 of the raw body keyed with the API key."""
    return hmac.new(api_key.encode(), body, hashlib.sha256).hexdigest()


def checkr_signature_valid(body: bytes, signature: str | None) -> bool:
    if not settings.CHECKR_API_KEY or not signature:
        return False
    return hmac.compare_digest(checkr_signature(body, settings.CHECKR_API_KEY), signature.strip())


# ---------------------------------------------------------------- offline (make run)


class OfflineIdentityGateway(IdentityGateway):
    """`make run`: the session is a Kindly page (vetting.views.offline_identity) where the applicant
    finishes; it records a verified result with her profile's name."""

    name = OFFLINE

    def session_create(self, *, reference: str, return_url: str, idempotency_key: str) -> CreatedSession:
        session_id = f"vs_offline_{secrets.token_hex(8)}"
        return CreatedSession(session_id=session_id, url=reverse("vetting-offline-identity", args=[session_id]))

    def verified_outputs(self, session_id: str) -> VerifiedOutputs | None:
        return None


class OfflineBackgroundCheckGateway(BackgroundCheckGateway):
    """`make run`: the invitation is a Kindly page (vetting.views.offline_background_check) where the
    applicant consents; the report comes back "clear" unless the page is told "consider"."""

    name = OFFLINE

    def invite(
        self, *, first_name: str, last_name: str, email: str, candidate_id: str, package: str, idempotency_key: str
    ) -> CreatedInvitation:
        candidate_id = candidate_id or f"cand_offline_{secrets.token_hex(6)}"
        invitation_id = f"inv_offline_{secrets.token_hex(6)}"
        return CreatedInvitation(
            candidate_id=candidate_id,
            invitation_id=invitation_id,
            invitation_url=reverse("vetting-offline-background-check", args=[invitation_id]),
        )


def identity_gateway() -> IdentityGateway:
    return StripeIdentityGateway() if settings.VETTING_BACKEND == LIVE else OfflineIdentityGateway()


def background_gateway() -> BackgroundCheckGateway:
    return CheckrGateway() if settings.VETTING_BACKEND == LIVE else OfflineBackgroundCheckGateway()
