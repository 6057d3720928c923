"""Rate limits on the calls worth abusing: sign-in per client IP; message sends,
request creation and payment-intent creation per user. Counters live in the cache (Redis in
tests and production), so every process shares them. Over the limit is 429 with a message.

The client IP is read from X-Forwarded-For only when the connection comes from a proxy listed
in TRUSTED_PROXIES; otherwise a client could pick its own address.
"""

from __future__ import annotations

import ipaddress

from django.conf import settings
from rest_framework.request import Request
from rest_framework.throttling import SimpleRateThrottle


def _trusted(address: str) -> bool:
    try:
        ip = ipaddress.ip_address(address.strip())
    except ValueError:
        return False
    return any(ip in ipaddress.ip_network(net, strict=False) for net in settings.TRUSTED_PROXIES)


def client_ip(request) -> str:
    """The address of the client: REMOTE_ADDR, or, behind trusted proxies, the nearest untrusted hop."""
    meta = request.META
    remote = meta.get("REMOTE_ADDR", "") or ""
    if not _trusted(remote):
        return remote
    hops = [hop.strip() for hop in meta.get("HTTP_X_FORWARDED_FOR", "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if not _trusted(hop):
            return hop
    return hops[0] if hops else remote


class _ScopedThrottle(SimpleRateThrottle):
    """Throttles only writes; rates come from settings.THROTTLE_RATES at request time."""

    scope: str = ""
    per_ip = False

    def __init__(self) -> None:  # rates are read per request, not at import
        pass

    def get_rate(self) -> str | None:
        return settings.THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Request, view) -> bool:
        if request.method in ("GET", "HEAD", "OPTIONS"):
            return True
        self.rate = self.get_rate()
        if not self.rate:
            return True
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return super().allow_request(request, view)

    def get_cache_key(self, request: Request, view) -> str:
        if self.per_ip or not request.user or not request.user.is_authenticated:
            ident = f"ip:{client_ip(request)}"
        else:
            ident = f"user:{request.user.pk}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


class SignInThrottle(_ScopedThrottle):
    scope = "sign_in"
    per_ip = True


class MessageSendThrottle(_ScopedThrottle):
    scope = "message_send"


class RequestCreateThrottle(_ScopedThrottle):
    scope = "request_create"


class PaymentIntentThrottle(_ScopedThrottle):
    scope = "payment_intent"
