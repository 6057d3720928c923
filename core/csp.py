"""Content-Security-Policy (django-csp) with the per-process extras the settings cannot know.

The policy itself is settings.CONTENT_SECURITY_POLICY: scripts only from this origin with the
request's nonce (every island tag carries it), Stripe.js on /checkout, the Firebase endpoints
on /login. In development and tests the Firebase Auth emulator's origin (its port is chosen at
run time) is added for the sign-in calls and its popup/iframe handler.
"""

from __future__ import annotations

from dataclasses import replace

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings


class KindlyCSPMiddleware(CSPMiddleware):
    def get_policy_parts(self, request, response, report_only: bool = False) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        emulator = settings.FIREBASE_AUTH_EMULATOR_HOST
        if report_only or not emulator:
            return parts
        origin = f"http://{emulator}"
        update = dict(parts.update or {})
        for directive in ("connect-src", "frame-src", "script-src"):
            update[directive] = [*update.get(directive, []), origin]
        return replace(parts, update=update)
