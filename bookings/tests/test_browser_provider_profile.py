"""/providers/{id} in Chromium: a family reaches a helper's profile from the keyboard (from her
booking card on the dashboard and from her browse card), reads what was checked and when, and the
page stays readable at 320 px (no sideways scrolling, 18 px text, 44 px targets) and axe clean. A
helper without evidence shows plainly what is not checked yet."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory, ReviewFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENSHOT = "/tmp/kindly-provider-profile-390.png"

# Every visible text and target in the page's main content: its font size, and the size of each
# link and button (a target smaller than 44 x 44 px is hard to hit with a shaky hand).
_MEASURE = """() => {
  const main = document.querySelector("main");
  const small = [];
  for (const el of main.querySelectorAll("p, li, dd, dt, span, a, button, h1, h2, h3")) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || el.closest(".visually-hidden, [aria-hidden=true]")) continue;
    if (!el.textContent.trim()) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 17.9) small.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${size}px`);
  }
  const tiny = [];
  for (const el of main.querySelectorAll("a, button")) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || el.closest(".visually-hidden")) continue;
    if (r.height < 44 || r.width < 44) {
      tiny.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return {
    small,
    tiny,
    sideways: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  };
}"""


def _readable(page: Page, width: int) -> None:
    page.set_viewport_size({"width": width, "height": 800})
    found = page.evaluate(_MEASURE)
    assert found["sideways"] <= 0, found
    assert found["small"] == [], found["small"]
    assert found["tiny"] == [], found["tiny"]


def test_a_family_opens_the_helpers_profile_from_her_booking_and_reads_her_checks(live_server, page: Page, client_user):
    helper = VerifiedProviderFactory(
        user__first_name="Rosa",
        user__last_name="Delgado",
        service_area="Springfield and Chatham",
        rating=5,
        total_reviews=1,  # her one review, below (the review service keeps these; the factory does not)
        identity_verified_at=dt.datetime(2026, 3, 14, 15, tzinfo=dt.UTC),
        background_checked_at=dt.datetime(2026, 4, 2, 15, tzinfo=dt.UTC),
    )
    BookingFactory(
        provider=helper,
        service_request__client=client_user,
        scheduled_date=timezone.localdate() + dt.timedelta(days=5),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    ReviewFactory(booking__provider=helper, booking__status=BookingStatus.COMPLETED, comment="So patient with Mum.")
    sign_in_browser(page, live_server.url, client_user)

    # The booking card names her, with the dates of her checks, and links to her profile.
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")
    card = page.get_by_test_id("booking-helper").first
    expect(card.get_by_test_id("booking-helper-vetting-identity")).to_contain_text("ID verified March 2026")
    expect(card.get_by_test_id("booking-helper-vetting-background")).to_contain_text(
        "Background checked April 2026, re-checked yearly"
    )
    card.get_by_role("link", name="Rosa Delgado", exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/providers/{helper.pk}")

    expect(page.get_by_role("heading", level=1, name="Rosa Delgado")).to_be_visible()
    expect(page.get_by_test_id("vetting-identity")).to_have_text("✓ ID verified March 2026")
    expect(page.get_by_test_id("vetting-background")).to_have_text("✓ Background checked April 2026, re-checked yearly")
    expect(page.get_by_test_id("services")).to_have_text("Technology Support, Light Errands")
    expect(page.get_by_test_id("service-area")).to_have_text("Springfield and Chatham")
    expect(page.get_by_test_id("rate")).to_have_text("$30.00 per hour")
    expect(page.get_by_test_id("visits-completed")).to_have_text("1 visit completed")
    expect(page.get_by_test_id("reviews")).to_contain_text("So patient with Mum.")
    expect(page.get_by_test_id("profile-not-public")).to_have_count(0)
    assert_no_axe_violations(page, context="/providers/{id}")

    # From the keyboard: Tab reaches "Request Rosa", Enter opens the request form for her.
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.textContent") == "Request Rosa":
            break
    else:
        pytest.fail("Tab never reached Request Rosa")

    _readable(page, 320)
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=SCREENSHOT, full_page=True)
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server.url}/request-service?provider={helper.pk}")


def test_a_helper_without_evidence_says_what_is_not_checked_and_her_browse_card_leads_there(
    live_server, page: Page, client_user
):
    helper = VerifiedProviderFactory(user__first_name="Nell", user__last_name="Unchecked")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/providers", wait_until="networkidle")
    page.get_by_test_id("provider-card").get_by_role("link", name="Nell Unchecked", exact=True).click()
    page.wait_for_url(f"{live_server.url}/providers/{helper.pk}")
    expect(page.get_by_test_id("vetting-identity")).to_have_text("– ID not verified yet")
    expect(page.get_by_test_id("vetting-background")).to_have_text("– Background check not done yet")
    expect(page.get_by_test_id("vetting")).not_to_contain_text("verified March")
    expect(page.get_by_test_id("visits-completed")).to_have_text("New to Kindly: no completed visits yet")
    assert_no_axe_violations(page, context="/providers/{id} without evidence")
    _readable(page, 320)
