"""axe-core on the states of the dashboard, request, provider-signup and browse pages that a plain
page load does not reach: open dialogs, forms showing their errors, empty results, 320 px wide."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def check(page: Page, where: str, problems: list[str]) -> None:
    found = axe_violations(page)
    if found:
        problems.append(f"{where}:\n{format_violations(found)}")


def test_dashboard_dialogs_have_no_violations(live_server, page: Page, client_user):
    BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=9),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=2),
        status=BookingStatus.COMPLETED,
        payment_status=PaymentStatus.PAID,
    )
    BookingFactory(
        service_request__client=client_user, service_request__preferred_date=timezone.localdate() + dt.timedelta(days=1)
    )
    sign_in_browser(page, live_server.url, client_user)
    problems: list[str] = []
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")
    expect(page.get_by_test_id("booking-item")).to_have_count(3)
    check(page, "dashboard", problems)

    page.get_by_role("button", name="Cancel Booking").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    check(page, "cancel dialog", problems)
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)

    page.get_by_role("button", name="Leave a Review").click()
    dialog = page.get_by_role("dialog")
    dialog.get_by_role("button", name="Submit Review").click()
    expect(dialog.get_by_test_id("review-rating-error")).not_to_be_empty()
    check(page, "review dialog with its error", problems)
    assert problems == [], "\n\n".join(problems)


def test_forms_showing_errors_have_no_violations(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    problems: list[str] = []
    page.goto(f"{live_server.url}/request-service", wait_until="networkidle")
    page.get_by_role("button", name="Submit Request").click()
    expect(page.get_by_test_id("request-title-error")).not_to_be_empty()
    check(page, "/request-service with errors", problems)

    page.goto(f"{live_server.url}/provider-signup", wait_until="networkidle")
    page.get_by_role("button", name="Submit Application").click()
    expect(page.get_by_test_id("provider-phone-error")).not_to_be_empty()
    check(page, "/provider-signup with errors", problems)
    assert problems == [], "\n\n".join(problems)


def test_browse_results_and_empty_state_have_no_violations(live_server, page: Page, client_user):
    VerifiedProviderFactory(rating=Decimal("4.5"), total_reviews=2)
    sign_in_browser(page, live_server.url, client_user)
    problems: list[str] = []
    page.goto(f"{live_server.url}/providers", wait_until="networkidle")
    expect(page.get_by_test_id("provider-card")).to_have_count(1)
    check(page, "/providers with results", problems)
    page.get_by_label("Search providers").fill("nothing matches this")
    expect(page.get_by_role("heading", name="No Providers Found")).to_be_visible()
    check(page, "/providers empty", problems)
    assert problems == [], "\n\n".join(problems)


@pytest.mark.parametrize("path", ["/dashboard", "/request-service", "/provider-signup", "/providers"])
def test_pages_fit_a_320px_wide_screen(live_server, page: Page, client_user, path):
    sign_in_browser(page, live_server.url, client_user)
    page.set_viewport_size({"width": 320, "height": 700})
    page.goto(f"{live_server.url}{path}", wait_until="networkidle")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 0, f"{path} scrolls sideways by {overflow}px at 320px"
