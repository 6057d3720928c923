"""Helpers for browser tests (Playwright + live_server).

``sign_in_browser(page, live_server_url, user)`` signs ``user`` in without the login page: it
creates a Django session with ``django.test.Client().force_login`` and copies its cookie into
the browser context. Use it in tests that are not about signing in.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.conf import settings
from django.test import Client


def sign_in_browser(page, live_server_url: str, user) -> None:
    client = Client()
    client.force_login(user)
    host = urlsplit(live_server_url).hostname
    page.context.add_cookies(
        [
            {
                "name": settings.SESSION_COOKIE_NAME,
                "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                "domain": host,
                "path": "/",
                "httpOnly": True,
                "sameSite": "Lax",
            }
        ]
    )
