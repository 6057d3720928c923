"""Care circles in Chromium: the request form asks "Who is this for?" and fills in
their address; the dashboard says whom each item is for and switches between the people a family
cares for; a plain member sees a visit without an organizer's buttons; axe clean."""

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from requests_app.models import ServiceRequest, TimeWindow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def family(client_user):
    harold = CareRecipient.objects.create(first_name="Harold", last_name="Smith", address="12 Oak Lane, Springfield")
    rose = CareRecipient.objects.create(first_name="Rose", last_name="Jones", address="3 Pine Road, Springfield")
    son = UserFactory()
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=rose, user=son, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=rose, user=client_user, role=CircleRole.MEMBER)

    def booking(recipient, poster, title, days):
        return BookingFactory(
            service_request__client=poster,
            service_request__recipient=recipient,
            service_request__title=title,
            service_request__preferred_date=timezone.localdate() + dt.timedelta(days=days),
            service_request__preferred_time=TimeWindow.MORNING,
            status=BookingStatus.SCHEDULED,
            payment_status=PaymentStatus.PENDING,
            total_amount=Decimal("45.00"),
        )

    return {
        "harold": harold,
        "rose": rose,
        "harold_booking": booking(harold, client_user, "Tablet help for Dad", 7),
        "rose_booking": booking(rose, son, "Groceries for Mum", 8),
    }


def test_the_dashboard_names_each_recipient_and_switches_between_them(live_server, page: Page, client_user, family):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")

    switcher = page.get_by_role("navigation", name="Whose care to show")
    expect(switcher.get_by_role("link", name="Everyone")).to_have_attribute("aria-current", "page")
    items = page.get_by_test_id("booking-item")
    expect(items).to_have_count(2)
    dad = items.filter(has_text="Tablet help for Dad")
    mum = items.filter(has_text="Groceries for Mum")
    expect(dad.get_by_test_id("item-recipient")).to_have_text("For Harold Smith")
    expect(mum.get_by_test_id("item-recipient")).to_have_text("For Rose Jones")
    # Organizer of Harold's circle: pays and cancels; a plain member of Rose's: sees the visit only.
    expect(dad.get_by_role("link", name="Pay now")).to_be_visible()
    expect(dad.get_by_role("button", name="Cancel Booking")).to_be_visible()
    expect(mum.get_by_role("link", name="Pay now")).to_have_count(0)
    expect(mum.get_by_role("button", name="Cancel Booking")).to_have_count(0)
    assert_no_axe_violations(page, context="/dashboard with the recipient switcher")

    switcher.get_by_role("link", name="Rose Jones").click()
    expect(page).to_have_url(f"{live_server.url}/dashboard?recipient={family['rose'].pk}")
    expect(
        page.get_by_role("navigation", name="Whose care to show").get_by_role("link", name="Rose Jones")
    ).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("booking-item")).to_have_count(1)
    expect(page.get_by_test_id("booking-item")).to_contain_text("Groceries for Mum")


def test_the_request_form_asks_who_it_is_for_and_uses_their_address(live_server, page: Page, client_user, family):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service")

    who = page.get_by_label("Who is this for?")
    # Harold is the only one the user organizes: chosen already, his address in the location.
    expect(who).to_have_value(str(family["harold"].pk))
    expect(page.get_by_label("Street address")).to_have_value("12 Oak Lane")
    expect(page.get_by_label("Town")).to_have_value("Springfield")
    options = who.locator("option")
    expect(options).to_contain_text(["Myself", "Harold Smith"])
    assert_no_axe_violations(page, context="/request-service with Who is this for?")

    page.get_by_label("Service category").select_option(label="Technology Support")
    page.get_by_label("Title").fill("Video calls with the grandchildren")
    page.get_by_label("Description").fill("Please help Dad set up video calls on his tablet.")
    page.get_by_label("Preferred date").fill((timezone.localdate() + dt.timedelta(days=9)).isoformat())
    page.get_by_role("button", name="Submit Request").click()

    expect(page.get_by_test_id("toast")).to_contain_text("Service Request Created!")
    created = ServiceRequest.objects.get(title="Video calls with the grandchildren")
    assert created.recipient_id == family["harold"].pk
    assert created.location == "12 Oak Lane, Springfield"
    assert created.client_id == client_user.pk
