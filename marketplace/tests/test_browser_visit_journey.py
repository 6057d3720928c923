"""The visit itself in Chromium: on the day of a visit the provider checks in
and out with the keyboard alone and writes the report; a member of the care circle watches the
booking change live ("Checked in at", "Visit report ready") and reads the report; the admins'
Today tab shows the visit done; axe finds nothing on the new screens.

Real pieces only: Daphne (HTTP and websockets) on the test database in PostgreSQL, Redis, Chromium.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus, VisitReport
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.live import DaphneServer
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import TimeWindow

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]

LIVE = 15_000  # ms: a websocket event and the dashboard's refresh under a loaded CI machine


def _zone_where_the_morning_visit_has_started() -> str:
    """A fixed-offset zone whose clock reads 8:xx now: a morning visit (8 AM) of today has just
    started there, so it can be checked in whatever the real time of the run."""
    hour = timezone.now().astimezone(dt.UTC).hour
    offset = (8 - hour) % 24
    if offset > 14:
        offset -= 24
    return "Etc/GMT" if offset == 0 else f"Etc/GMT{-offset:+d}"  # Etc/GMT-3 is UTC+3


@pytest.fixture
def zone(settings) -> str:
    zone = _zone_where_the_morning_visit_has_started()
    settings.TIME_ZONE = settings.SITE_TIME_ZONE = zone
    return zone


@pytest.fixture
def server(zone, transactional_db, daphne_servers):
    """Daphne in the same site zone as this test (its own process reads it from the environment)."""
    daphne = daphne_servers({"SITE_TIME_ZONE": zone})
    yield daphne
    sys.stdout.write(daphne.output())  # pytest shows it when the test failed


@pytest.fixture
def visit(zone):
    provider = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Helper")
    booking = BookingFactory(
        provider=provider,
        service_request__title="Weekly wellness check",
        service_request__category__slug="wellness-checks",
        service_request__category__name="Wellness Checks",
        service_request__preferred_date=timezone.localdate(),
        service_request__preferred_time=TimeWindow.MORNING,
        service_request__estimated_duration=120,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        total_amount=Decimal("60.00"),
    )
    assert booking.starts_at <= timezone.now() + dt.timedelta(minutes=30)
    brother = UserFactory(first_name="Tom", last_name="Member")
    CircleMember.objects.create(recipient=booking.recipient, user=brother, role=CircleRole.MEMBER)
    return booking, brother


def _page(browser: Browser) -> Page:
    return browser.new_context(viewport={"width": 375, "height": 900}).new_page()


def _dashboard(page: Page, base: str) -> None:
    page.goto(f"{base}/dashboard")
    # Live from here on: the page's websocket is open.
    expect(page.locator('[data-island="dashboard"]')).to_have_attribute("data-connected", "true", timeout=LIVE)


def test_the_provider_checks_in_and_out_with_the_keyboard_and_the_circle_sees_it_live(
    server: DaphneServer, browser: Browser, visit, admin_user
):
    booking, brother = visit
    base = server.url
    family, helper, admin = _page(browser), _page(browser), _page(browser)
    try:
        sign_in_browser(family, base, brother)
        _dashboard(family, base)
        family_item = family.get_by_test_id("booking-item").filter(has_text="Weekly wellness check")
        expect(family_item).to_be_visible()
        # A member sees the visit, but paying and cancelling are the organizers'.
        expect(family_item.get_by_role("button", name="Cancel Booking")).to_have_count(0)
        # Begun, not checked in, still inside the window the family was told: calm, no alarm.
        expect(family_item.get_by_text(re.compile(r"^The helper may arrive any time until 10:00 AM"))).to_be_visible()
        expect(family_item.get_by_text(re.compile(r"Late"))).to_have_count(0)

        sign_in_browser(helper, base, booking.provider.user)
        _dashboard(helper, base)
        item = helper.get_by_test_id("booking-item").filter(has_text="Weekly wellness check")
        check_in = item.get_by_role("button", name="Check in")
        expect(check_in).to_be_visible()
        # She hears first: by when to check in before the family is told she is late.
        expect(item.get_by_test_id("check-in-by")).to_contain_text("Please check in by 10:00 AM")
        assert_no_axe_violations(helper, context="provider dashboard with Check in")

        # Check in with the keyboard: focus the button, press Enter.
        check_in.focus()
        helper.keyboard.press("Enter")
        expect(item.get_by_text(re.compile(r"^Checked in at"))).to_be_visible()
        # The family sees it without reloading.
        expect(family_item.get_by_text(re.compile(r"^Checked in at"))).to_be_visible(timeout=LIVE)

        # Check out: the report form, filled with the keyboard alone.
        check_out = item.get_by_role("button", name="Check out")
        check_out.focus()
        helper.keyboard.press("Enter")
        dialog = helper.get_by_test_id("visit-report-dialog")
        expect(dialog).to_be_visible()
        assert_no_axe_violations(helper, context="the visit report form")
        dialog.get_by_label("Companionship and conversation").press("Space")
        dialog.get_by_label("Anything else you did").focus()
        helper.keyboard.type("We talked about her garden and took a short walk.")
        dialog.get_by_label("4: Good").press("Space")
        dialog.get_by_label("Anything the family should know").focus()
        helper.keyboard.type("She is running low on her blood pressure tablets.")
        dialog.get_by_label("I suggest a follow-up visit").press("Space")
        dialog.get_by_role("button", name="Check out").focus()
        helper.keyboard.press("Enter")
        expect(dialog).to_have_count(0)
        expect(item.get_by_test_id("status-badge")).to_have_text("Completed")

        report = VisitReport.objects.get(booking=booking)
        assert report.tasks_done == ["Companionship and conversation"]
        assert (report.wellbeing, report.follow_up_suggested) == (4, True)

        # The family: "Visit report ready", then the report itself.
        expect(family_item.get_by_text("Visit report ready")).to_be_visible(timeout=LIVE)
        expect(family_item.get_by_text(re.compile(r"^Checked out at"))).to_be_visible()
        read = family_item.get_by_role("button", name="Read the visit report")
        read.focus()
        family.keyboard.press("Enter")
        shown = family.get_by_test_id("visit-report-details")
        expect(shown).to_contain_text("4 of 5: Good")
        expect(shown).to_contain_text("Companionship and conversation")
        expect(shown).to_contain_text("blood pressure tablets")
        expect(shown).to_contain_text("The helper suggests a follow-up visit.")
        assert_no_axe_violations(family, context="the family reading the visit report")
        family.screenshot(path="/tmp/visit-report-family.png", full_page=True)

        # The admins' Today tab: the visit is done, with its check-in and check-out times.
        sign_in_browser(admin, base, admin_user)
        admin.goto(f"{base}/admin")
        tab = admin.get_by_role("tab", name="Today")
        tab.focus()
        admin.keyboard.press("Enter")
        row = admin.get_by_test_id("admin-today-visit").filter(has_text=f"booking #{booking.pk}")
        expect(row).to_have_attribute("data-state", "done")
        expect(row.get_by_test_id("status-badge")).to_have_text("Done")
        assert_no_axe_violations(admin, context="the admins' Today tab")
    finally:
        for page in (family, helper, admin):
            page.context.close()
