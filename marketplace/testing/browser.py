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


def check_in_and_out(
    page, item, *, notes: str = "Set up video calls; all went well.", wellbeing: str = "4: Good"
) -> None:
    """As the provider on the dashboard: check in to the visit listed in `item`, then check out with a
    short visit report, with the keyboard's own controls (buttons, labels, radios)."""
    import re

    from playwright.sync_api import expect

    item.get_by_role("button", name="Check in").click()
    expect(item.get_by_text(re.compile(r"^Checked in at"))).to_be_visible()
    item.get_by_role("button", name="Check out").click()
    dialog = page.get_by_test_id("visit-report-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label(re.compile("^(Anything else you did|What was done)")).fill(notes)
    dialog.get_by_label(wellbeing).check()
    dialog.get_by_role("button", name="Check out").click()
    expect(dialog).to_have_count(0)
