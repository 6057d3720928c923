"""Journeys on the request details and edit pages, in Chromium against the live server."""

from __future__ import annotations

import datetime as dt
import re

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import Booking
from marketplace.testing.browser import sign_in_browser
from marketplace.tests.test_browser_session_loss import (
    end_session_elsewhere,
    expect_one_toast_then_sign_in,
    open_signed_in,
)
from requests_app.models import RequestStatus, ServiceRequest, Urgency
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def toast(page: Page):
    return page.get_by_test_id("toast")


def test_client_edits_a_request_with_field_errors_first(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, title="Tablet help", urgency=Urgency.NORMAL)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")

    title = page.get_by_label("Title")
    expect(title).to_have_value("Tablet help")
    title.fill("")
    page.get_by_label("Description").fill("Too short")
    page.get_by_label("Street address").fill("")
    page.get_by_role("button", name="Save Changes").click()

    expect(page.get_by_test_id("edit-title-error")).to_have_text("Title is required")
    expect(page.get_by_test_id("edit-description-error")).to_have_text("Description must be at least 10 characters")
    expect(page.get_by_test_id("edit-street-error")).to_have_text("Please enter the street address.")
    expect(title).to_have_attribute("aria-invalid", "true")
    expect(title).to_be_focused()
    request.refresh_from_db()
    assert request.title == "Tablet help"

    title.fill("Set up video calls on my tablet")
    expect(page.get_by_test_id("edit-title-error")).to_have_text("")
    page.get_by_label("Description").fill("Please help me call my grandchildren on video.")
    page.get_by_label("Street address").fill("14 Oak Avenue")
    page.get_by_label("Town").fill("Springfield")
    page.get_by_label("Urgency").select_option("high")
    page.get_by_label("Maximum budget ($, optional)").fill("45")
    page.get_by_role("button", name="Save Changes").click()

    expect(toast(page)).to_contain_text("Success")
    expect(page).to_have_url(f"{live_server.url}/", timeout=5000)
    request.refresh_from_db()
    assert request.title == "Set up video calls on my tablet"
    assert request.location == "14 Oak Avenue, Springfield"
    assert request.urgency == Urgency.HIGH
    assert request.max_budget == 45


