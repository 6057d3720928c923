"""/admin's Phone tab in Chromium on a phone (390 px): the calls and texts through the bookings'
Kindly lines, paged (when, which way, how long, which booking), never a phone number on the page;
axe-core finds nothing; the screenshot is kept in /tmp."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from phoneline.tests.test_staff_phone_records import FAMILY_PHONE, HELPER_PHONE, POOL, records

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_page_through_the_call_records_and_see_no_number(live_server, page: Page, admin_user, client_user):
    booking, _made = records(23, client_user=client_user, title="Tablet help")
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin", wait_until="networkidle")
    page.get_by_role("tab", name="Phone").click()

    rows = page.get_by_test_id("phone-record")
    expect(rows).to_have_count(20)
    expect(rows.first).to_contain_text(f"#{booking.pk}: Tablet help")
    expect(page.get_by_test_id("phone-records")).to_contain_text("2 min 05 s")
    expect(page.get_by_test_id("phone-records")).to_contain_text("Helper to family")
    expect(page.get_by_test_id("phone-records")).to_contain_text("Text")
    assert_no_axe_violations(page, context="/admin Phone tab with call records")
    page.screenshot(path="/tmp/h5_phone_records-390.png", full_page=True)

    pager = page.get_by_test_id("phone-records-pager")
    pager.get_by_role("button", name="Next page of Calls and texts").click()
    expect(rows).to_have_count(3)
    text = page.locator("body").inner_text()
    for number in (HELPER_PHONE, FAMILY_PHONE, POOL, "555-020-4321", "(555) 777-8888"):
        assert number not in text
