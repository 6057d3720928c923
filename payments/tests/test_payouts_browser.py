"""Providers get paid, in Chromium with the offline test gateway: the provider connects through the
simulated onboarding, the client pays, the visit is completed, and /earnings shows the split."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import check_in_and_out, sign_in_browser
from payments.models import ConnectedAccount, Earning, PayoutSetup, PayoutState

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Every visible text and control of the page, measured: font size, target height, sideways overflow.
_MEASURE = """() => {
  const texts = [], targets = [];
  const selector = "main p, main dt, main dd, main li, main h3, main span, main a, main button";
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || el.closest(".visually-hidden")) continue;
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 18) texts.push(`${el.tagName} "${el.textContent.trim().slice(0, 30)}" ${size}px`);
    if ((el.tagName === "A" && el.classList.contains("button")) || el.tagName === "BUTTON") {
      if (r.height < 44 || r.width < 44) targets.push(`${el.textContent.trim()} ${r.width}x${r.height}`);
    }
  }
  const overflow = document.documentElement.scrollWidth - document.documentElement.clientWidth;
  return { texts, targets, overflow };
}"""


@pytest.fixture
def past_booking(client_user, verified_provider):
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    return BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        service_request__preferred_date=yesterday,
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )


def test_provider_connects_client_pays_visit_completed_earnings_show_the_split(
    live_server, page: Page, offline_backend, past_booking
):
    provider = past_booking.provider
    # The provider connects payouts from the dashboard (the test gateway's onboarding).
    sign_in_browser(page, live_server.url, provider.user)
    page.goto(f"{live_server.url}/dashboard")
    card = page.get_by_test_id("payouts-card")
    expect(card.get_by_test_id("payouts-label")).to_have_text("Payouts not set up")
    expect(card).to_contain_text("You can accept visits now.")
    assert_no_axe_violations(page, context="dashboard with the payouts card")
    card.get_by_role("button", name="Set up payouts").click()

    expect(page.get_by_role("heading", name="Set up payouts", level=1)).to_be_visible()
    assert_no_axe_violations(page, context="test gateway onboarding")
    page.get_by_role("button", name="Finish setup").click()

    expect(page).to_have_url(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("toast")).to_contain_text("Payouts on")
    expect(page.get_by_test_id("payouts-card").get_by_test_id("payouts-label")).to_have_text("Payouts on")
    assert ConnectedAccount.objects.get(provider=provider).setup == PayoutSetup.ON

    # The client pays with the test card.
    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, past_booking.client)
    page.goto(f"{live_server.url}/checkout/{past_booking.pk}")
    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Expiry date").fill("12/40")
    page.get_by_label("Security code (CVC)").fill("123")
    page.get_by_role("button", name="Pay $45.50").click()
    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()

    # The provider checks in and out of the visit (with its report); their share goes out.
    page.context.clear_cookies()
    sign_in_browser(page, live_server.url, provider.user)
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item").filter(has_text="Set up video calls")
    check_in_and_out(page, item)
    expect(item.get_by_test_id("status-badge")).to_have_text("Completed")
    earning = Earning.objects.get(booking=past_booking)
    assert (earning.state, earning.transfer_id[:8]) == (PayoutState.ON_ITS_WAY, "tr_test_")

    page.get_by_test_id("payouts-card").get_by_role("link", name="See your earnings").click()

    expect(page.get_by_role("heading", name="Your earnings", level=1)).to_be_visible()
    visit = page.get_by_test_id("earning").filter(has_text="Set up video calls")
    expect(visit.get_by_test_id("earning-gross")).to_have_text("$45.50")
    expect(visit.get_by_test_id("earning-fee")).to_have_text("$6.82")
    expect(visit.get_by_test_id("earning-net")).to_have_text("$38.68")
    expect(visit.get_by_test_id("earning-state")).to_have_text("On its way")
    expect(page.get_by_test_id("earnings-totals")).to_contain_text("$38.68")
    expect(page.get_by_test_id("earnings-months")).to_contain_text(past_booking.scheduled_date.strftime("%B %Y"))
    assert_no_axe_violations(page, context="/earnings")

    with page.expect_download() as download:
        page.get_by_role("link", name="Download as a spreadsheet (CSV)").click()
    lines = open(download.value.path(), encoding="utf-8").read().splitlines()
    assert lines[1].endswith("45.50,6.82,38.68,15.00,On its way,38.68")  # the last column: what she earns


@pytest.mark.parametrize("width", [320, 1280])
def test_the_earnings_page_is_readable_and_keyboard_usable(
    live_server, page: Page, offline_backend, width, past_booking
):
    provider = past_booking.provider
    Earning.objects.create(
        booking=past_booking,
        gross=Decimal("45.50"),
        fee=Decimal("6.82"),
        net=Decimal("38.68"),
        fee_percent=Decimal("15"),
        currency="usd",
        gateway="test",
    )
    page.set_viewport_size({"width": width, "height": 800})
    sign_in_browser(page, live_server.url, provider.user)

    page.goto(f"{live_server.url}/earnings")

    measured = page.evaluate(_MEASURE)
    assert measured == {"texts": [], "targets": [], "overflow": 0}
    expect(page.get_by_test_id("earning-state")).to_have_text("Pending")
    expect(page.get_by_test_id("earning")).to_contain_text("Sent to you once you mark the visit completed.")
    assert_no_axe_violations(page, context=f"/earnings at {width}px")

    # Keyboard only: Tab reaches "Set up payouts" and Enter opens the onboarding.
    setup = page.get_by_role("button", name="Set up payouts")
    for _ in range(40):
        page.keyboard.press("Tab")
        if setup.evaluate("el => el === document.activeElement"):
            break
    else:
        raise AssertionError("Tab never reached Set up payouts")
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Set up payouts", level=1)).to_be_visible()
    measured = page.evaluate(_MEASURE)
    assert measured["targets"] == [] and measured["overflow"] == 0
