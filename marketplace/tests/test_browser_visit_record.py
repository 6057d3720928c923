"""The visit's record in Chromium at 390 px, with the browser's position set (Playwright's
geolocation, as DevTools' override): the helper reads the family's tasks, checks in at the home
("verified"), is asked to mark every task before she can check out, marks two done and one not
done with a reason, adds a photo; the brother in the circle sees it live, the photo through a
signed link. From across town the check-in asks
why and the visit is unverified. axe finds nothing on the new screens.

Real pieces only: Daphne (HTTP and websockets) on the test database in PostgreSQL, Redis, Chromium.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus, PaymentStatus, VisitTaskOutcome
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.tests.test_browser_visit_journey import _zone_where_the_morning_visit_has_started
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import TimeWindow

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]

LIVE = 15_000  # ms: a websocket event and the dashboard's refresh under a loaded machine
HOME = {"latitude": 40.7484, "longitude": -73.9857, "accuracy": 20}
ACROSS_TOWN = {"latitude": 40.7829, "longitude": -73.9654, "accuracy": 20}
TASKS = ["Set up video calls", "Pick up prescriptions", "Water the plants"]


@pytest.fixture
def zone(settings) -> str:
    zone = _zone_where_the_morning_visit_has_started()
    settings.TIME_ZONE = settings.SITE_TIME_ZONE = zone
    return zone


@pytest.fixture
def server(zone, transactional_db, daphne_servers):
    # Homes placed to the street (a geopy service): only then is a position compared with them.
    daphne = daphne_servers({"SITE_TIME_ZONE": zone, "GEOCODER": "nominatim"})
    yield daphne
    sys.stdout.write(daphne.output())


def _visit(zone: str) -> tuple[Booking, object]:
    """Today's morning visit (begun in the site zone) to Margaret's placed home, three tasks asked for."""
    from django.utils import timezone

    booking = BookingFactory(
        provider=VerifiedProviderFactory(user__first_name="Vera"),
        service_request__title="Tuesday help at home",
        service_request__preferred_date=timezone.localdate(),
        service_request__preferred_time=TimeWindow.MORNING,
        service_request__estimated_duration=120,
        service_request__tasks=TASKS,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    recipient = booking.recipient
    recipient.first_name = "Margaret"
    recipient.latitude, recipient.longitude = HOME["latitude"], HOME["longitude"]
    recipient.save(update_fields=["first_name", "latitude", "longitude"])
    brother = UserFactory(first_name="Tom")
    CircleMember.objects.create(recipient=recipient, user=brother, role=CircleRole.MEMBER)
    return booking, brother


def _png() -> bytes:
    import io

    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (120, 80), "seagreen").save(out, format="PNG")
    return out.getvalue()


def _page(browser: Browser, position: dict | None = None) -> Page:
    if position is None:
        return browser.new_context(viewport={"width": 390, "height": 900}).new_page()
    context = browser.new_context(
        viewport={"width": 390, "height": 900}, geolocation=position, permissions=["geolocation"]
    )
    return context.new_page()


def _dashboard(page: Page, base: str) -> None:
    page.goto(f"{base}/dashboard")
    expect(page.locator('[data-island="dashboard"]')).to_have_attribute("data-connected", "true", timeout=LIVE)


def test_check_in_at_the_home_mark_the_tasks_and_the_circle_sees_it_live(server, browser: Browser, zone, admin_user):
    booking, brother = _visit(zone)
    base = server.url
    family, helper, organizer, admin = _page(browser), _page(browser, HOME), _page(browser), _page(browser)
    try:
        sign_in_browser(family, base, brother)
        _dashboard(family, base)
        family_item = family.get_by_test_id("booking-item").filter(has_text="Tuesday help at home")
        expect(family_item).to_be_visible()

        sign_in_browser(helper, base, booking.provider.user)
        _dashboard(helper, base)
        item = helper.get_by_test_id("booking-item").filter(has_text="Tuesday help at home")
        # She reads what the family asked for before she checks in.
        tasks = item.get_by_test_id("visit-tasks")
        for task in TASKS:
            expect(tasks).to_contain_text(task)
        assert_no_axe_violations(helper, context="check-in with the family's tasks")
        item.get_by_role("button", name="Check in").click()
        expect(item.get_by_text(re.compile(r"^Checked in at"))).to_be_visible()
        # The brother sees where she checked in, live.
        expect(family_item.get_by_text(re.compile(r"^Checked in at .*\(at Margaret's home\)"))).to_be_visible(
            timeout=LIVE
        )

        item.get_by_role("button", name="Check out").click()
        dialog = helper.get_by_test_id("visit-report-dialog")
        expect(dialog).to_be_visible()
        dialog.get_by_label("4: Good").check()
        # Unmarked tasks: the dialog asks, nothing is sent.
        dialog.get_by_role("button", name="Check out").click()
        expect(dialog.get_by_text("Mark each task done or not done.")).to_be_visible()
        assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CONFIRMED
        dialog.get_by_test_id("task-outcome-0").get_by_label("Done", exact=True).check()
        dialog.get_by_test_id("task-outcome-1").get_by_label("Not done").check()
        dialog.get_by_test_id("task-outcome-2").get_by_label("Done", exact=True).check()
        dialog.get_by_role("button", name="Check out").click()
        # A task not done needs its reason.
        expect(dialog.get_by_text("Say in a few words why this was not done.")).to_be_visible()
        dialog.get_by_label("Why not?").fill("The pharmacy was closed until noon")
        dialog.get_by_label(re.compile("^(Anything else you did|What was done)")).fill("We also had tea and talked.")
        assert_no_axe_violations(helper, context="the check-out dialog with the family's tasks")
        # One photo for the family.
        dialog.get_by_label("Add a photo for the family (optional)").set_input_files(
            files=[{"name": "garden.png", "mimeType": "image/png", "buffer": _png()}]
        )
        helper.screenshot(path="/tmp/visit-record-check-out-390.png", full_page=True)
        dialog.get_by_test_id("visit-photo-field").screenshot(path="/tmp/visit-photo-field-390.png")
        dialog.get_by_role("button", name="Check out").click()
        expect(dialog).to_have_count(0)
        expect(item.get_by_test_id("status-badge")).to_have_text("Completed")

        outcomes = list(VisitTaskOutcome.objects.filter(booking=booking).values_list("task", "done", "reason"))
        assert outcomes == [
            ("Set up video calls", True, ""),
            ("Pick up prescriptions", False, "The pharmacy was closed until noon"),
            ("Water the plants", True, ""),
        ]
        done = Booking.objects.get(pk=booking.pk)
        assert (done.check_in_verified, done.check_out_verified) == (True, True)

        # The brother: the whole visit, live.
        expect(family_item.get_by_text("2 of 3 tasks done")).to_be_visible(timeout=LIVE)
        expect(family_item.get_by_text(re.compile(r"^Checked out at .*\(at Margaret's home\)"))).to_be_visible()
        # The photo, through a link made for him: it loads.
        family_item.get_by_test_id("visit-photo-open").click(timeout=LIVE)
        photo = family.get_by_test_id("visit-photo").get_by_role("img")
        expect(photo).to_be_visible()
        assert_no_axe_violations(family, context="the visit's photo")
        family.wait_for_function("() => document.querySelector('img.visit-photo')?.naturalWidth > 0", timeout=LIVE)
        assert photo.get_attribute("src").startswith("/visit-photos/")
        family.keyboard.press("Escape")
        expect(family.get_by_test_id("visit-photo")).to_have_count(0)
        family.screenshot(path="/tmp/visit-record-family-photo-390.png", full_page=True)
        assert_no_axe_violations(family, context="the family's visit timeline")
        family.screenshot(path="/tmp/visit-record-family-390.png", full_page=True)

        # The organizer downloads the month's visit record from the care circle page.
        sign_in_browser(organizer, base, booking.client)
        organizer.goto(f"{base}/care-circle")
        export = organizer.get_by_test_id("visit-record-export")
        expect(export).to_be_visible()
        assert_no_axe_violations(organizer, context="the care circle page with the visit record")
        with organizer.expect_download() as download:
            export.get_by_role("link", name="Download the visits (CSV)").click()
        sheet = Path(download.value.path()).read_text()
        assert "Pick up prescriptions (The pharmacy was closed until noon)" in sheet
        assert "At the home" in sheet

        # Staff: Vera's check-ins were all at the home.
        sign_in_browser(admin, base, admin_user)
        admin.goto(f"{base}/admin")
        admin.get_by_role("tab", name="Today").click()
        share = admin.get_by_test_id("admin-verified-share")
        expect(share.get_by_role("row").filter(has_text="Vera")).to_contain_text("100%")
        assert_no_axe_violations(admin, context="the admins' check-ins at the home")
    finally:
        for page in (family, helper, organizer, admin):
            page.context.close()


def test_a_check_in_from_across_town_asks_why_and_is_unverified(server, browser: Browser, zone):
    booking, brother = _visit(zone)
    base = server.url
    helper, family = _page(browser, ACROSS_TOWN), _page(browser)
    try:
        sign_in_browser(helper, base, booking.provider.user)
        _dashboard(helper, base)
        item = helper.get_by_test_id("booking-item").filter(has_text="Tuesday help at home")
        item.get_by_role("button", name="Check in").click()
        reason = item.get_by_label("Why are you not at the home?")
        expect(reason).to_be_visible()
        expect(item).to_contain_text("from Margaret's home")
        assert Booking.objects.get(pk=booking.pk).checked_in_at is None
        assert_no_axe_violations(helper, context="check-in away from the home")
        reason.fill("We met at the clinic for her appointment")
        item.get_by_role("button", name="Check in with this reason").click()
        expect(item.get_by_text(re.compile(r"^Checked in at"))).to_be_visible()
        helper.screenshot(path="/tmp/visit-record-away-390.png", full_page=True)
        checked = Booking.objects.get(pk=booking.pk)
        assert checked.check_in_verified is False
        assert checked.check_in_reason == "We met at the clinic for her appointment"

        sign_in_browser(family, base, brother)
        _dashboard(family, base)
        family_item = family.get_by_test_id("booking-item").filter(has_text="Tuesday help at home")
        expect(family_item.get_by_text(re.compile(r"not at the home: We met at the clinic"))).to_be_visible()
    finally:
        for page in (family, helper):
            page.context.close()
