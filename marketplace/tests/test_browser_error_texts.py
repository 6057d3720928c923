"""What people see when an API call fails: the spec's texts, our API's own
{"message"}, or a calm "Something went wrong on our side. Please try again." - never the raw
answer (a debug page, a traceback, a field dump), which goes to the browser console instead."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.models import User, UserType
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CALM = "Something went wrong on our side. Please try again."


@pytest.fixture
def crashing_api(settings):
    """The server as under `make run` (DEBUG on: Django answers a crash with its debug page),
    with /api/providers, /api/auth/user-type and /api/bookings/<id>/cancel crashing in their view."""
    settings.DEBUG = True
    settings.ROOT_URLCONF = "marketplace.tests.broken_api_urls"


def _console_errors(page: Page) -> list[str]:
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    return errors


def test_a_crash_behind_the_provider_list_reads_calm_and_the_detail_goes_to_the_console(
    live_server, page: Page, crashing_api, client_user
):
    errors = _console_errors(page)
    sign_in_browser(page, live_server.url, client_user)

    page.goto(f"{live_server.url}/providers")

    expect(page.get_by_role("heading", name="No Providers Found")).to_be_visible()
    expect(page.get_by_text(f"We couldn't load providers right now: {CALM}")).to_be_visible()
    body = page.locator("main").inner_text()
    for raw in ("500", "Traceback", "SimulatedBug", "NotSupportedError"):
        assert raw not in body
    assert any("/api/providers" in e and "500" in e and "SimulatedBug" in e for e in errors), errors


def test_a_crash_on_switch_user_type_toasts_calm_text(live_server, page: Page, crashing_api, client_user):
    errors = _console_errors(page)
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")

    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Switch to Provider").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Error")
    expect(toast).to_contain_text(f"Failed to switch user type: {CALM}")
    for raw in ("Server error", "500", "Traceback", "SimulatedBug", "<"):
        expect(toast).not_to_contain_text(raw)
    assert any("/api/auth/user-type" in e and "SimulatedBug" in e for e in errors), errors
    assert User.objects.get(pk=client_user.pk).user_type == UserType.CLIENT


def test_a_page_older_than_its_session_says_reload_instead_of_the_csrf_text(live_server, page: Page, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    # As after signing in again in another tab: the token this page holds no longer matches.
    page.evaluate("document.querySelector('meta[name=\"csrf-token\"]').content = 'stale-token-from-an-old-page'")

    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Switch to Provider").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text(
        "Failed to switch user type: This page is out of date. Please reload it and try again."
    )
    expect(toast).not_to_contain_text("CSRF")
    assert User.objects.get(pk=client_user.pk).user_type == UserType.CLIENT


def test_a_crash_on_cancel_shows_the_spec_default_text(live_server, page: Page, crashing_api, client_user):
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=7),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")

    page.get_by_role("button", name="Cancel Booking").click()
    page.get_by_role("dialog").get_by_role("button", name="Cancel Booking").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Cancellation Failed")
    expect(toast).to_contain_text("Failed to cancel booking")
    for raw in ("500", "Traceback", "SimulatedBug"):
        expect(toast).not_to_contain_text(raw)
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED
