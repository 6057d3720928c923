"""a client books last visit's helper again from the dashboard (the
form starts from that booking's request and is sent to her directly); the helper sees "Asked for
you" and declines with a reason; the client reads the reason. axe on each page changed."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "I am away visiting my sister that week, sorry."


def test_book_again_sends_to_vera_who_declines_and_the_client_reads_why(live_server, page: Page, client_user):
    vera = VerifiedProviderFactory(
        user__first_name="Vera", user__last_name="Lang", specialties=["tech-support"], hourly_rate=Decimal("30")
    )
    past = BookingFactory(
        service_request=ServiceRequestFactory(
            client=client_user,
            title="Tablet lessons",
            description="Show me how to make video calls to my grandchildren.",
            special_requirements="Please ring the bell twice.",
            estimated_duration=90,
            max_budget=Decimal("45.00"),
            status=RequestStatus.COMPLETED,
        ),
        provider=vera,
        status=BookingStatus.COMPLETED,
    )

    # The client: Book again on the past visit, the form filled in from it, no date yet.
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    booking = page.get_by_test_id("booking-item").filter(has_text="Tablet lessons")
    booking.get_by_role("link", name="Book again").click()
    expect(page).to_have_url(f"{live_server.url}/request-service?provider={vera.pk}&from={past.pk}")
    expect(page.get_by_test_id("asked-provider")).to_have_text(
        "You're asking Vera directly. Vera offers: Technology Support."
    )
    expect(page.get_by_test_id("direct-choice")).to_contain_text(
        "Vera will have 24 hours to accept. After that, other helpers can offer too."
    )
    expect(page.get_by_label("Title")).to_have_value("Tablet lessons")
    expect(page.get_by_label("Description")).to_have_value("Show me how to make video calls to my grandchildren.")
    expect(page.get_by_label("Special requirements (optional)")).to_have_value("Please ring the bell twice.")
    expect(page.get_by_label("Estimated duration (minutes)")).to_have_value("90")
    expect(page.get_by_label("Maximum budget in dollars (optional)")).to_have_value("45")
    expect(page.get_by_label("Service category").locator("option:checked")).to_have_text("Technology Support")
    expect(page.get_by_label("Preferred date")).to_have_value("")
    only = page.get_by_label("Only Vera (don't offer this to other helpers)")
    expect(only).not_to_be_checked()
    only.check()
    expect(page.get_by_test_id("direct-choice")).to_contain_text("Only Vera can accept this request.")
    only.uncheck()
    assert_no_axe_violations(page, context="/request-service, Book again")

    page.get_by_label("Preferred date").fill(page.get_by_label("Preferred date").get_attribute("min"))
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Request sent to Vera!")
    # The form goes home 2 s after the toast: wait for it, or it aborts the next navigation.
    page.wait_for_url(f"{live_server.url}/")
    created = ServiceRequest.objects.exclude(pk=past.service_request_id).get(title="Tablet lessons")
    assert created.requested_provider == vera and not created.only_requested_provider
    assert created.estimated_duration == 90 and created.max_budget == Decimal("45.00")

    # Vera: "Asked for you", with the time left; Decline asks why (required).
    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, vera.user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("request-item").filter(has_text="Tablet lessons")
    expect(item.get_by_test_id("asked-for-you")).to_contain_text(
        re.compile(r"Asked for you\s+Only you can accept until \w{3} \d{1,2}:\d{2} [AP]M\.")
    )
    assert_no_axe_violations(page, context="provider dashboard, a direct request")
    item.get_by_role("button", name="Decline").click()
    dialog = page.get_by_test_id("decline-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Decline").click()
    expect(dialog).to_contain_text("Please say why you cannot take this request.")
    expect(dialog.get_by_label(re.compile("^Why can't you take it"))).to_be_focused()
    assert_no_axe_violations(page, context="the Decline dialog")
    dialog.get_by_label(re.compile("^Why can't you take it")).fill(REASON)
    dialog.get_by_role("button", name="Decline").click()
    expect(dialog).to_have_count(0)
    expect(page.get_by_test_id("toast")).to_contain_text("Request declined")
    created.refresh_from_db()
    assert created.decline_reason == REASON and created.status == RequestStatus.OPEN
    # Still open (to all now), without "Asked for you".
    expect(item.get_by_test_id("asked-for-you")).to_have_count(0)

    # The client reads why, on the dashboard and on the request.
    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    # (The request of the past visit is listed too, completed: the new one is the one sent to Vera.)
    mine = page.get_by_test_id("request-item").filter(has=page.get_by_test_id("sent-to-helper"))
    expect(mine).to_contain_text("Tablet lessons")
    expect(mine.get_by_test_id("sent-to-helper")).to_have_text(f"Vera declined: {REASON} Open to all helpers.")
    mine.get_by_role("link", name="View Details").click()
    expect(page.get_by_test_id("sent-to-helper")).to_have_text(f"Vera declined: {REASON} Open to all helpers.")
    assert_no_axe_violations(page, context="/service-request-details, declined")


def test_the_circle_sees_whom_a_request_was_sent_to(live_server, page: Page, client_user):
    vera = VerifiedProviderFactory(user__first_name="Vera", specialties=["tech-support"])
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service?provider={vera.pk}")
    page.get_by_label("Only Vera (don't offer this to other helpers)").check()
    page.get_by_label("Title").fill("Phone help")
    page.get_by_label("Description").fill("Help me set up the new phone, please.")
    page.get_by_label("Preferred date").fill(page.get_by_label("Preferred date").get_attribute("min"))
    page.get_by_label("Street address").fill("3 Oak Lane")
    page.get_by_label("Town").fill("Springfield")
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Request sent to Vera!")
    # The form goes home 2 s after the toast: wait for it, or it aborts the next navigation.
    page.wait_for_url(f"{live_server.url}/")
    assert ServiceRequest.objects.get(title="Phone help").only_requested_provider

    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("request-item").filter(has_text="Phone help")
    expect(item.get_by_test_id("sent-to-helper")).to_have_text("Sent to Vera only.")
    assert_no_axe_violations(page, context="client dashboard, a direct request")
