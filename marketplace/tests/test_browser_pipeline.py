"""The frontend pipeline end to end: Vite bundle -> django-vite tag -> island mounted in Chromium."""

import pytest
from playwright.sync_api import Page, expect

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_landing_island_renders_services_from_json_props(live_server, page: Page):
    page.goto(f"{live_server.url}/landing")
    cards = page.get_by_test_id("service-card")
    expect(cards).to_have_count(6)
    expect(cards.first).to_contain_text("Technology Support")

    toggle = cards.first.get_by_role("button", name="What's included")
    expect(toggle).to_have_attribute("aria-expanded", "false")
    toggle.click()
    expect(cards.first.get_by_role("button", name="Hide what's included")).to_have_attribute("aria-expanded", "true")
    expect(cards.first.get_by_text("Smartphone and tablet setup")).to_be_visible()
