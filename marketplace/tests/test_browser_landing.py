"""The landing page in Chromium: nav anchors reach their sections, every visitor action signs in,
signed-in users go straight to the forms."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_visitor_anchors_scroll_to_the_sections_and_actions_go_to_login(live_server, page: Page):
    page.set_viewport_size({"width": 1024, "height": 700})
    page.goto(f"{live_server.url}/")
    for link, section in (("How It Works", "how-it-works"), ("Find Providers", "providers"), ("Services", "services")):
        page.get_by_role("navigation", name="Main").get_by_role("link", name=link).click()
        expect(page).to_have_url(f"{live_server.url}/#{section}")
        expect(page.locator(f"#{section}")).to_be_in_viewport()

    providers = page.get_by_test_id("featured-provider")
    expect(providers).to_have_count(3)  # the built-in samples
    expect(providers.first.get_by_role("link", name="Contact Sarah Johnson")).to_have_attribute("href", "/login")
    expect(page.get_by_test_id("testimonial")).to_have_count(3)

    page.get_by_role("link", name="Let's Get Started").click()
    expect(page).to_have_url(f"{live_server.url}/login?mode=signup&next=%2Frequest-service")
    expect(page.get_by_role("heading", name="Create Account")).to_be_visible()


def test_signed_in_hero_goes_to_the_forms_and_shows_real_providers(live_server, page: Page, client_user):
    VerifiedProviderFactory(user__first_name="Ann", user__last_name="Tech", specialties=["tech-support"])
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/landing")
    providers = page.get_by_test_id("featured-provider")
    expect(providers).to_have_count(1)
    expect(providers).to_contain_text("Ann Tech")
    expect(providers).to_contain_text("Technology Support")
    page.get_by_role("link", name="Become a Provider").first.click()
    expect(page).to_have_url(f"{live_server.url}/provider-signup")
    page.goto(f"{live_server.url}/landing")
    page.get_by_role("link", name="Request Service Now").click()
    expect(page).to_have_url(f"{live_server.url}/request-service")
