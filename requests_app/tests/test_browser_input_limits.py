"""Counters on long text fields, limits in plain words, a cleared preferred date on the edit page,
in Chromium against the live server."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from core.validators import PHONE_CHARACTERS
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from requests_app.models import ServiceRequest
from requests_app.services import PREFERRED_DATE_TOO_FAR
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_request_form_counts_characters_and_names_its_limits(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service")

    description = page.get_by_label("Description")
    count = page.get_by_test_id("request-description-count")
    expect(count).to_have_text("0 / 5,000 characters")
    expect(description).to_have_attribute("maxlength", "5000")
    # The count is read with the field; the live region stays quiet far from the limit.
    assert "request-description-count" in (description.get_attribute("aria-describedby") or "")
    description.fill("Please help me set up video calls with my grandchildren.")
    expect(count).to_have_text("56 / 5,000 characters")
    expect(page.get_by_test_id("request-description-count-live")).to_have_text("")
    expect(page.get_by_test_id("request-description-count-live")).to_have_attribute("aria-live", "polite")
    # Near the limit it speaks once per step, not per keystroke.
    description.fill("x" * 4950)
    expect(count).to_have_text("4,950 / 5,000 characters")
    expect(page.get_by_test_id("request-description-count-live")).to_have_text("At most 100 characters left.")
    description.fill("x" * 5000)
    expect(page.get_by_test_id("request-description-count-live")).to_have_text(
        "You have reached the limit of 5,000 characters."
    )
    description.press("End")
    description.press_sequentially("more")
    expect(description).to_have_value("x" * 5000)  # maxlength holds it at the limit
    expect(page.get_by_test_id("request-specialRequirements-count")).to_have_text("0 / 5,000 characters")

    page.get_by_label("Estimated duration (minutes)").fill("1500")
    expect(page.get_by_test_id("request-estimatedDuration-error")).to_have_text("Duration can be at most 24 hours.")
    page.get_by_label("Maximum budget in dollars (optional)").fill("100000")
    expect(page.get_by_test_id("request-maxBudget-error")).to_have_text("Budget can be at most $99,999.")
    page.get_by_label("Preferred date").fill("2999-01-01")
    expect(page.get_by_test_id("request-preferredDate-error")).to_have_text(str(PREFERRED_DATE_TOO_FAR))
    assert_no_axe_violations(page, context="request form with counters and limit errors")
    assert not ServiceRequest.objects.exists()


def test_edit_form_saves_a_cleared_preferred_date(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, title="Tablet help")
    assert request.preferred_date is not None
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")

    date = page.get_by_label("Preferred date")
    expect(date).to_have_value(request.preferred_date.isoformat())
    expect(page.get_by_test_id("edit-description-count")).to_have_text(f"{len(request.description)} / 5,000 characters")
    date.fill("")
    page.get_by_role("button", name="Save Changes").click()

    expect(page.get_by_test_id("toast")).to_contain_text("Success")
    expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text("")
    expect(page).to_have_url(f"{live_server.url}/", timeout=5000)
    request.refresh_from_db()
    assert request.preferred_date is None


def test_edit_form_refuses_a_date_more_than_a_year_ahead(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")

    too_far = timezone.localdate() + dt.timedelta(days=400)
    page.get_by_label("Preferred date").fill(too_far.isoformat())
    page.get_by_role("button", name="Save Changes").click()

    expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text(str(PREFERRED_DATE_TOO_FAR))
    before = request.preferred_date
    request.refresh_from_db()
    assert request.preferred_date == before


def test_provider_form_refuses_a_phone_number_of_letters_and_counts_the_bio(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/provider-signup")

    page.get_by_label("Phone number").fill("abcdefghijklmnop")
    expect(page.get_by_test_id("provider-phone-error")).to_have_text(str(PHONE_CHARACTERS))
    page.get_by_label("Phone number").fill("+1 (555) 123-4567")
    expect(page.get_by_test_id("provider-phone-error")).to_have_text("")
    page.get_by_label("About you").fill("I help older neighbours with their phones.")
    expect(page.get_by_test_id("provider-bio-count")).to_have_text("42 / 5,000 characters")
    expect(page.get_by_test_id("provider-experience-count")).to_have_text("0 / 5,000 characters")
    assert_no_axe_violations(page, context="provider signup with counters")
