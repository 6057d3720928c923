"""who sees open requests (item 1), who is coming (item 5), words that
mislead (item 11) and the 48-hour trap (item 13). Each changed page is checked with axe-core."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import UserType
from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.services import booking_reassign
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.models import TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/shots_a")
ADDRESS = "41 Maple Lane, Springfield"


def _booking(client, *, provider, days=10, status=BookingStatus.CONFIRMED, payment=PaymentStatus.PAID, title="Tablet"):
    return BookingFactory(
        service_request__client=client,
        service_request__title=title,
        service_request__location=ADDRESS,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=days),
        service_request__preferred_time=TimeWindow.MORNING,
        provider=provider,
        status=status,
        payment_status=payment,
        total_amount=Decimal("45.00"),
    )


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / name), full_page=True)


# ---------------------------------------------------------------- item 1: the dashboard's card


@pytest.mark.parametrize(
    ("kind", "heading", "link"),
    [
        ("switched", "Only verified providers see open requests", ("Apply to become a provider", "/provider-signup")),
        ("pending", "Your application is being reviewed", None),
        ("rejected", "Your application was not approved", ("Contact support", "/messages?with=support")),
    ],
)
def test_an_unvetted_provider_account_sees_why_instead_of_open_requests(live_server, page: Page, kind, heading, link):
    ServiceRequestFactory(title="Help with my printer", location=ADDRESS)
    account = {
        "switched": lambda: UserFactory(user_type=UserType.PROVIDER, first_name="Sam"),
        "pending": lambda: ProviderFactory(user__first_name="Paula").user,
        "rejected": lambda: ProviderFactory(verification_status=VerificationStatus.REJECTED).user,
    }[kind]()
    sign_in_browser(page, live_server.url, account)
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/api/service-requests" in r.url else None)
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")

    card = page.get_by_test_id("requests-card")
    expect(card.get_by_role("heading", name="Available Requests")).to_be_visible()
    gate = card.get_by_test_id("provider-gate")
    expect(gate.get_by_role("heading", name=heading)).to_be_visible()
    if link:
        expect(gate.get_by_role("link", name=link[0])).to_have_attribute("href", link[1])
    else:
        expect(gate.get_by_role("link")).to_have_count(0)
    expect(card.get_by_test_id("request-item")).to_have_count(0)
    expect(page.get_by_text("Help with my printer")).to_have_count(0)
    assert asked == [], "the card asks the server for nothing it may not show"
    assert ADDRESS not in page.content()
    assert_no_axe_violations(page)
    if kind == "pending":
        _shot(page, "dashboard-375-pending-provider.png")


# ---------------------------------------------------------------- item 5: who is coming


def test_client_booking_card_shows_the_helper_and_after_a_reassignment_the_new_one(
    live_server, page: Page, client_user, admin_user
):
    first = VerifiedProviderFactory(
        user__first_name="Henry", user__last_name="Okafor", rating=Decimal("4.60"), total_reviews=12
    )
    second = VerifiedProviderFactory(user__first_name="Grace", user__last_name="Lind")
    booking = _booking(client_user, provider=first, title="Set up my new tablet")
    sign_in_browser(page, live_server.url, client_user)
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")

    item = page.get_by_test_id("booking-item").filter(has_text="Set up my new tablet")
    helper = item.get_by_test_id("booking-helper")
    expect(helper).to_contain_text("Your helper")
    expect(helper.get_by_test_id("booking-helper-name")).to_have_text("Henry Okafor")
    expect(helper.get_by_role("img", name="Rated 4.6 out of 5")).to_be_visible()
    expect(helper).to_contain_text("(12 reviews)")
    # The link opens the conversation of this visit's care recipient and helper.
    expect(helper.get_by_role("link", name="Message Henry Okafor")).to_have_attribute(
        "href", f"/messages?booking={booking.pk}"
    )
    expect(item.get_by_test_id("status-note")).to_have_text("Paid and confirmed")
    assert_no_axe_violations(page)
    _shot(page, "dashboard-375-client.png")

    booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=second.pk, reason="Henry is unwell")
    page.reload(wait_until="networkidle")
    helper = page.get_by_test_id("booking-item").get_by_test_id("booking-helper")
    expect(helper.get_by_test_id("booking-helper-name")).to_have_text("Grace Lind")
    # A helper with no reviews yet is "New helper", not five grey stars and 0.0.
    expect(helper.get_by_test_id("new-helper")).to_have_text("New helper")
    expect(helper.get_by_role("img", name=re.compile("Rated"))).to_have_count(0)
    expect(page.get_by_text("Henry Okafor")).to_have_count(0)

    # The Message link opens that conversation.
    helper.get_by_role("link", name="Message Grace Lind").click()
    expect(page).to_have_url(re.compile(r"/messages\?booking="))
    expect(page.get_by_role("heading", name="Grace Lind")).to_be_visible()


def test_the_provider_booking_card_shows_the_client_and_the_status_in_plain_words(
    live_server, page: Page, verified_provider
):
    senior = UserFactory(first_name="Margaret", last_name="Whitfield")
    booking = _booking(
        senior, provider=verified_provider, status=BookingStatus.SCHEDULED, payment=PaymentStatus.PENDING
    )
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")
    item = page.get_by_test_id("booking-item")
    expect(item.get_by_test_id("booking-client-name")).to_have_text("Margaret Whitfield")
    expect(item.get_by_role("link", name="Message Margaret Whitfield")).to_have_attribute(
        "href", f"/messages?booking={booking.pk}"
    )
    expect(item.get_by_test_id("status-badge")).to_have_text("Scheduled")
    expect(item.get_by_test_id("status-note")).to_have_text("Waiting for the client's payment")


def test_the_booked_request_page_shows_the_client_who_is_coming(live_server, page: Page, client_user, admin_user):
    first = VerifiedProviderFactory(user__first_name="Henry", user__last_name="Okafor")
    second = VerifiedProviderFactory(user__first_name="Grace", user__last_name="Lind")
    booking = _booking(client_user, provider=first, title="Weekly wellness visit")
    sign_in_browser(page, live_server.url, client_user)
    url = f"{live_server.url}/service-request-details?id={booking.service_request_id}"
    page.goto(url, wait_until="networkidle")

    panel = page.get_by_test_id("request-booking")
    expect(panel.get_by_role("heading", name="Your booking")).to_be_visible()
    expect(panel.get_by_test_id("booking-helper-name")).to_have_text("Henry Okafor")
    expect(panel.get_by_test_id("status-note")).to_have_text("Paid and confirmed")
    expect(page.get_by_test_id("status-note").first).to_have_text("A helper accepted: see your booking")
    assert_no_axe_violations(page)

    booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=second.pk, reason="Schedule")
    page.reload(wait_until="networkidle")
    expect(page.get_by_test_id("request-booking").get_by_test_id("booking-helper-name")).to_have_text("Grace Lind")


# ---------------------------------------------------------------- item 13: the 48-hour window


def test_a_booking_inside_48_hours_offers_contact_support_which_opens_the_support_conversation(
    live_server, page: Page, client_user, admin_user
):
    provider = VerifiedProviderFactory(user__first_name="Henry")
    booking = _booking(client_user, provider=provider, days=1, title="Doctor visit")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")

    item = page.get_by_test_id("booking-item")
    expect(item.get_by_test_id("cancel-blocked")).to_be_visible()
    expect(item.get_by_role("button", name="Cancel Booking")).to_have_count(0)
    support = item.get_by_role("link", name="Contact support")
    expect(support).to_have_attribute("href", "/messages?with=support")

    page.goto(f"{live_server.url}/service-request-details?id={booking.service_request_id}", wait_until="networkidle")
    panel = page.get_by_test_id("request-booking")
    expect(panel.get_by_test_id("cancel-blocked")).to_be_visible()
    panel.get_by_role("link", name="Contact support").click()

    expect(page).to_have_url(re.compile(r"/messages\?with=support$"))
    pane = page.get_by_role("region", name=re.compile("Conversation with"))
    expect(pane.get_by_role("heading", name=admin_user.first_name)).to_be_visible()
    expect(page.get_by_label(re.compile("Message to"))).to_be_visible()


def test_the_request_form_warns_before_submitting_when_the_visit_is_within_48_hours(
    live_server, page: Page, client_user
):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/request-service", wait_until="networkidle")
    warning = page.get_by_test_id("short-notice")
    expect(warning).to_have_count(0)

    page.get_by_label("Preferred date").fill((timezone.localdate() + dt.timedelta(days=1)).isoformat())
    page.get_by_label("Preferred time").select_option(label="Morning (8AM - 12PM)")
    expect(warning).to_contain_text("less than 48 hours away")
    expect(warning).to_contain_text("cannot be cancelled in the app")
    assert_no_axe_violations(page)

    page.get_by_label("Preferred date").fill((timezone.localdate() + dt.timedelta(days=7)).isoformat())
    expect(warning).to_have_count(0)


def test_the_edit_form_warns_too(live_server, page: Page, client_user):
    request = ServiceRequestFactory(client=client_user, title="Tablet help")
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/edit-service-request?id={request.id}", wait_until="networkidle")
    warning = page.get_by_test_id("short-notice")
    expect(page.get_by_label("Preferred date")).to_be_visible()
    expect(warning).to_have_count(0)
    page.get_by_label("Preferred date").fill(timezone.localdate().isoformat())
    page.get_by_label("Preferred time").select_option(label="Evening (5PM - 8PM)")
    expect(warning).to_contain_text("cannot be cancelled in the app")


# ---------------------------------------------------------------- item 11: words that mislead


def test_a_provider_without_reviews_is_a_new_helper_on_the_browse_page(live_server, page: Page, client_user):
    VerifiedProviderFactory(user__first_name="Nadia", user__last_name="Perez", total_reviews=0)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/providers", wait_until="networkidle")
    card = page.get_by_test_id("provider-card").filter(has_text="Nadia Perez")
    rating = card.get_by_test_id("star-rating")
    expect(rating.get_by_test_id("new-helper")).to_have_text("New helper")
    expect(rating).to_have_text("New helper(0 reviews)")
    expect(card.get_by_role("img", name=re.compile("Rated"))).to_have_count(0)


def test_the_messages_placeholder_fits_the_phone_layout(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.set_viewport_size({"width": 375, "height": 812})
    page.goto(f"{live_server.url}/messages", wait_until="networkidle")
    expect(page.get_by_role("heading", name="Select a Conversation")).to_be_visible()
    expect(page.get_by_text("Choose a conversation from your list to see your messages.")).to_be_visible()
    expect(page.get_by_text("on the left")).to_have_count(0)
