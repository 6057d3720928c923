"""Staff decide late-fee disputes on /admin in Chromium on a phone (390 px), by keyboard: the
Disputes tab lists the family's reason, the helper, the amount and how long it has waited; the
dialog shows the amount before staff confirm, asks for a reason, and says the server's 409 when
another staff member decided first. axe-core finds nothing; screenshots are kept in /tmp."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from adminpanel.models import AuditAction, AuditLog
from adminpanel.tests.test_late_fee_disputes import fee
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from payments.models import LateFee, LateFeeState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/h5_disputes"


def test_staff_release_one_disputed_fee_and_meet_a_409_on_another(
    live_server, page: Page, admin_user, client_user, verified_provider
):
    first = fee(
        client_user, verified_provider, title="Garden work", amount="30.00", reason="Mum was home.", hours_ago=50
    )
    second = fee(
        client_user, verified_provider, title="Tablet help", amount="20.00", reason="The bell is broken.", hours_ago=3
    )
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin", wait_until="networkidle")

    # By keyboard: in the tab list, arrow to Disputes (Radix tabs open as they take focus).
    providers_tab = page.get_by_role("tab", name="Providers")
    providers_tab.focus()
    expect(providers_tab).to_have_attribute("aria-selected", "true")
    for name in ("Vetting", "Bookings", "Disputes"):
        page.keyboard.press("ArrowRight")
        expect(page.get_by_role("tab", name=name)).to_be_focused()
    expect(page.get_by_role("tab", name="Disputes")).to_have_attribute("aria-selected", "true")
    rows = page.get_by_test_id("late-fee-dispute")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Garden work")  # the longest waiting first
    expect(rows.nth(0)).to_contain_text("Mum was home.")
    expect(rows.nth(0)).to_contain_text("$30.00")
    expect(rows.nth(0)).to_contain_text("2 days")
    expect(rows.nth(0)).to_contain_text(verified_provider.user.full_name)
    expect(rows.nth(1)).to_contain_text("3 hours")
    assert_no_axe_violations(page, context="/admin Disputes tab")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"/admin's Disputes tab scrolls sideways at 390 px ({width})"
    page.screenshot(path=f"{SHOTS}-list-390.png", full_page=True)

    release = page.get_by_role("button", name=f"Release to helper for booking #{first.booking_id}")
    release.focus()
    page.keyboard.press("Enter")
    dialog = page.get_by_role("dialog", name=f"Release $30.00 to {verified_provider.user.full_name}?")
    expect(dialog).to_contain_text("is paid the late fee of $30.00")
    # No reason: the server's words, nothing sent.
    dialog.get_by_role("button", name="Release $30.00").click()
    expect(dialog).to_contain_text("Say why, for the family and the helper.")
    assert LateFee.objects.get(pk=first.pk).state == LateFeeState.DISPUTED
    dialog.get_by_label("Reason (the family and the helper are told)").fill("The check-in was at the door.")
    assert_no_axe_violations(page, context="the late-fee decision dialog")
    page.screenshot(path=f"{SHOTS}-dialog-390.png", full_page=True)
    dialog.get_by_role("button", name="Release $30.00").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("toast")).to_contain_text("will be paid to")
    expect(dialog).to_be_hidden()
    expect(rows).to_have_count(1)
    first.refresh_from_db()
    assert first.state in (LateFeeState.PENDING, LateFeeState.ON_ITS_WAY)
    assert first.decided_reason == "The check-in was at the door."
    assert AuditLog.objects.filter(action=AuditAction.LATE_FEE_DECIDED, target_id=str(first.booking_id)).exists()

    # Another staff member refunds the second meanwhile: this dialog says the server's 409.
    page.get_by_role("button", name=f"Refund the family for booking #{second.booking_id}").click()
    dialog = page.get_by_role("dialog", name="Refund $20.00 to the family?")
    expect(dialog).to_contain_text("goes back to the card of")
    LateFee.objects.filter(pk=second.pk).update(state=LateFeeState.WAIVED, decided_reason="Decided on the phone")
    dialog.get_by_label("Reason (the family and the helper are told)").fill("The bell is broken indeed.")
    dialog.get_by_role("button", name="Refund $20.00").click()
    expect(dialog.get_by_test_id("late-fee-decision-problem")).to_have_text("This fee is not disputed.")
    assert LateFee.objects.get(pk=second.pk).decided_reason == "Decided on the phone"
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(page.get_by_text("No disputes")).to_be_visible()
