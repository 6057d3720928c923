"""axe-core sweep: zero WCAG 2.x A/AA violations on every page, signed out and
signed in as a client, a provider (verified and pending) and an admin, including open dialogs."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def world(client_user, verified_provider, provider_user, admin_user):
    open_request = ServiceRequestFactory(client=client_user, title="Set up my new tablet")
    booked = ServiceRequestFactory(client=client_user, title="Weekly wellness visit")
    booking = BookingFactory(
        service_request=booked,
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=10),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    unpaid = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Grocery run"),
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=12),
    )
    return {
        "client": client_user,
        "provider": verified_provider.user,
        "pending": provider_user,
        "admin": admin_user,
        "open": open_request,
        "booking": booking,
        "unpaid": unpaid,
    }


def _sweep(page: Page, base: str, paths: list[str]) -> str:
    """Visit each path, let its island settle, and collect every violation (one report for all)."""
    problems = []
    for path in paths:
        page.goto(base + path, wait_until="networkidle")
        violations = axe_violations(page)
        if violations:
            problems.append(f"{path} (landed on {page.url}):\n{format_violations(violations)}")
    return "\n\n".join(problems)


def test_no_violations_signed_out(live_server, page: Page, world):
    report = _sweep(
        page,
        live_server.url,
        [
            "/",
            "/landing",
            "/login",
            "/providers",
            "/privacy-policy",
            "/privacy-policy.html",
            "/terms-of-service.html",
            "/no-such-page",
        ],
    )
    assert report == ""


def test_no_violations_signed_in_as_client(live_server, page: Page, world):
    sign_in_browser(page, live_server.url, world["client"])
    report = _sweep(
        page,
        live_server.url,
        [
            "/",
            "/dashboard",
            "/landing",
            "/request-service",
            "/provider-signup",
            "/providers",
            "/messages",
            f"/service-request-details?id={world['open'].id}",
            "/service-request-details",
            "/service-request-details?id=999999",
            f"/edit-service-request?id={world['open'].id}",
            "/edit-service-request?id=999999",
            f"/checkout/{world['unpaid'].id}",
            f"/checkout/{world['booking'].id}",
            "/calendar",
            "/schedule",
            "/care-circle",
            "/privacy-policy",
            "/no-such-page",
        ],
    )
    # The edit page's delete confirmation dialog, open.
    page.goto(f"{live_server.url}/edit-service-request?id={world['open'].id}", wait_until="networkidle")
    page.get_by_role("button", name="Delete Request").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    dialog = axe_violations(page)
    assert report == "" and dialog == [], report + "\n\ndelete dialog:\n" + format_violations(dialog)


def test_no_violations_signed_in_as_provider(live_server, page: Page, world):
    sign_in_browser(page, live_server.url, world["provider"])
    report = _sweep(
        page,
        live_server.url,
        [
            "/",
            f"/service-request-details?id={world['open'].id}",
            f"/service-request-details?id={world['booking'].service_request_id}",
            "/provider-signup",
            "/providers",
            "/messages",
            "/request-service",
            "/calendar",
            "/schedule",
            "/care-circle",
        ],
    )
    assert report == ""


def test_no_violations_signed_in_as_pending_provider(live_server, page: Page, world):
    sign_in_browser(page, live_server.url, world["pending"])
    report = _sweep(page, live_server.url, ["/", "/provider-signup", f"/service-request-details?id={world['open'].id}"])
    assert report == ""


def test_no_violations_signed_in_as_admin(live_server, page: Page, world):
    sign_in_browser(page, live_server.url, world["admin"])
    report = _sweep(page, live_server.url, ["/", "/admin", "/messages", "/providers", "/calendar", "/care-circle"])
    problems = [report] if report else []

    page.goto(f"{live_server.url}/admin", wait_until="networkidle")
    for tab in ("Bookings", "Service Requests", "Providers"):
        page.get_by_role("tab", name=tab).click()
        found = axe_violations(page)
        if found:
            problems.append(f"/admin tab {tab}:\n{format_violations(found)}")
    page.get_by_role("tab", name="Bookings").click()
    for button, close in (("Reassign", "Keep as is"), ("Cancel", "Keep Booking")):
        page.get_by_role("button", name=f"{button} booking #{world['booking'].id}").click()
        expect(page.get_by_role("dialog")).to_be_visible()
        found = axe_violations(page)
        if found:
            problems.append(f"/admin {button} dialog:\n{format_violations(found)}")
        page.get_by_role("dialog").get_by_role("button", name=close, exact=True).click()
        expect(page.get_by_role("dialog")).to_have_count(0)
    assert problems == [], "\n\n".join(problems)


_LAYOUT_PROBLEMS = """() => {
  const problems = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > doc.clientWidth + 1) {
    problems.push(`page scrolls sideways: ${doc.scrollWidth}px > ${doc.clientWidth}px`);
  }
  const controls = document.querySelectorAll(
    "button, a.button, input:not([type=checkbox]):not([type=radio]):not([type=hidden]), select, textarea, [role=tab]"
  );
  for (const el of controls) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;  // not shown
    if (el.closest("[aria-hidden=true], .visually-hidden, .skip-link")) continue;
    if (r.height < 44 || r.width < 44) {
      problems.push(`${el.outerHTML.slice(0, 90)} is ${Math.round(r.width)}x${Math.round(r.height)}`);
    }
  }
  return problems;
}"""


def test_screens2_pages_reflow_at_320px_with_44px_targets(live_server, page: Page, world):
    """Spec audience: holds at 320 px wide (WCAG reflow, same as 400% zoom of 1280 px) and every
    control stays a 44 px target."""
    page.set_viewport_size({"width": 320, "height": 720})
    problems: dict[str, list[str]] = {}

    def check(label: str) -> None:
        found = page.evaluate(_LAYOUT_PROBLEMS)
        if found:
            problems[label] = found

    for path in ["/landing", "/privacy-policy", "/terms-of-service.html", "/no-such-page"]:
        page.goto(live_server.url + path, wait_until="networkidle")
        check(path)

    sign_in_browser(page, live_server.url, world["client"])
    for path in [
        f"/edit-service-request?id={world['open'].id}",
        f"/service-request-details?id={world['open'].id}",
        "/calendar",
    ]:
        page.goto(live_server.url + path, wait_until="networkidle")
        check(path)

    sign_in_browser(page, live_server.url, world["provider"])
    page.goto(f"{live_server.url}/service-request-details?id={world['open'].id}", wait_until="networkidle")
    expect(page.get_by_role("button", name="Accept Request")).to_be_visible()
    check("details as provider")
    page.goto(f"{live_server.url}/schedule", wait_until="networkidle")
    page.get_by_role("button", name="Add hours on Monday").click()
    check("/schedule")

    sign_in_browser(page, live_server.url, world["admin"])
    page.goto(f"{live_server.url}/admin", wait_until="networkidle")
    for tab in ("Providers", "Bookings", "Service Requests"):
        page.get_by_role("tab", name=tab).click()
        check(f"/admin {tab}")
    page.get_by_role("tab", name="Bookings").click()
    page.get_by_role("button", name=f"Cancel booking #{world['booking'].id}").click()
    check("/admin cancel dialog")
    assert problems == {}


def test_admin_tabs_work_from_the_keyboard(live_server, page: Page, world):
    sign_in_browser(page, live_server.url, world["admin"])
    page.goto(f"{live_server.url}/admin", wait_until="networkidle")
    providers_tab = page.get_by_role("tab", name="Providers")
    providers_tab.focus()
    expect(providers_tab).to_have_attribute("aria-selected", "true")
    page.keyboard.press("ArrowRight")
    expect(page.get_by_role("tab", name="Vetting")).to_be_focused()
    page.keyboard.press("ArrowRight")
    bookings_tab = page.get_by_role("tab", name="Bookings")
    expect(bookings_tab).to_be_focused()
    expect(bookings_tab).to_have_attribute("aria-selected", "true")
    expect(page.get_by_role("tabpanel")).to_contain_text("All Bookings")
    reassign = page.get_by_role("button", name=f"Reassign booking #{world['booking'].id}")
    expect(reassign).to_be_visible()  # the bookings have loaded: the table is there to Tab through
    # Tab moves to the panel, the search box and the status filter, then the scrollable table
    # region, then the first Reassign button, which opens its dialog with Enter.
    page.keyboard.press("Tab")
    expect(page.get_by_role("tabpanel")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Search bookings")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_label("Status")).to_be_focused()
    page.keyboard.press("Tab")
    expect(page.get_by_role("region", name="All Bookings")).to_be_focused()
    page.keyboard.press("Tab")
    expect(reassign).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.get_by_role("dialog", name="Reassign Booking")).to_be_visible()
    expect(page.get_by_label("New provider")).to_be_focused()
    page.keyboard.press("Escape")
    expect(page.get_by_role("dialog")).to_have_count(0)
    expect(reassign).to_be_focused()
