"""JavaScript weight on a phone: every page, for every role, loads at most
100 KB of gzipped JavaScript.

Chromium visits the pages the axe sweep visits and records every script the page loads (the
islands, their chunks and anything they import later, e.g. the Firebase SDK on /login, and each
island's catalogue in the page's language), then gzips each body as the server sends it
compressed (level 9, as WhiteNoise does). A script counts whether it came from the network or
the browser's cache: the page holds it either way, as on a first visit. Every page is weighed in
English and in Spanish (each user's `language`, the language cookie when signed out): a page loads
one language's words (docs/i18n.md). The table is printed on every run, so a change's cost can be
read before and after.
"""

from __future__ import annotations

import datetime as dt
import gzip
import sys

import pytest
from django.conf import settings
from django.utils import timezone
from playwright.sync_api import Page

from accounts.models import User
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LIMIT = 100 * 1024


def _pages(world) -> dict[str, list[str]]:
    open_id, unpaid = world["open"].id, world["unpaid"]
    return {
        "anonymous": ["/", "/login", "/providers", "/privacy-policy", "/terms-of-service.html", "/no-such-page"],
        "client": [
            "/dashboard",
            "/request-service",
            "/provider-signup",
            "/providers",
            "/messages",
            f"/service-request-details?id={open_id}",
            f"/edit-service-request?id={open_id}",
            f"/checkout/{unpaid.id}",
            "/care-circle",
            "/calendar",
            "/settings",
            "/privacy-policy",
        ],
        "provider": [
            "/dashboard",
            f"/service-request-details?id={open_id}",
            "/messages",
            "/settings",
            "/schedule",
            "/calendar",
            "/earnings",
        ],
        "pending provider": ["/dashboard", "/provider-signup"],
        "admin": ["/admin", "/messages", "/providers"],
    }


@pytest.fixture
def world(client_user, verified_provider, provider_user, admin_user):
    open_request = ServiceRequestFactory(client=client_user, title="Set up my new tablet")
    BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Weekly wellness visit"),
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=10),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    unpaid = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Grocery run"),
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=12),
    )
    return {
        "client": client_user,
        "provider": verified_provider.user,
        "pending provider": provider_user,
        "admin": admin_user,
        "open": open_request,
        "unpaid": unpaid,
    }


# {script url: gzipped bytes}: the built scripts' names carry a hash of their content, so a URL
# weighed once weighs the same on every page (sixty pages load mostly the same dozen chunks).
_GZIPPED: dict[str, int] = {}

# Every script the page holds: the browser's own list of what it fetched (module chunks, dynamic
# imports, from the network or its cache alike) and the page's script tags, from the server itself
# (an outside script, e.g. Stripe's, cannot load here, offline).
_LOADED_SCRIPTS = """() => [...new Set([
    ...performance.getEntriesByType("resource").map((e) => e.name),
    ...[...document.scripts].map((s) => s.src),
])].filter((u) => u && new URL(u).origin === location.origin && new URL(u).pathname.endsWith(".js"))"""


def _gzipped_size(page: Page, url: str) -> int:
    if url not in _GZIPPED:
        response = page.request.get(url)
        assert response.ok, f"{url}: {response.status}"
        _GZIPPED[url] = len(gzip.compress(response.body(), compresslevel=9))
    return _GZIPPED[url]


def _script_weight(page: Page, url: str) -> dict[str, int]:
    """{script url: gzipped bytes} of every script the page loaded, its island settled."""
    page.goto(url, wait_until="networkidle")
    return {script: _gzipped_size(page, script) for script in page.evaluate(_LOADED_SCRIPTS)}


def _speak(page: Page, live_server_url: str, world, language: str) -> None:
    """Every user of the world, and the browser signed out, in `language`."""
    User.objects.filter(pk__in=[world[role].pk for role in _pages(world) if role != "anonymous"]).update(
        language=language
    )
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server_url}])


def test_every_page_loads_at_most_100_kb_of_gzipped_javascript(live_server, page: Page, world, capsys):
    rows: list[tuple[str, str, str, int, int]] = []
    for language in ("en", "es"):
        for role, paths in _pages(world).items():
            page.context.clear_cookies()
            _speak(page, live_server.url, world, language)
            if role != "anonymous":
                sign_in_browser(page, live_server.url, world[role])
            for path in paths:
                scripts = _script_weight(page, live_server.url + path)
                # Every signed-in page has at least its user menu: none loaded means nothing was measured.
                assert scripts or role == "anonymous", f"{path} as {role} loaded no script at all"
                # Each island loads its own catalogue (the messages it can show) in the page's language
                # only, once; never a language's whole catalogue (catalogue-<language>-all-…).
                catalogues = [url for url in scripts if "/catalogue-" in url]
                assert all(f"/catalogue-{language}-" in url for url in catalogues), f"{path} as {role}: {catalogues}"
                names = [url.rsplit("/", 1)[-1].rsplit("-", 1)[0] for url in catalogues]  # catalogue-es-dashboard
                assert f"catalogue-{language}-all" not in names, f"{path} as {role}: {catalogues}"
                assert len(names) == len(set(names)), f"{path} as {role} ({language}) loaded {catalogues}"
                assert page.locator("html").get_attribute("lang") == language, f"{path} as {role}"
                rows.append((language, role, path, len(scripts), sum(scripts.values())))

    table = "\n".join(
        f"{language:<3} {role:<17} {path:<40} {n:>3} scripts {total / 1024:7.1f} KB"
        for language, role, path, n, total in rows
    )
    with capsys.disabled():  # the table shows on every run, passed or failed
        sys.stdout.write("\nGzipped JavaScript per page:\n" + table + "\n")
    heavy = [row for row in rows if row[4] > LIMIT]
    assert heavy == [], "Pages above 100 KB of gzipped JavaScript:\n" + table


# Pages whose parts load when opened, weighed once opened: the page's scripts and all those the
# opening loaded (the tab's chunk, its chart library).
OPENED = {
    "admin, the Market tab": ("/admin", "Market", "market-chart"),
}


def test_tabs_opened_stay_under_100_kb_of_gzipped_javascript_too(live_server, page: Page, admin_user, capsys):
    """Every script the page holds once the tab is open (the browser's own list of what it fetched,
    module chunks and dynamic imports included), each gzipped as the server sends it."""
    from playwright.sync_api import expect

    sign_in_browser(page, live_server.url, admin_user)
    rows = []
    for name, (path, tab, drawn) in OPENED.items():
        page.goto(live_server.url + path, wait_until="networkidle")
        page.get_by_role("tab", name=tab).click()
        expect(page.get_by_test_id(drawn).locator("canvas, svg").first).to_be_visible()
        page.wait_for_load_state("networkidle")
        weights = {url: _gzipped_size(page, url) for url in page.evaluate(_LOADED_SCRIPTS)}
        assert any("uPlot" in url for url in weights), f"the chart's library was not weighed: {sorted(weights)}"
        rows.append((name, len(weights), sum(weights.values())))
    table = "\n".join(f"{name:<40} {n:>3} scripts {total / 1024:7.1f} KB" for name, n, total in rows)
    with capsys.disabled():
        sys.stdout.write("\nGzipped JavaScript, tabs opened:\n" + table + "\n")
    assert [row for row in rows if row[2] > LIMIT] == [], table
