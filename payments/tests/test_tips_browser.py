"""Tips and faster pay in Chromium on a phone (390 px), with the offline test gateway of `make run`:
the organizer adds a tip on the dashboard after the visit, the helper sees it as its own line on
/earnings and gets paid now, the fee shown before she confirms. axe-core finds nothing; the
screenshots are kept in /tmp."""

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
from messaging.models import Message
from payments.models import ConnectedAccount, InstantPayout, Tip, TipState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = "/tmp/h4_tips"


def test_the_organizer_tips_after_the_visit_and_the_helper_sees_it_and_gets_paid_now(
    live_server, page: Page, client_user, verified_provider
):
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Garden and groceries",
        service_request__preferred_date=yesterday,
        provider=verified_provider,
        total_amount=Decimal("60.00"),
        status=BookingStatus.COMPLETED,
        payment_status=PaymentStatus.PAID,
    )
    booking.checked_out_at = timezone.now() - dt.timedelta(hours=2)
    booking.save(update_fields=["checked_out_at"])
    ConnectedAccount.objects.create(
        provider=verified_provider,
        gateway="test",
        account_id="acct_test_vera",
        charges_enabled=True,
        payouts_enabled=True,
        details_submitted=True,
    )

    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item").filter(has_text="Garden and groceries")
    item.get_by_role("button", name="Add a tip").click()

    dialog = page.get_by_role("dialog", name="Add a tip")
    expect(dialog).to_contain_text("All of your tip goes to Vera; Kindly keeps nothing.")
    expect(dialog.get_by_label("$9.00")).to_be_checked()  # 15 % of $60.00, suggested first
    assert_no_axe_violations(page, context="the tip dialog")
    page.screenshot(path=f"{SHOTS}-dialog-390.png", full_page=True)

    # Too much is told in plain words, beside the field.
    dialog.get_by_label("Another amount").check()
    dialog.get_by_label("Amount in dollars").fill("500")
    dialog.get_by_role("button", name="Add the tip").click()
    expect(dialog).to_contain_text("A tip can be at most $200.00. For a larger thank-you, please contact support.")

    dialog.get_by_label("Amount in dollars").fill("10")
    dialog.get_by_role("button", name="Add the tip").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Your tip of $10.00 goes to Vera in full.")
    tip = Tip.objects.get(booking=booking)
    assert (tip.amount, tip.state) == (Decimal("10.00"), TipState.ON_ITS_WAY)
    assert Message.objects.filter(
        receiver=verified_provider.user, content="Clara added a $10 tip. Thank you for your visit."
    ).exists()

    # The helper's earnings: the tip is its own line, and she may be paid at once.
    helper = page.context.browser.new_page(viewport={"width": 390, "height": 844})
    sign_in_browser(helper, live_server.url, verified_provider.user)
    helper.goto(f"{live_server.url}/earnings")
    line = helper.get_by_test_id("tip-line")
    expect(line).to_contain_text("Tip from Clara")
    expect(line).to_contain_text("$10.00")
    expect(line).to_contain_text("Kindly keeps no fee from tips.")
    expect(line).to_contain_text("In your bank by about")
    assert_no_axe_violations(helper, context="/earnings with a tip")
    width = helper.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"/earnings scrolls sideways at 390 px ({width})"
    helper.screenshot(path=f"{SHOTS}-earnings-390.png", full_page=True)

    helper.get_by_role("link", name="Get paid now").click()
    quote = helper.get_by_test_id("instant-quote")
    expect(quote.get_by_test_id("instant-available")).to_have_text("$10.00")
    expect(quote.get_by_test_id("instant-fee")).to_have_text("$0.50")
    expect(quote.get_by_test_id("instant-receive")).to_have_text("$9.50")
    assert not InstantPayout.objects.exists()  # the fee is shown first; nothing moved
    assert_no_axe_violations(helper, context="Get paid now")
    helper.screenshot(path=f"{SHOTS}-get-paid-now-390.png", full_page=True)

    helper.get_by_role("button", name="Yes, send $9.50 to my card").click()
    expect(helper.get_by_test_id("toast")).to_contain_text("$9.50 is being sent to your debit card now.")
    payout = InstantPayout.objects.get()
    assert (payout.amount, payout.fee, payout.state) == (Decimal("10.00"), Decimal("0.50"), "paid")
    expect(helper.get_by_test_id("instant-payouts")).to_contain_text("$9.50 to your card (fee $0.50)")
    helper.close()
