"""Admin journeys on /admin in Chromium: approve a provider (confirmed in a dialog), reassign and
cancel bookings; non-admins are turned away with the spec's toast."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.vetting import with_evidence
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.services import service_request_delete
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def toast(page: Page):
    return page.get_by_test_id("toast")


def confirmed_booking(provider, **kwargs):
    return BookingFactory(
        service_request=ServiceRequestFactory(),
        provider=provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=9),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        **kwargs,
    )


def test_admin_searches_and_approves_a_pending_provider(live_server, page: Page, admin_user):
    pending = with_evidence(
        ProviderFactory(
            user__first_name="Pat",
            user__last_name="Pending",
            user__email="pat@example.com",
            specialties=["home-organization"],
            service_area="",
        )
    )
    VerifiedProviderFactory(user__first_name="Vic", user__last_name="Verified", specialties=["tech-support"])
    ProviderFactory(
        user__first_name="Rita",
        user__last_name="Rejected",
        verification_status=VerificationStatus.REJECTED,
        specialties=[],
    )
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")

    for label, value in (("Pending", "1"), ("Verified", "1"), ("Rejected", "1"), ("Total", "3")):
        expect(page.get_by_test_id(f"count-{label}")).to_contain_text(value)
    rejected_group = page.get_by_test_id("group-rejected-providers")
    expect(rejected_group).to_contain_text("No specialties")
    pending_group = page.get_by_test_id("group-pending-approval")
    expect(pending_group).to_contain_text("No area specified")

    search = page.get_by_label("Search providers")
    expect(search).to_have_attribute("placeholder", "Search providers by name, email, or specialty...")
    search.fill("HOME ORG")  # specialty, any case
    expect(page.get_by_test_id("admin-provider")).to_have_count(1)
    expect(page.get_by_test_id("group-verified-providers")).to_contain_text("No providers found")
    search.fill("PAT@EXAMPLE")  # email
    expect(page.get_by_test_id("admin-provider")).to_have_count(1)
    search.fill("verified")  # last name
    # Each group asks the server on its own and shows its last answer until the new one comes: the
    # count of one is already true of the previous search, so the new answer is awaited by its words.
    expect(page.get_by_test_id("group-verified-providers")).to_contain_text("Vic Verified")
    expect(pending_group).to_contain_text("No providers found")
    expect(page.get_by_test_id("admin-provider")).to_have_count(1)
    search.fill("")
    expect(page.get_by_test_id("admin-provider")).to_have_count(3)

    expect(page.get_by_test_id("group-verified-providers").get_by_role("button", name="Approve")).to_have_count(0)
    pending_group.get_by_role("button", name="Approve Pat Pending").click()
    page.get_by_role("dialog", name="Approve Pat Pending?").get_by_role("button", name="Approve", exact=True).click()
    expect(toast(page)).to_contain_text("Provider status updated successfully")
    expect(page.get_by_test_id("group-verified-providers")).to_contain_text("Pat Pending")
    expect(pending_group).to_contain_text("No providers found")
    expect(page.get_by_test_id("count-Verified")).to_contain_text("2")
    pending.refresh_from_db()
    assert pending.verification_status == VerificationStatus.VERIFIED


def test_admin_rejects_a_pending_provider(live_server, page: Page, admin_user):
    pending = ProviderFactory(user__first_name="Ned", user__last_name="New")
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("button", name="Reject Ned New").click()
    page.get_by_role("dialog", name="Reject Ned New?").get_by_role("button", name="Reject", exact=True).click()
    expect(page.get_by_test_id("group-rejected-providers")).to_contain_text("Ned New")
    pending.refresh_from_db()
    assert pending.verification_status == VerificationStatus.REJECTED


def test_admin_reassigns_a_confirmed_booking_to_another_verified_provider(live_server, page: Page, admin_user):
    current = VerifiedProviderFactory(user__first_name="Cora", user__last_name="Current")
    target = VerifiedProviderFactory(
        user__first_name="Tom", user__last_name="Target", specialties=["tech-support", "light-errands"]
    )
    ProviderFactory(user__first_name="Penny", user__last_name="Pending")
    booking = confirmed_booking(current)
    scheduled = BookingFactory(provider=current)  # not confirmed: no actions
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Bookings").click()

    expect(page.get_by_test_id("count-Total Bookings")).to_contain_text("2")
    expect(page.get_by_test_id("count-Confirmed")).to_contain_text("1")
    table = page.get_by_role("region", name="All Bookings")
    for column in ("Booking ID", "Client", "Provider", "Date", "Status", "Actions"):
        expect(table.get_by_role("columnheader", name=column)).to_be_visible()
    expect(table.get_by_role("button", name=f"Reassign booking #{scheduled.id}")).to_have_count(0)
    # Why there is nothing to do, never a bare "None".
    unpaid_row = page.get_by_test_id("admin-booking").filter(has_text=f"#{scheduled.id}")
    expect(unpaid_row.get_by_role("cell").last).to_have_text("Waiting for payment")

    # The dialog's way out is not another "Cancel" beside the row's "Cancel booking".
    table.get_by_role("button", name=f"Reassign booking #{booking.id}").click()
    dialog = page.get_by_role("dialog", name="Reassign Booking")
    expect(dialog.get_by_role("button", name="Cancel", exact=True)).to_have_count(0)
    dialog.get_by_role("button", name="Keep as is").click()
    expect(page.get_by_role("dialog")).to_have_count(0)

    table.get_by_role("button", name=f"Reassign booking #{booking.id}").click()
    dialog = page.get_by_role("dialog", name="Reassign Booking")
    submit = dialog.get_by_role("button", name="Reassign Booking")
    expect(submit).to_be_disabled()
    select = dialog.get_by_label("New provider")
    # The dialog asks the server for the verified providers when it opens.
    expect(select.locator("option", has_text="Tom Target")).to_have_count(1)
    options = select.locator("option").all_inner_texts()
    assert "Tom Target - Technology Support, Light Errands" in options
    assert not any("Penny" in o for o in options)  # verified providers only
    assert not any("Cora" in o for o in options)  # not the current one
    select.select_option(label="Tom Target - Technology Support, Light Errands")
    dialog.get_by_label("Reason for reassignment").fill("Cora is unwell this week.")
    expect(submit).to_be_enabled()
    submit.click()

    expect(toast(page)).to_contain_text("Booking reassigned successfully")
    expect(page.get_by_role("dialog")).to_have_count(0)
    booking.refresh_from_db()
    assert booking.provider == target
    expect(page.get_by_test_id("admin-booking").filter(has_text=f"#{booking.id}")).to_contain_text("Tom Target")


def test_admin_cancels_a_confirmed_booking_with_a_reason(live_server, page: Page, admin_user, verified_provider):
    booking = confirmed_booking(verified_provider)
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Bookings").click()

    page.get_by_role("button", name=f"Cancel booking #{booking.id}").click()
    dialog = page.get_by_role("dialog", name="Cancel Booking")
    expect(dialog).to_contain_text("Are you sure you want to cancel this booking? This action cannot be undone.")
    submit = dialog.get_by_role("button", name="Cancel Booking")
    expect(submit).to_be_disabled()
    dialog.get_by_label("Cancellation reason").fill("   ")
    expect(submit).to_be_disabled()
    dialog.get_by_role("button", name="Keep Booking").click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED

    page.get_by_role("button", name=f"Cancel booking #{booking.id}").click()
    dialog = page.get_by_role("dialog", name="Cancel Booking")
    dialog.get_by_label("Cancellation reason").fill("The client moved to another city.")
    dialog.get_by_role("button", name="Cancel Booking").click()

    expect(toast(page)).to_contain_text("Booking cancelled successfully")
    expect(page.get_by_role("dialog")).to_have_count(0)
    row = page.get_by_test_id("admin-booking").filter(has_text=f"#{booking.id}")
    expect(row).to_contain_text("Cancelled")
    expect(page.get_by_test_id("count-Cancelled")).to_contain_text("1")
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CANCELLED
    assert booking.cancellation_reason == "The client moved to another city."
    assert booking.cancelled_by == admin_user


def test_requests_tab_lists_every_request(live_server, page: Page, admin_user, client_user):
    ServiceRequestFactory(client=client_user, description="Please help me set up my new phone and email.")
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Service Requests").click()
    expect(page.get_by_test_id("count-Total Requests")).to_contain_text("1")
    expect(page.get_by_test_id("count-Open Requests")).to_contain_text("1")
    row = page.get_by_test_id("admin-request")
    expect(row).to_contain_text("Technology Support")
    expect(row).to_contain_text("Please help me set up")
    expect(row).to_contain_text(client_user.first_name)


def test_an_expired_session_on_an_admin_action_says_so_and_goes_home(live_server, page: Page, admin_user):
    pending = ProviderFactory(user__first_name="Sam", user__last_name="Late")
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    expect(page.get_by_role("button", name="Approve Sam Late")).to_be_visible()
    page.context.clear_cookies()  # the session is gone

    page.get_by_role("button", name="Approve Sam Late").click()
    page.get_by_role("dialog", name="Approve Sam Late?").get_by_role("button", name="Approve", exact=True).click()
    expect(toast(page)).to_contain_text("Session expired. Please login again.")
    expect(page).to_have_url(f"{live_server.url}/")
    pending.refresh_from_db()
    assert pending.verification_status == VerificationStatus.PENDING


def test_missing_people_show_client_and_provider_not_found(live_server, page: Page, admin_user, verified_provider):
    """Real data always has both people (protected foreign keys); the answer is edited in flight to
    check the page's fallback texts for a record whose person is gone."""
    booking = confirmed_booking(verified_provider)

    def without_people(route):
        response = route.fetch()
        rows = response.json()
        for row in rows:
            row["client"] = None
            row["provider"] = None
        route.fulfill(response=response, json=rows)

    page.route("**/api/admin/bookings?*", without_people)
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Bookings").click()
    row = page.get_by_test_id("admin-booking").filter(has_text=f"#{booking.id}")
    expect(row).to_contain_text("Client not found")
    expect(row).to_contain_text("Provider not found")


def test_a_request_its_client_deleted_stays_in_the_requests_tab_as_deleted(
    live_server, page: Page, admin_user, client_user
):
    gone = ServiceRequestFactory(client=client_user, title="Garden help", description="Rake the leaves, please.")
    service_request_delete(service_request_id=gone.pk, actor=client_user)
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Service Requests").click()

    row = page.get_by_test_id("admin-request").filter(has_text=f"#{gone.pk}")
    expect(row).to_contain_text("Rake the leaves")
    expect(row.get_by_test_id("status-badge")).to_have_text("Deleted by client")
    page.get_by_label("Status").select_option(label="Deleted by client")
    expect(page.get_by_test_id("admin-request")).to_have_count(1)
