"""/request-service in Chromium: validation next to the fields, then a client posts a request and
finds it on the dashboard."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from marketplace.testing.browser import sign_in_browser
from requests_app.models import RequestStatus, ServiceRequest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_empty_form_shows_each_error_next_to_its_field(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service")
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_test_id("request-categoryId-error")).to_have_text("Category is required")
    expect(page.get_by_test_id("request-title-error")).to_have_text("Title is required")
    expect(page.get_by_test_id("request-description-error")).to_have_text("Description must be at least 10 characters")
    expect(page.get_by_test_id("request-street-error")).to_have_text("Please enter the street address.")
    expect(page.get_by_test_id("request-town-error")).to_have_text("Please enter the town.")
    expect(page.get_by_test_id("request-preferredDate-error")).to_have_text("Please choose a preferred date.")
    # The first invalid field gets focus and says it is invalid.
    category = page.get_by_label("Service category")
    expect(category).to_be_focused()
    expect(category).to_have_attribute("aria-invalid", "true")
    # Fixing a field clears its error as the user types.
    page.get_by_label("Title").fill("Tablet help")
    expect(page.get_by_test_id("request-title-error")).to_have_text("")
    page.get_by_label("Description").fill("short")
    expect(page.get_by_test_id("request-description-error")).to_have_text("Description must be at least 10 characters")
    assert not ServiceRequest.objects.exists()


def test_client_posts_a_request_and_sees_it_on_the_dashboard(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service")
    expect(page.get_by_role("heading", name="Typical Pricing")).to_be_visible()

    date = timezone.localdate() + dt.timedelta(days=10)
    page.get_by_label("Service category").select_option(label="Technology Support")
    page.get_by_label("Title").fill("Video calls with my grandchildren")
    page.get_by_label("Description").fill("Please help me set up video calls on my new tablet.")
    page.get_by_label("High").check()
    page.get_by_label("Preferred date").fill(date.isoformat())
    page.get_by_label("Preferred time").select_option(label="Afternoon (12PM - 5PM)")
    page.get_by_label("Street address").fill("12 Elm Street")
    page.get_by_label("Town").fill("Springfield")
    page.get_by_label("Special requirements (optional)").fill("Please ring twice.")
    expect(page.get_by_label("Estimated duration (minutes)")).to_have_value("60")
    page.get_by_label("Estimated duration (minutes)").fill("90")
    page.get_by_label("Maximum budget in dollars (optional)").fill("50")
    page.get_by_role("button", name="Submit Request").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Service Request Created!")
    expect(toast).to_contain_text("We'll match you with qualified providers in your area.")
    page.wait_for_url(f"{live_server.url}/", timeout=6000)

    item = page.get_by_test_id("requests-card").get_by_test_id("request-item")
    expect(item).to_contain_text("Video calls with my grandchildren")
    expect(item.get_by_test_id("status-badge")).to_have_text("Open")
    expect(item).to_contain_text("$50.00")
    created = ServiceRequest.objects.get()
    expect(item.get_by_role("link", name="Edit")).to_have_attribute("href", f"/edit-service-request?id={created.pk}")
    assert created.client_id == client_user.pk
    assert (created.urgency, created.preferred_time, created.preferred_date) == ("high", "afternoon", date)
    assert (created.estimated_duration, created.max_budget) == (90, Decimal("50.00"))
    assert created.status == RequestStatus.OPEN
    assert created.category.slug == "tech-support"
    assert created.special_requirements == "Please ring twice."


def test_past_date_is_refused_next_to_the_field(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service")
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    date_input = page.get_by_label("Preferred date")
    expect(date_input).to_have_attribute("min", timezone.localdate().isoformat())
    date_input.fill(yesterday.isoformat())
    expect(page.get_by_test_id("request-preferredDate-error")).to_have_text("Preferred date cannot be in the past.")


def test_budget_steps_and_series_are_checked_before_anything_is_sent(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    posts: list[str] = []
    page.on(
        "request", lambda r: posts.append(r.url) if r.method == "POST" and "/api/service-requests" in r.url else None
    )
    page.goto(f"{live_server.url}/request-service")
    page.get_by_label("Service category").select_option(label="Technology Support")
    page.get_by_label("Title").fill("Tablet help")
    page.get_by_label("Description").fill("Please help me set up video calls on my tablet.")
    first = timezone.localdate() + dt.timedelta(days=10)
    page.get_by_label("Preferred date").fill(first.isoformat())
    page.get_by_label("Street address").fill("12 Elm Street")
    page.get_by_label("Town").fill("Springfield")
    budget = page.get_by_label("Maximum budget in dollars (optional)")
    budget.fill("42")
    # The server's step-5 rule, said as the amount is typed.
    expect(page.get_by_test_id("request-maxBudget-error")).to_have_text("Budget must be in steps of $5")
    page.get_by_label("Repeat", exact=True).select_option(label="Every week")
    page.get_by_label("On a date").check()
    page.get_by_label("Last visit on or before").fill((first + dt.timedelta(days=6)).isoformat())
    expect(page.get_by_test_id("request-repeatUntil-error")).to_have_text(
        "This end date leaves only one visit: choose a later date."
    )
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_label("Last visit on or before")).to_be_focused()
    expect(page.get_by_test_id("request-maxBudget-error")).to_have_text("Budget must be in steps of $5")
    expect(budget).to_have_attribute("aria-invalid", "true")
    page.wait_for_timeout(300)
    assert posts == []
    assert not ServiceRequest.objects.exists()

    # An earlier first visit leaves two: the end date's message goes with the date's change.
    page.get_by_label("Preferred date").fill((first - dt.timedelta(days=1)).isoformat())
    expect(page.get_by_test_id("request-repeatUntil-error")).to_have_text("")
    budget.fill("45")
    expect(page.get_by_test_id("request-maxBudget-error")).to_have_text("")
    page.get_by_role("button", name="Submit Request").click()
    page.wait_for_url(f"{live_server.url}/", timeout=6000)
    created = ServiceRequest.objects.get()
    assert (created.max_budget, created.preferred_date, created.repeat_until) == (
        Decimal("45.00"),
        first - dt.timedelta(days=1),
        first + dt.timedelta(days=6),
    )


def test_provider_account_gets_the_server_refusal_as_a_toast(live_server, page: Page, verified_provider):
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/request-service")
    expect(page.get_by_role("note")).to_contain_text("Switch to Client")
    page.get_by_label("Service category").select_option(label="Light Errands")
    page.get_by_label("Title").fill("Groceries")
    page.get_by_label("Description").fill("Weekly groceries from the corner shop.")
    page.get_by_label("Preferred date").fill((timezone.localdate() + dt.timedelta(days=3)).isoformat())
    page.get_by_label("Street address").fill("4 Corner Road")
    page.get_by_label("Town").fill("Springfield")
    page.get_by_role("button", name="Submit Request").click()
    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Error")
    expect(toast).to_contain_text("Failed to create service request: Only client accounts can request services.")
    expect(page).to_have_url(f"{live_server.url}/request-service")
    assert not ServiceRequest.objects.exists()
