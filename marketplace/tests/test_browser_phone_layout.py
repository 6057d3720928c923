"""Phone layout: at 320 and 375 px every page keeps side padding (nothing
touches the screen's edges), the visitor's header stays compact, and the dashboard shows the
bookings before the tiles on a phone (tiles first on a wide screen)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser
from messaging.models import Message
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MIN_SIDE_PADDING = 12

# Every visible piece of content in the header, the page and the footer, with its left and right
# distance to the viewport's edges. Scrolling regions (the nav's link row, wide tables) may run
# under the edge by design; visually hidden text is 1 px and not shown.
_TOO_CLOSE = """(min) => {
  const width = document.documentElement.clientWidth;
  const selector = "main h1, main h2, main h3, main h4, main p, main li, main label, main input, main select, " +
    "main textarea, main button, main a, main .card, main dl, header .brand, header .button, footer p, footer a";
  const out = [];
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    if (el.closest(".visually-hidden, .table-scroll, [aria-hidden=true]")) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.position === "fixed") continue;
    if (r.left < min || width - r.right < min) {
      out.push(`${el.tagName.toLowerCase()}.${el.className} "${(el.textContent || "").trim().slice(0, 30)}" ` +
               `${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
    }
  }
  return out;
}"""


@pytest.fixture
def world(client_user, verified_provider):
    ServiceRequestFactory(client=client_user, title="Set up my new tablet")
    booking = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Weekly wellness visit"),
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=10),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    Message.objects.create(sender=client_user, receiver=verified_provider.user, booking=booking, content="Hello!")
    return {"client": client_user}


@pytest.mark.parametrize("width", [320, 375])
def test_every_page_keeps_side_padding_on_a_phone(live_server, page: Page, world, width):
    page.set_viewport_size({"width": width, "height": 800})
    problems = {}

    def check(path: str) -> None:
        page.goto(live_server.url + path, wait_until="networkidle")
        found = page.evaluate(_TOO_CLOSE, MIN_SIDE_PADDING)
        if found:
            problems[path] = found[:8]

    for path in ["/", "/landing", "/login", "/no-such-page"]:
        check(path)
    sign_in_browser(page, live_server.url, world["client"])
    for path in ["/dashboard", "/messages", "/providers"]:
        check(path)
    expect(page.get_by_test_id("usermenu-drawer-trigger")).to_be_visible()
    assert problems == {}, problems


def test_the_visitors_header_is_compact_on_a_phone(live_server, page: Page):
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}/landing")
    header = page.locator(".site-header").bounding_box()
    assert header and header["height"] <= 812 * 0.15, header  # it took a quarter of the screen
    for name in ("Sign In", "Get Started"):
        link = page.locator(".site-header").get_by_role("link", name=name, exact=True)
        box = link.bounding_box()
        assert box and box["y"] < 60 and box["height"] >= 44, (name, box)  # beside the brand, full size
        expect(link).to_have_attribute("href", "/login")
    for name in ("Services", "Find Providers", "How It Works"):
        expect(page.locator(".site-header").get_by_role("link", name=name)).to_be_attached()


@pytest.mark.parametrize(("width", "bookings_first"), [(375, True), (320, True), (1280, False)])
def test_dashboard_puts_bookings_first_on_a_phone(live_server, page: Page, world, width, bookings_first):
    page.set_viewport_size({"width": width, "height": 800})
    sign_in_browser(page, live_server.url, world["client"])
    page.goto(f"{live_server.url}/dashboard")
    bookings = page.get_by_test_id("bookings-card")
    expect(bookings).to_contain_text("Weekly wellness visit")
    tiles = page.locator(".tiles").bounding_box()
    card = bookings.bounding_box()
    assert tiles and card
    assert (card["y"] < tiles["y"]) is bookings_first
    if bookings_first:
        assert card["y"] < 800  # the bookings start on the first screen
