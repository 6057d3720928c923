"""Staff vetting in Chromium: Approve and Reject ask first, a rejected applicant
can be approved later, the card shows phone and experience, admins wear an Admin badge and land
on /admin with a summary of pending applications and today's bookings."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from adminpanel.models import AuditLog
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.vetting import with_evidence
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _open_admin(page: Page, base: str, admin) -> None:
    sign_in_browser(page, base, admin)
    page.goto(f"{base}/admin")


def test_approve_asks_first_and_keep_reviewing_changes_nothing(live_server, page: Page, admin_user):
    pat = with_evidence(ProviderFactory(user__first_name="Pat", user__last_name="Pending"))
    _open_admin(page, live_server.url, admin_user)

    page.get_by_role("button", name="Approve Pat Pending").click()
    dialog = page.get_by_role("dialog", name="Approve Pat Pending?")
    expect(dialog).to_contain_text("they can see open requests, with the town and ZIP of each")
    dialog.get_by_role("button", name="Keep Reviewing").click()
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.get_by_role("button", name="Approve Pat Pending")).to_be_focused()  # focus comes back
    pat.refresh_from_db()
    assert pat.verification_status == VerificationStatus.PENDING

    page.keyboard.press("Enter")  # the keyboard opens it again
    dialog = page.get_by_role("dialog", name="Approve Pat Pending?")
    dialog.get_by_label("Note for the audit log (optional)").fill("ID and references checked.")
    dialog.get_by_role("button", name="Approve", exact=True).click()

    expect(page.get_by_test_id("toast")).to_contain_text("Provider status updated successfully")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(page.get_by_test_id("group-verified-providers")).to_contain_text("Pat Pending")
    pat.refresh_from_db()
    assert pat.verification_status == VerificationStatus.VERIFIED
    assert AuditLog.objects.get().reason == "ID and references checked."


def test_a_rejected_applicant_is_approved_later_from_the_rejected_list(live_server, page: Page, admin_user):
    ned = with_evidence(ProviderFactory(user__first_name="Ned", user__last_name="New"))
    _open_admin(page, live_server.url, admin_user)

    page.get_by_role("button", name="Reject Ned New").click()
    dialog = page.get_by_role("dialog", name="Reject Ned New?")
    expect(dialog).to_contain_text("You can still approve them later from Rejected Providers.")
    dialog.get_by_role("button", name="Reject", exact=True).click()
    rejected = page.get_by_test_id("group-rejected-providers")
    expect(rejected).to_contain_text("Ned New")
    ned.refresh_from_db()
    assert ned.verification_status == VerificationStatus.REJECTED

    expect(rejected.get_by_role("button", name="Reject Ned New")).to_have_count(0)  # rejected once is enough
    rejected.get_by_role("button", name="Approve Ned New").click()
    dialog = page.get_by_role("dialog", name="Approve Ned New?")
    expect(dialog).to_contain_text("Ned New was rejected before.")
    dialog.get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_test_id("group-verified-providers")).to_contain_text("Ned New")
    expect(page.get_by_test_id("group-verified-providers").get_by_role("button")).to_have_count(0)
    ned.refresh_from_db()
    assert ned.verification_status == VerificationStatus.VERIFIED
    assert [(log.details["from"], log.details["to"]) for log in AuditLog.objects.order_by("id")] == [
        ("pending", "rejected"),
        ("rejected", "verified"),
    ]


def test_the_applicant_card_shows_phone_and_experience(live_server, page: Page, admin_user):
    ProviderFactory(
        user__first_name="Ann",
        user__last_name="Applicant",
        phone="(555) 010-7788",
        experience="Nine years as a home health aide in Springfield.",
    )
    _open_admin(page, live_server.url, admin_user)
    card = page.get_by_test_id("admin-provider").filter(has_text="Ann Applicant")
    phone = card.get_by_role("link", name="(555) 010-7788")
    expect(phone).to_have_attribute("href", "tel:5550107788")
    expect(card.get_by_test_id("admin-provider-experience")).to_contain_text(
        "Nine years as a home health aide in Springfield."
    )


def test_no_axe_violations_on_admin_with_the_confirmation_dialog_open(live_server, page: Page, admin_user):
    ProviderFactory(user__first_name="Pat", user__last_name="Pending")
    ProviderFactory(
        user__first_name="Rita", user__last_name="Rejected", verification_status=VerificationStatus.REJECTED
    )
    _open_admin(page, live_server.url, admin_user)
    expect(page.get_by_test_id("summary-pending-count")).to_have_text("1")
    problems = []
    for button in ("Approve Pat Pending", "Reject Pat Pending", "Approve Rita Rejected"):
        page.get_by_role("button", name=button).click()
        expect(page.get_by_role("dialog")).to_be_visible()
        found = axe_violations(page)
        if found:
            problems.append(f"{button} dialog:\n{format_violations(found)}")
        page.keyboard.press("Escape")
        expect(page.get_by_role("dialog")).to_have_count(0)
    found = axe_violations(page)
    if found:
        problems.append(f"/admin with the summary:\n{format_violations(found)}")
    assert problems == [], "\n\n".join(problems)


def test_an_admin_wears_an_admin_badge_and_lands_on_the_admin_summary(live_server, page: Page, admin_user):
    vera = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Helper")
    with_evidence(ProviderFactory(user__first_name="Pia", user__last_name="One"))
    ProviderFactory(user__first_name="Pim", user__last_name="Two")
    ProviderFactory(user__first_name="Rex", user__last_name="Rejected", verification_status=VerificationStatus.REJECTED)
    today = timezone.localdate()

    def booking(title, day, time, status=BookingStatus.CONFIRMED):
        request = ServiceRequestFactory(
            title=title, status=RequestStatus.BOOKED, client__first_name="Clara", client__last_name=title.split()[0]
        )
        return BookingFactory(
            service_request=request,
            provider=vera,
            scheduled_date=day,
            scheduled_time=time,
            status=status,
            payment_status=PaymentStatus.PAID if status == BookingStatus.CONFIRMED else PaymentStatus.PENDING,
        )

    evening = booking("Evening visit", today, "evening")
    morning = booking("Morning visit", today, "morning", status=BookingStatus.SCHEDULED)
    booking("Tomorrow visit", today + dt.timedelta(days=1), "morning")
    booking("Cancelled visit", today, "afternoon", status=BookingStatus.CANCELLED)

    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/")
    expect(page).to_have_url(f"{live_server.url}/admin")
    badge = page.get_by_test_id("usermenu-trigger").get_by_test_id("usermenu-badge")
    expect(badge).to_have_text("Admin")

    summary = page.get_by_test_id("admin-summary")
    expect(summary.get_by_role("heading", name="Today at a glance")).to_be_visible()
    expect(page.get_by_test_id("summary-pending-count")).to_have_text("2")
    expect(page.get_by_test_id("summary-pending")).to_contain_text("2 applications are waiting for a review.")
    rows = page.get_by_test_id("summary-booking")
    expect(rows).to_have_count(2)  # not tomorrow's, not the cancelled one
    expect(rows.nth(0)).to_contain_text(f"booking #{morning.id}")  # the morning first
    expect(rows.nth(0)).to_contain_text("Morning (8AM - 12PM)")
    expect(rows.nth(0)).to_contain_text("Scheduled")
    expect(rows.nth(1)).to_contain_text(f"booking #{evening.id}")
    expect(rows.nth(1)).to_contain_text("Clara Evening with Vera Helper")

    # From another tab, the summary's link opens the Providers tab at the pending list.
    page.get_by_role("tab", name="Bookings").click()
    page.get_by_role("link", name="Review pending applications").click()
    expect(page.get_by_role("tab", name="Providers")).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("heading", name="Pending Approval")).to_be_focused()

    # Approving one updates the summary's count.
    page.get_by_role("button", name="Approve Pia One").click()
    page.get_by_role("dialog", name="Approve Pia One?").get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_test_id("summary-pending-count")).to_have_text("1")
    expect(page.get_by_test_id("summary-pending")).to_contain_text("1 application is waiting for a review.")


def test_an_admin_with_nothing_waiting_sees_calm_empty_states(live_server, page: Page, admin_user):
    _open_admin(page, live_server.url, admin_user)
    expect(page.get_by_test_id("summary-pending-count")).to_have_text("0")
    expect(page.get_by_test_id("summary-pending")).to_contain_text("No application is waiting for a review.")
    expect(page.get_by_role("link", name="Review pending applications")).to_have_count(0)
    expect(page.get_by_test_id("summary-today")).to_contain_text("No bookings today.")


@pytest.mark.parametrize(("who", "badge"), [("client_user", "Client"), ("provider_user", "Provider")])
def test_everyone_else_keeps_their_badge(live_server, page: Page, request, who, badge):
    sign_in_browser(page, live_server.url, request.getfixturevalue(who))
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("usermenu-trigger").get_by_test_id("usermenu-badge")).to_have_text(badge)