def test_client_deletes_a_request_after_confirming(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")

    page.get_by_role("button", name="Delete Request").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_contain_text(
        "Are you sure you want to delete this service request? This action cannot be undone."
    )
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_have_count(0)
    assert ServiceRequest.objects.filter(pk=request.pk).exists()

    page.get_by_role("button", name="Delete Request").click()
    page.get_by_role("dialog").get_by_role("button", name="Delete", exact=True).click()
    expect(toast(page)).to_contain_text("Success")
    expect(page).to_have_url(f"{live_server.url}/", timeout=5000)
    assert not ServiceRequest.objects.filter(pk=request.pk).exists()


def test_edit_page_says_request_not_found_for_someone_elses_request(live_server, page: Page, client_user):
    other = ServiceRequestFactory()
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={other.id}")
    expect(page.get_by_role("heading", name="Request Not Found")).to_be_visible()
    expect(page.get_by_role("link", name="Back to Dashboard")).to_have_attribute("href", "/")


def test_details_page_without_id_and_with_unknown_id(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/service-request-details")
    expect(page.get_by_role("heading", name="No Request ID")).to_be_visible()
    page.goto(f"{live_server.url}/service-request-details?id=987654")
    expect(page.get_by_role("heading", name="Request Not Found")).to_be_visible()
    page.get_by_role("link", name="Back to Dashboard").click()
    expect(page).to_have_url(f"{live_server.url}/")


def test_client_sees_their_request_without_provider_actions(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, title="Sort my paperwork")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/service-request-details?id={request.id}")
    expect(page.get_by_role("heading", name="Sort my paperwork")).to_be_visible()
    expect(page.get_by_test_id("provider-actions")).to_have_count(0)
    expect(page.get_by_role("button", name="Accept Request")).to_have_count(0)


def test_verified_provider_accepts_from_the_details_page_then_can_contact_the_client(
    live_server, page: Page, verified_provider
):
    request = ServiceRequestFactory(title="Weekly grocery run")
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/service-request-details?id={request.id}")

    actions = page.get_by_test_id("provider-actions")
    expect(actions.get_by_role("heading", name="Provider Actions")).to_be_visible()
    expect(actions.get_by_role("link", name="Contact Client")).to_have_count(0)
    actions.get_by_role("button", name="Accept Request").click()

    expect(toast(page)).to_contain_text("Service request accepted! You can now contact the client.")
    contact = actions.get_by_role("link", name="Contact Client")
    expect(contact).to_be_visible()
    expect(contact).to_have_attribute("href", f"/messages?with={request.client_id}")
    expect(actions.get_by_role("button", name="Accept Request")).to_have_count(0)
    # Hers now: told so, not that it is "no longer open".
    expect(actions.get_by_test_id("request-closed")).to_have_text(
        "You accepted this request. The visit is on your dashboard."
    )
    request.refresh_from_db()
    assert request.status == RequestStatus.BOOKED
    assert Booking.objects.get(service_request=request).provider == verified_provider

    # Contact Client opens the conversation with the client on the messages page.
    contact.click()
    expect(page).to_have_url(re.compile(r"/messages\?with="))
    expect(page.get_by_role("heading", name=request.client.first_name)).to_be_visible()


def test_pending_provider_cannot_open_a_request_and_is_told_why(live_server, page: Page, provider_user):
    """open requests (a senior's address) are for verified providers only; the refusal of
    an accept is covered by the API's permission table."""
    request = ServiceRequestFactory(location="41 Maple Lane", special_requirements="I use a walker.")
    sign_in_browser(page, live_server.url, provider_user)
    page.goto(f"{live_server.url}/service-request-details?id={request.id}")

    expect(page.get_by_role("heading", name="Request Not Found")).to_be_visible()
    expect(page.get_by_test_id("unvetted-hint")).to_contain_text("Your application is being reviewed")
    expect(page.get_by_role("button", name="Accept Request")).to_have_count(0)
    expect(page.get_by_text("41 Maple Lane")).to_have_count(0)
    request.refresh_from_db()
    assert request.status == RequestStatus.OPEN
    assert not Booking.objects.filter(service_request=request).exists()


def test_server_refusal_shows_next_to_its_field_with_the_failure_toast(live_server, page: Page, client_user):
    # The form checks the date against the day the page was opened; the day has changed since, so
    # only the server knows that date is now in the past.
    request = ServiceRequestFactory(client=client_user, title="Tablet help")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")
    opened = timezone.localdate()
    expect(page.get_by_label("Preferred date")).to_have_attribute("min", opened.isoformat())
    with time_machine.travel(timezone.now() + dt.timedelta(days=2)):
        page.get_by_label("Preferred date").fill(opened.isoformat())
        page.get_by_role("button", name="Save Changes").click()
        expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text("Preferred date cannot be in the past.")
        expect(toast(page)).to_contain_text("Failed to update service request. Please try again.")
    expect(page).to_have_url(re.compile(r"/edit-service-request\?id="))
    request.refresh_from_db()
    assert request.preferred_date != opened


def test_the_form_says_the_servers_words_before_sending(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, title="Tablet help", repeat="", repeat_count=None)
    sign_in_browser(page, live_server.url, client_user)
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.method) if "/api/service-requests/" in r.url else None)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")
    page.get_by_label("Preferred date").fill((timezone.localdate() - dt.timedelta(days=1)).isoformat())
    page.get_by_label("Maximum budget ($, optional)").fill("-5")
    # Nothing is said while the user types, before a first attempt.
    expect(page.get_by_test_id("edit-maxBudget-error")).to_have_text("")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text("Preferred date cannot be in the past.")
    expect(page.get_by_test_id("edit-maxBudget-error")).to_have_text("Budget cannot be negative.")
    expect(page.get_by_label("Preferred date")).to_be_focused()
    # A repeat needs its first date: the series' words on the date (it is optional otherwise).
    page.get_by_label("Preferred date").fill("")
    expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text("")
    page.get_by_label("Repeat", exact=True).select_option(label="Every week")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text(
        "A repeating request needs the date of its first visit."
    )
    page.get_by_label("Repeat", exact=True).select_option(label="Does not repeat")
    expect(page.get_by_test_id("edit-preferredDate-error")).to_have_text("")
    assert sent == ["GET"]


def test_a_session_lost_on_the_edit_page_goes_to_sign_in(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, title="Tablet help")
    open_signed_in(page, live_server, client_user, f"/edit-service-request?id={request.id}")
    expect(page.get_by_label("Title")).to_have_value("Tablet help")
    end_session_elsewhere(page)
    page.get_by_label("Title").fill("Tablet help, please")
    page.get_by_role("button", name="Save Changes").click()
    expect_one_toast_then_sign_in(page, live_server)
    request.refresh_from_db()
    assert request.title == "Tablet help"


def test_a_booked_request_can_no_longer_be_edited(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, status=RequestStatus.BOOKED)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}")
    expect(page.get_by_role("heading", name="This Request Can No Longer Be Edited")).to_be_visible()
    expect(page.get_by_role("button", name="Save Changes")).to_have_count(0)
    expect(page.get_by_role("button", name="Delete Request")).to_have_count(0)
