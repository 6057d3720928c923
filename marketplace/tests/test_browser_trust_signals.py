"""Honest trust signals in Chromium at phone width: the landing page's samples say they are
examples, the support contacts come from settings, and "Contact support" in the footer opens the
support conversation for a signed-in person."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.browser import sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/kindly-trust-signals")


def test_on_a_phone_samples_are_examples_and_contact_support_opens_the_support_conversation(
    live_server, page: Page, settings, client_user, admin_user
):
    settings.SUPPORT_EMAIL = "help@kindly.test"
    settings.SUPPORT_PHONE = "+1 (800) 555-0199"
    settings.SUPPORT_HOURS = "Monday to Friday, 9 AM to 5 PM Eastern"
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/")

    expect(page.get_by_test_id("sample-testimonials-note")).to_be_visible()
    for card in page.get_by_test_id("testimonial").all():
        expect(card).to_contain_text("Example")
    expect(page.get_by_text("24/7")).to_have_count(0)
    footer = page.locator("footer").get_by_test_id("support-contact")
    expect(footer.get_by_role("link", name="help@kindly.test")).to_have_attribute("href", "mailto:help@kindly.test")
    expect(footer.get_by_role("link", name="+1 (800) 555-0199")).to_have_attribute("href", "tel:+18005550199")
    SHOTS.mkdir(exist_ok=True)
    page.get_by_test_id("testimonial").first.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "landing-testimonials-390.png"))
    footer.scroll_into_view_if_needed()
    page.screenshot(path=str(SHOTS / "landing-footer-390.png"))

    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/privacy-policy")
    page.locator("footer").get_by_role("link", name="Contact support").click()
    expect(page).to_have_url(f"{live_server.url}/messages?with=support")
    expect(page.get_by_test_id("support-hours")).to_contain_text("Monday to Friday, 9 AM to 5 PM Eastern")
    page.screenshot(path=str(SHOTS / "messages-support-390.png"))
