"""The late fee in Chromium on a phone (390 px): staff see the fee and what the family gets back
before they confirm a cancel inside 48 hours, may waive it with a reason, and the helper's
/earnings shows the fee as its own line. axe-core finds nothing; the screenshots are kept in /tmp."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from payments.models import LateFee, LateFeeState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/h5_late_fee"


def late_booking(client_user, provider):
    """A paid, confirmed 3-hour visit of $90.00 about 30 hours from now: inside 48 hours."""
    start = timezone.now() + dt.timedelta(hours=30)
    return BookingFactory(
        service_request__client=client_user,
        service_request__title="Garden and groceries",
        service_request__preferred_date=timezone.localdate(start),
        service_request__estimated_duration=180,
        provider=provider,
        total_amount=Decimal("90.00"),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )


def test_staff_see_the_fee_before_they_confirm_and_the_helper_sees_it_on_earnings(
    live_server, page: Page, admin_user, client_user, verified_provider
):
    booking = late_booking(client_user, verified_provider)
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(f"{live_server.url}/admin")
    page.get_by_role("tab", name="Bookings").click()
    page.get_by_role("button", name=f"Cancel booking #{booking.id}").click()

    dialog = page.get_by_role("dialog", name="Cancel Booking")
    expect(dialog.get_by_test_id("late-fee")).to_contain_text("late fee of $30.00")
    expect(dialog.get_by_test_id("cancel-refund")).to_contain_text(
        "The client will get $60.00 back to their card; $30.00 goes to the helper as the late fee."
    )
    expect(dialog.get_by_role("link", name="Our cancellation policy")).to_have_attribute("href", "/cancellation-policy")
    assert_no_axe_violations(page, context="the staff cancel dialog with a late fee")
    page.screenshot(path=f"{SHOTS}-dialog-390.png", full_page=True)

    # Waiving shows its reason field and says the client gets everything back.
    dialog.get_by_label("Waive the late fee").check()
    expect(dialog.get_by_label("Why the fee is waived")).to_be_visible()
    expect(dialog.get_by_test_id("cancel-refund")).to_contain_text("The client will get $90.00 back")
    dialog.get_by_label("Waive the late fee").uncheck()

    dialog.get_by_label("Cancellation reason").fill("The family asked by phone: a hospital appointment.")
    dialog.get_by_role("button", name="Cancel Booking").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Booking cancelled successfully")
    fee = LateFee.objects.get(booking=booking)
    assert (fee.amount, fee.state) == (Decimal("30.00"), LateFeeState.PENDING)  # no payouts yet: it waits

    # The helper's earnings: the fee is its own line.
    helper = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    sign_in_browser(helper, live_server.url, verified_provider.user)
    helper.goto(f"{live_server.url}/earnings")
    line = helper.get_by_test_id("late-fee-line")
    expect(line).to_contain_text("Late fee: cancelled late")
    expect(line).to_contain_text("$30.00")
    expect(line).to_contain_text("Paid to you as soon as your payouts are on.")
    expect(helper.get_by_test_id("earnings-empty")).to_have_text(
        "No visit earnings yet. Your late fees are listed below."
    )
    assert_no_axe_violations(helper, context="/earnings with a late fee")
    width = helper.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"/earnings scrolls sideways at 390 px ({width})"
    helper.screenshot(path=f"{SHOTS}-earnings-390.png", full_page=True)

    # The policy page reads at 390 px too.
    helper.goto(f"{live_server.url}/cancellation-policy")
    expect(helper.get_by_role("heading", name="Cancellation policy")).to_be_visible()
    expect(helper.get_by_test_id("cancellation-policy")).to_contain_text("never more than $40.00")
    assert_no_axe_violations(helper, context="/cancellation-policy")
    helper.close()


def test_a_helper_reports_nobody_home_and_the_family_disputes_the_fee(
    live_server, page: Page, client_user, verified_provider
):
    booking = late_booking(client_user, verified_provider)
    today = timezone.localdate()
    booking.scheduled_date = today
    booking.checked_in_at = timezone.now()
    booking.save()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, verified_provider.user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item").filter(has_text="Garden and groceries")
    item.get_by_role("button", name="Nobody is home").click()

    dialog = page.get_by_role("dialog", name="Nobody is home?")
    expect(dialog).to_contain_text("We keep the time of this report.")
    assert_no_axe_violations(page, context="the nobody-home dialog")
    page.screenshot(path=f"{SHOTS}-nobody-home-390.png", full_page=True)
    dialog.get_by_role("button", name="Report nobody home").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Reported: nobody home")
    fee = LateFee.objects.get(booking=booking)
    assert (fee.kind, fee.amount, fee.state) == ("nobody_home", Decimal("30.00"), LateFeeState.HELD)

    family = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    sign_in_browser(family, live_server.url, client_user)
    # The family's dashboard card says the fee and links to dispute it while it can be.
    family.goto(f"{live_server.url}/dashboard")
    card = family.get_by_test_id("booking-item").filter(has_text="Garden and groceries")
    expect(card.get_by_test_id("late-fee-charged")).to_contain_text(
        f"Late fee (nobody home): $30.00, to be paid to {verified_provider.user.first_name} unless you dispute it by"
    )
    assert_no_axe_violations(family, context="/dashboard with a held late fee")
    family.screenshot(path=f"{SHOTS}-dashboard-card-390.png", full_page=True)
    card.get_by_role("link", name="Dispute this fee").click()
    expect(family).to_have_url(f"{live_server.url}/late-fees/{booking.pk}")
    expect(family.get_by_test_id("late-fee-amount")).to_have_text("$30.00")
    assert_no_axe_violations(family, context="/late-fees with a dispute form")
    family.get_by_label("What happened").fill("Mum was home; the doorbell is broken.")
    family.get_by_role("button", name="Dispute the fee").click()
    expect(family.get_by_test_id("late-fee-note")).to_contain_text("Kindly support will decide")
    family.screenshot(path=f"{SHOTS}-disputed-390.png", full_page=True)
    fee.refresh_from_db()
    assert fee.state == LateFeeState.DISPUTED
    family.close()


def test_the_family_sees_the_fee_on_the_card_before_asking_support_to_cancel(
    live_server, page: Page, client_user, verified_provider
):
    """Inside 48 hours the family cannot cancel in the app; the card says what a cancel by support
    would cost them (the fee, what comes back) before they write to support."""
    late_booking(client_user, verified_provider)
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")

    item = page.get_by_test_id("booking-item").filter(has_text="Garden and groceries")
    expect(item.get_by_test_id("late-fee-if-cancelled")).to_have_text(
        "Kindly support can still cancel it for you: the helper is then paid a late cancellation fee of $30.00, "
        "and $60.00 comes back to your card. Our cancellation policy"
    )
    expect(item.get_by_role("link", name="Our cancellation policy")).to_have_attribute("href", "/cancellation-policy")
    expect(item.get_by_role("link", name="Contact support")).to_be_visible()
    assert_no_axe_violations(page, context="the family's card with the late fee")
