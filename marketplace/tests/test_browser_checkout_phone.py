"""/checkout on a phone (390 px): the test-card hint is read before the Pay button, and after
paying the amount stays readable beside the "Payment Successful" toast."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Whether the element's middle is what a person sees there (not a toast lying over it).
_UNCOVERED = """(el) => {
  const r = el.getBoundingClientRect();
  const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return r.bottom <= window.innerHeight && top !== null && el.contains(top);
}"""


def test_the_phone_checkout_reads_in_order_and_the_toast_leaves_the_amount_readable(
    live_server, page: Page, client_user, verified_provider, settings
):
    settings.PAYMENTS_BACKEND = "test"
    booking = BookingFactory(service_request__client=client_user, provider=verified_provider, total_amount="45.50")
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, client_user)
    page.goto(f"{live_server.url}/checkout/{booking.pk}", wait_until="networkidle")

    hint = page.get_by_test_id("test-card-hint")
    pay = page.get_by_role("button", name="Pay $45.50")
    expect(hint).to_contain_text("4242 4242 4242 4242")
    assert hint.bounding_box()["y"] < page.get_by_label("Card number").bounding_box()["y"]
    assert hint.bounding_box()["y"] < pay.bounding_box()["y"]

    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Expiry date").fill("12/40")
    page.get_by_label("Security code (CVC)").fill("123")
    pay.click()

    expect(page.get_by_test_id("toast")).to_contain_text("Payment Successful")
    paid = page.get_by_test_id("paid-amount")
    expect(paid).to_have_text("You paid $45.50.")
    # The confirmation scrolls itself to the top once it has rendered: wait for that, with a deadline.
    page.wait_for_function(_UNCOVERED, arg=paid.element_handle(), timeout=5000)
