"""The whole marketplace in Chromium, across every role's pages:
a client signs up and posts requests; a provider signs up and applies; the admin approves; the
provider accepts from the request page; the client pays, sees the bookings and cancels one more
than 48 h away; the admin reassigns the other and cancels it with a reason.

Real pieces only: the live server on PostgreSQL, the Firebase Auth emulator for both sign-ups,
the offline test payment gateway."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User, UserType
from bookings.models import Booking, BookingStatus, PaymentStatus
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.vetting import with_evidence
from providers.models import Provider, VerificationStatus
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus, ServiceRequest

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "journey-pass-1"
BIO = "Retired teacher who loves helping older neighbours with phones, tablets and video calls."


def toast(page: Page):
    return page.get_by_test_id("toast")


def sign_up(page: Page, base: str, first: str, last: str, email: str) -> None:
    page.goto(f"{base}/login")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("First name").fill(first)
    page.get_by_label("Last name").fill(last)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()
    expect(toast(page)).to_contain_text("Welcome to Kindly!")
    page.wait_for_url(f"{base}/", timeout=15000)


def post_request(page: Page, base: str, title: str, date: dt.date) -> None:
    page.goto(f"{base}/request-service")
    page.get_by_label("Service category").select_option(label="Technology Support")
    page.get_by_label("Title").fill(title)
    page.get_by_label("Description").fill("Please help me set up video calls on my new tablet.")
    page.get_by_label("Preferred date").fill(date.isoformat())
    page.get_by_label("Preferred time").select_option(label="Morning (8AM - 12PM)")
    page.get_by_label("Street address").fill("12 Elm Street")
    page.get_by_label("Town").fill("Springfield")
    page.get_by_role("button", name="Submit Request").click()
    expect(toast(page)).to_contain_text("Service Request Created!")
    page.wait_for_url(f"{base}/", timeout=10000)


def pay(page: Page, base: str, booking: Booking) -> None:
    page.goto(f"{base}/checkout/{booking.pk}")
    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Expiry date").fill("12/40")
    page.get_by_label("Security code (CVC)").fill("123")
    page.get_by_role("button", name=f"Pay ${booking.total_amount}").click()
    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()


def test_request_to_booking_to_admin_fixes(live_server, browser: Browser, firebase_auth, admin_user, settings):
    settings.PAYMENTS_BACKEND = "test"
    base = live_server.url
    visit_day = timezone.localdate() + dt.timedelta(days=10)
    backup = VerifiedProviderFactory(
        user__first_name="Bea", user__last_name="Backup", specialties=["tech-support", "wellness-checks"]
    )
    contexts = [browser.new_context() for _ in range(3)]
    client_page, provider_page, admin_page = (c.new_page() for c in contexts)
    try:
        # A client signs up and posts two requests.
        sign_up(client_page, base, "Rosa", "Client", "rosa@example.com")
        post_request(client_page, base, "Video calls with my grandchildren", visit_day)
        post_request(client_page, base, "Set up my e-reader", visit_day + dt.timedelta(days=1))
        rosa = User.objects.get(email="rosa@example.com")
        assert ServiceRequest.objects.filter(client=rosa, status=RequestStatus.OPEN).count() == 2

        # A provider signs up and applies.
        sign_up(provider_page, base, "Piet", "Helper", "piet@example.com")
        provider_page.goto(f"{base}/provider-signup")
        provider_page.get_by_label("Phone number").fill("555-010-2000")
        provider_page.get_by_label("Technology Support").check()
        provider_page.get_by_label("Hourly rate in dollars").fill("30")
        provider_page.get_by_label("Service area").fill("Springfield")
        provider_page.get_by_label("Home ZIP code").fill("62704")
        provider_page.get_by_label("About you").fill(BIO)
        provider_page.get_by_label("Experience").fill("Volunteer tech tutor at the senior centre.")
        provider_page.get_by_role("button", name="Submit Application").click()
        expect(toast(provider_page)).to_contain_text("Provider Profile Created!")
        provider_page.wait_for_url(f"{base}/", timeout=10000)
        piet = Provider.objects.get(user__email="piet@example.com")
        assert piet.verification_status == VerificationStatus.PENDING
        with_evidence(piet)  # her ID verified and her check clear (vetting's own journey: vetting/tests)

        # Before approval the provider is told to wait, and sees none of the open requests.
        provider_page.goto(f"{base}/dashboard")
        expect(provider_page.get_by_test_id("provider-gate")).to_contain_text("Your application is being reviewed")
        expect(provider_page.get_by_test_id("request-item")).to_have_count(0)
        first = ServiceRequest.objects.get(title="Video calls with my grandchildren")
        provider_page.goto(f"{base}/service-request-details?id={first.pk}")
        expect(provider_page.get_by_role("heading", name="Request Not Found")).to_be_visible()
        expect(provider_page.get_by_role("button", name="Accept Request")).to_have_count(0)

        # The admin approves the application.
        sign_in_browser(admin_page, base, admin_user)
        admin_page.goto(f"{base}/admin")
        admin_page.get_by_label("Search providers").fill("piet@")
        admin_page.get_by_role("button", name="Approve Piet Helper").click()
        admin_page.get_by_role("dialog", name="Approve Piet Helper?").get_by_role(
            "button", name="Approve", exact=True
        ).click()
        expect(toast(admin_page)).to_contain_text("Provider status updated successfully")
        expect(admin_page.get_by_test_id("group-verified-providers")).to_contain_text("Piet Helper")

        # The provider accepts both requests from the dashboard's View Details.
        for title in ("Video calls with my grandchildren", "Set up my e-reader"):
            provider_page.goto(f"{base}/dashboard")
            item = provider_page.get_by_test_id("request-item").filter(has_text=title)
            item.get_by_role("link", name="View Details").click()
            expect(provider_page.get_by_role("heading", name=title)).to_be_visible()
            provider_page.get_by_role("button", name="Accept Request").click()
            expect(toast(provider_page)).to_contain_text("Service request accepted! You can now contact the client.")
            expect(provider_page.get_by_role("link", name="Contact Client")).to_be_visible()
        bookings = {b.service_request.title: b for b in Booking.objects.select_related("service_request")}
        assert len(bookings) == 2 and all(b.provider_id == piet.pk for b in bookings.values())

        # The client sees both bookings, pays both, and cancels the first (10 days away).
        client_page.goto(f"{base}/dashboard")
        expect(client_page.get_by_test_id("booking-item")).to_have_count(2)
        for booking in bookings.values():
            pay(client_page, base, booking)
        client_page.goto(f"{base}/dashboard")
        item = client_page.get_by_test_id("booking-item").filter(has_text="Video calls with my grandchildren")
        expect(item.get_by_test_id("status-badge")).to_have_text("Confirmed")
        item.get_by_role("button", name="Cancel Booking").click()
        # The dialog says what comes back to the card, from the server's rule.
        paid = bookings["Video calls with my grandchildren"].total_amount
        expect(client_page.get_by_test_id("cancel-refund")).to_have_text(
            f"You will get ${paid:,.2f} back to your card."
        )
        client_page.get_by_role("dialog", name="Cancel Booking").get_by_role("button", name="Cancel Booking").click()
        expect(toast(client_page)).to_contain_text("Booking Cancelled")
        expect(item.get_by_test_id("status-badge")).to_have_text("Cancelled")
        cancelled = bookings["Video calls with my grandchildren"]
        cancelled.refresh_from_db()
        assert (cancelled.status, cancelled.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)

        # The admin reassigns the other booking, then cancels it with a reason.
        other = bookings["Set up my e-reader"]
        admin_page.goto(f"{base}/admin")
        admin_page.get_by_role("tab", name="Bookings").click()
        row = admin_page.get_by_test_id("admin-booking").filter(has_text=f"#{other.pk}")
        expect(row).to_contain_text("Rosa Client")
        expect(row).to_contain_text("Piet Helper")
        row.get_by_role("button", name="Reassign").click()
        dialog = admin_page.get_by_role("dialog", name="Reassign Booking")
        dialog.get_by_label("New provider").select_option(label="Bea Backup - Technology Support, Wellness Checks")
        dialog.get_by_label("Reason for reassignment").fill("Piet asked for a day off.")
        dialog.get_by_role("button", name="Reassign Booking").click()
        expect(toast(admin_page)).to_contain_text("Booking reassigned successfully")
        expect(row).to_contain_text("Bea Backup")
        other.refresh_from_db()
        assert other.provider == backup
        # The client sees the new helper on the booking card.
        client_page.goto(f"{base}/dashboard")
        item = client_page.get_by_test_id("booking-item").filter(has_text="Set up my e-reader")
        expect(item.get_by_test_id("booking-helper-name")).to_have_text("Bea Backup")

        row.get_by_role("button", name="Cancel").click()
        dialog = admin_page.get_by_role("dialog", name="Cancel Booking")
        expect(dialog.get_by_test_id("cancel-refund")).to_have_text(
            f"The client will get ${other.total_amount:,.2f} back to their card."
        )
        dialog.get_by_label("Cancellation reason").fill("Rosa is travelling that week.")
        dialog.get_by_role("button", name="Cancel Booking").click()
        expect(toast(admin_page)).to_contain_text("Booking cancelled successfully")
        expect(row).to_contain_text("Cancelled")
        other.refresh_from_db()
        assert other.status == BookingStatus.CANCELLED
        assert other.cancellation_reason == "Rosa is travelling that week."

        # The client's dashboard shows both bookings cancelled.
        client_page.goto(f"{base}/dashboard")
        badges = client_page.get_by_test_id("booking-item").get_by_test_id("status-badge")
        expect(badges).to_have_text(["Cancelled", "Cancelled"])
        assert User.objects.get(email="piet@example.com").user_type == UserType.PROVIDER
    finally:
        for context in contexts:
            context.close()
