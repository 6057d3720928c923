"""A session lost while a page is open: the next call the page makes answers 401,
and every page says so the same way (spec section 8): one toast "Unauthorized" / "You are logged
out. Logging in again...", then the sign-in page after 0.5 s. The session is ended on the server,
as signing out in another tab does, so the page still holds its (now dead) cookie."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.conf import settings
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOGGED_OUT = "You are logged out. Logging in again..."


# Every toast event and every toast shown, kept in sessionStorage so they outlive the redirect to
# /login (the toast lives only 0.5 s before it: a check that polls the page can miss it under load).
RECORD_TOASTS = """
const keep = (key, value) => {
  const list = JSON.parse(sessionStorage.getItem(key) || "[]");
  list.push(value);
  sessionStorage.setItem(key, JSON.stringify(list));
};
window.addEventListener("kindly:toast", (e) => keep("__toasts", e.detail));
new MutationObserver(() => {
  document.querySelectorAll('[data-testid="toast"]:not([data-recorded])').forEach((el) => {
    el.setAttribute("data-recorded", "");
    keep("__shown", el.innerText);
  });
}).observe(document, { childList: true, subtree: true });
"""


def open_signed_in(page: Page, live_server, user, path: str) -> None:
    """Open `path` signed in as `user`, recording every toast the page sends and shows."""
    sign_in_browser(page, live_server.url, user)
    page.add_init_script(RECORD_TOASTS)
    page.goto(f"{live_server.url}{path}")


def end_session_elsewhere(page: Page) -> None:
    """Sign out in another tab: the server forgets the session; this page keeps its cookie."""
    (cookie,) = [c for c in page.context.cookies() if c["name"] == settings.SESSION_COOKIE_NAME]
    deleted, _ = Session.objects.filter(session_key=cookie["value"]).delete()
    assert deleted == 1


def expect_one_toast_then_sign_in(page: Page, live_server) -> None:
    page.wait_for_url(re.compile(rf"^{re.escape(live_server.url)}/login"), timeout=10000)
    # One toast, however many calls found the session gone, and no "failed" toast besides; it
    # was on the screen before the redirect.
    assert page.evaluate("JSON.parse(sessionStorage.getItem('__toasts') || '[]')") == [
        {"title": "Unauthorized", "description": LOGGED_OUT, "variant": "destructive"}
    ]
    (shown,) = page.evaluate("JSON.parse(sessionStorage.getItem('__shown') || '[]')")
    assert "Unauthorized" in shown and LOGGED_OUT in shown


def test_admin(live_server, page: Page, admin_user):
    open_signed_in(page, live_server, admin_user, "/admin")
    expect(page.get_by_role("heading", name="Pending Approval")).to_be_visible()
    end_session_elsewhere(page)
    # A search asks the server for the three provider lists at once: three 401s, one toast.
    page.get_by_label("Search providers").fill("vera")
    expect_one_toast_then_sign_in(page, live_server)


def test_messages(live_server, page: Page, client_user, verified_provider):
    BookingFactory(service_request__client=client_user, provider=verified_provider)
    open_signed_in(page, live_server, client_user, f"/messages?with={verified_provider.user.pk}")
    composer = page.get_by_label(re.compile("Message to"))
    expect(composer).to_be_visible()
    end_session_elsewhere(page)
    composer.fill("Are you there?")
    page.get_by_role("button", name="Send").click()
    expect_one_toast_then_sign_in(page, live_server)


def test_checkout(live_server, page: Page, client_user, verified_provider, settings):
    settings.PAYMENTS_BACKEND = "test"
    booking = BookingFactory(service_request__client=client_user, provider=verified_provider)
    open_signed_in(page, live_server, client_user, f"/checkout/{booking.pk}")
    expect(page.get_by_label("Card number")).to_be_visible()
    end_session_elsewhere(page)
    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Expiry date").fill("12/40")
    page.get_by_label("Security code (CVC)").fill("123")
    page.get_by_role("button", name=re.compile(r"^Pay \$")).click()
    expect_one_toast_then_sign_in(page, live_server)


def test_care_circle(live_server, page: Page, client_user):
    open_signed_in(page, live_server, client_user, "/care-circle")
    end_session_elsewhere(page)
    page.get_by_label("First name").fill("Rose")
    page.get_by_role("button", name="Add to my care circles").click()
    expect_one_toast_then_sign_in(page, live_server)


def test_schedule(live_server, page: Page, verified_provider):
    open_signed_in(page, live_server, verified_provider.user, "/schedule")
    expect(page.get_by_role("button", name="Save weekly hours")).to_be_visible()
    end_session_elsewhere(page)
    page.get_by_role("button", name="Save weekly hours").click()
    expect_one_toast_then_sign_in(page, live_server)


def test_settings(live_server, page: Page, client_user):
    open_signed_in(page, live_server, client_user, "/settings")
    reminders = page.get_by_role("group", name="Visit reminders, 24 hours before")
    expect(reminders).to_be_visible()
    end_session_elsewhere(page)
    reminders.get_by_role("checkbox", name="Email").click()  # put back when the save fails
    expect_one_toast_then_sign_in(page, live_server)


def test_user_menu(live_server, page: Page, client_user):
    open_signed_in(page, live_server, client_user, "/care-circle")
    end_session_elsewhere(page)
    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Switch to Provider").click()
    expect_one_toast_then_sign_in(page, live_server)


def test_dashboard(live_server, page: Page, client_user):
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=7),
        status=BookingStatus.SCHEDULED,
    )
    open_signed_in(page, live_server, client_user, "/dashboard")
    page.get_by_role("button", name="Cancel Booking").click()
    end_session_elsewhere(page)
    page.get_by_role("dialog").get_by_role("button", name="Cancel Booking").click()
    expect_one_toast_then_sign_in(page, live_server)
    booking.refresh_from_db()
    assert booking.status == BookingStatus.SCHEDULED


def test_service_request_details(live_server, page: Page, verified_provider):
    request = ServiceRequestFactory(title="Tablet lessons")
    open_signed_in(page, live_server, verified_provider.user, f"/service-request-details?id={request.pk}")
    accept = page.get_by_role("button", name="Accept Request")
    expect(accept).to_be_visible()
    end_session_elsewhere(page)
    accept.click()
    expect_one_toast_then_sign_in(page, live_server)
    request.refresh_from_db()
    assert request.status == "open"


def test_providers(live_server, page: Page, client_user, verified_provider):
    open_signed_in(page, live_server, client_user, "/providers")
    expect(page.get_by_test_id("provider-card")).to_have_count(1)
    end_session_elsewhere(page)
    # Browsing is open to anyone (GET /api/providers answers without a session): a search still
    # works and says nothing about the session.
    page.get_by_label("Search providers").fill("nobody-has-this")
    expect(page.get_by_text("No Providers Found")).to_be_visible()
    assert page.evaluate("sessionStorage.getItem('__toasts')") is None
    # The page's first call that needs the session finds it gone: the one toast, then sign in.
    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Switch to Provider").click()
    expect_one_toast_then_sign_in(page, live_server)
