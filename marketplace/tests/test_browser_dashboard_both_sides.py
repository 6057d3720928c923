"""In Chromium at phone width: a client with a booking awaiting payment applies to be a helper and
keeps her client side (the helper view says so, the client view lets her pay); a helper's open
request cards say when and in which town, her tiles count today's visits."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BIO = "I spent thirty years as a librarian and love helping people learn new technology at their own pace."


def test_a_client_who_applies_still_finds_and_pays_her_booking(live_server, page: Page, client_user):
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up my new tablet",
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=6),
        status=BookingStatus.SCHEDULED,
        payment_status=PaymentStatus.PENDING,
        total_amount=Decimal("45.00"),
    )
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/provider-signup")
    page.get_by_label("Phone number").fill("555-010-2000")
    page.get_by_label("Technology Support").check()
    page.get_by_label("Hourly rate in dollars").fill("35")
    page.get_by_label("Service area").fill("Springfield")
    page.get_by_label("Home ZIP code").fill("62704")
    page.get_by_label("About you").fill(BIO)
    page.get_by_label("Experience").fill("Volunteer tech tutor at the senior centre.")
    page.get_by_role("button", name="Submit Application").click()
    page.wait_for_url(f"{live_server.url}/", timeout=6000)

    # The helper view, which says what she has as a client.
    expect(page.get_by_role("heading", name="Upcoming Appointments")).to_be_visible()
    side = page.get_by_test_id("client-side")
    expect(side.get_by_role("heading", name="You also have 1 booking as a client")).to_be_visible()
    expect(side).to_contain_text("1 booking is waiting for your payment.")
    assert_no_axe_violations(page, context="helper view with a client side")

    side.get_by_role("link", name="View your client bookings").click()
    expect(page.get_by_role("heading", name="Your Bookings")).to_be_visible()
    item = page.get_by_test_id("booking-item").filter(has_text="Set up my new tablet")
    expect(item.get_by_role("link", name="Pay now")).to_have_attribute("href", f"/checkout/{item_id(page)}")
    assert_no_axe_violations(page, context="client view of a helper")

    page.get_by_role("link", name="Back to your helper view").click()
    expect(page.get_by_role("heading", name="Upcoming Appointments")).to_be_visible()

    # Her own request's page is hers still, with her booking on it.
    page.goto(f"{live_server.url}/service-request-details?id={booking.service_request_id}")
    expect(page.get_by_role("heading", name="Set up my new tablet")).to_be_visible()
    expect(page.get_by_test_id("request-booking").get_by_role("heading", name="Your booking")).to_be_visible()
    expect(page.get_by_role("heading", name="Request Not Found")).to_have_count(0)


def item_id(page: Page) -> str:
    href = page.get_by_test_id("booking-item").get_by_role("link", name="Pay now").get_attribute("href") or ""
    return href.rsplit("/", 1)[-1]


def test_a_helper_sees_when_and_where_each_open_request_is(live_server, page: Page):
    helper = VerifiedProviderFactory()
    ServiceRequestFactory(
        title="Help with my printer",
        preferred_date=timezone.localdate() + dt.timedelta(days=4),
        preferred_time=TimeWindow.AFTERNOON,
        location="Springfield, IL 62704",
    )
    BookingFactory(
        provider=helper,
        service_request__preferred_date=timezone.localdate(),
        service_request__preferred_time=TimeWindow.EVENING,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, helper.user)
    page.goto(f"{live_server.url}/dashboard")

    expect(page.get_by_test_id("tile-schedule")).to_contain_text("1")
    facts = page.get_by_test_id("request-item").get_by_test_id("request-when-where")
    expect(facts).to_contain_text("Afternoon (12PM - 5PM)")
    expect(facts).to_contain_text("Springfield, IL 62704")
    assert_no_axe_violations(page, context="helper dashboard")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
