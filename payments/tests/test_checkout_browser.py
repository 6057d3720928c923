"""Paying a booking in Chromium with the offline test gateway (live server, real PostgreSQL)."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone
from playwright.sync_api import Page, Route, expect

from bookings.models import BookingStatus, PaymentStatus
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def hold(page: Page, url_glob: str) -> list[Route]:
    """Hold requests to url_glob until the test lets them go (to see the in-between state)."""
    held: list[Route] = []
    page.route(url_glob, lambda route: held.append(route))
    return held


def first_held(page: Page, held: list[Route]) -> Route:
    """The first held request, once Playwright has handed it over (the page may show its busy
    state a moment before the request reaches the route)."""
    for _ in range(200):
        if held:
            return held[0]
        page.wait_for_timeout(25)
    raise AssertionError("the request was never made")


def fill_card(page: Page, number: str) -> None:
    page.get_by_label("Card number").fill(number)
    page.get_by_label("Expiry date").fill("12/40")
    page.get_by_label("Security code (CVC)").fill("123")


def test_client_pays_with_the_test_card_and_sees_the_booking_confirmed(
    live_server, page: Page, offline_backend, booking
):
    sign_in_browser(page, live_server.url, booking.client)
    held = hold(page, "**/api/create-payment-intent")

    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    expect(page.get_by_role("status").filter(has_text="Preparing payment...")).to_be_visible()
    first_held(page, held).continue_()
    page.unroute("**/api/create-payment-intent")

    summary = page.get_by_test_id("booking-summary")
    expect(summary).to_contain_text("Set up video calls")
    expect(summary).to_contain_text("Vera")
    expect(page.get_by_test_id("summary-total")).to_have_text("$45.50")
    expect(page.get_by_role("heading", name="Secure Payment")).to_be_visible()
    expect(page.get_by_text("Kindly never stores your full card number.")).to_be_visible()
    assert_no_axe_violations(page)

    fill_card(page, "4242 4242 4242 4242")
    held = hold(page, "**/api/payments/test/confirm")
    page.get_by_role("button", name="Pay $45.50").click()

    busy = page.get_by_role("button", name="Processing Payment...")
    expect(busy).to_be_visible()
    expect(busy).to_be_disabled()
    first_held(page, held).continue_()

    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()
    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Payment Successful")
    expect(toast).to_contain_text("Thank you for your payment! Your booking is confirmed.")
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)

    # Coming back shows the paid state straight away.
    page.goto(f"{live_server.url}/checkout/{booking.pk}")
    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()

    # The dashboard lists the booking as confirmed, with nothing left to pay.
    page.goto(f"{live_server.url}/dashboard")
    item = page.get_by_test_id("booking-item").filter(has_text="Set up video calls")
    expect(item.get_by_test_id("status-badge")).to_have_attribute("data-status", "confirmed")
    expect(item.get_by_role("link", name="Pay now")).to_have_count(0)


def test_declined_card_shows_payment_failed_and_a_retry_succeeds(live_server, page: Page, offline_backend, booking):
    sign_in_browser(page, live_server.url, booking.client)
    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    fill_card(page, "4000 0000 0000 0002")
    page.get_by_role("button", name="Pay $45.50").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Payment Failed")
    expect(toast).to_contain_text("Your card was declined.")
    expect(toast).to_have_attribute("data-variant", "destructive")
    expect(page.get_by_test_id("payment-error")).to_have_text("Your card was declined.")
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.SCHEDULED, PaymentStatus.FAILED)

    fill_card(page, "4242424242424242")
    page.get_by_role("button", name="Pay $45.50").click()

    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PAID


def test_an_invalid_card_number_is_shown_at_its_field(live_server, page: Page, offline_backend, booking):
    sign_in_browser(page, live_server.url, booking.client)
    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    fill_card(page, "1234 5678 9012 3456")
    page.get_by_role("button", name="Pay $45.50").click()

    expect(page.get_by_test_id("card-number-error")).to_have_text("Your card number is invalid.")
    expect(page.get_by_label("Card number")).to_have_attribute("aria-invalid", "true")
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PENDING


def test_expiry_spellings_are_read_as_mm_yy_and_a_past_date_is_explained(
    live_server, page: Page, offline_backend, booking
):
    sign_in_browser(page, live_server.url, booking.client)
    page.goto(f"{live_server.url}/checkout/{booking.pk}")
    expiry = page.get_by_label("Expiry date")
    expect(page.get_by_text("MM / YY, for example 04 / 28")).to_be_visible()
    expect(expiry).to_have_attribute("aria-describedby", re.compile(r"card-expiry-hint"))
    yy = f"{(timezone.localdate().year + 1) % 100:02d}"

    # Each common spelling is read and shown back as MM / YY once the field is left.
    for typed, shown in ((f"1{yy}", f"01 / {yy}"), (f"12{yy}", f"12 / {yy}"), (f"3/20{yy}", f"03 / {yy}")):
        expiry.fill(typed)
        expiry.blur()
        expect(expiry).to_have_value(shown)

    page.get_by_label("Card number").fill("4242 4242 4242 4242")
    page.get_by_label("Security code (CVC)").fill("123")
    last_month = timezone.localdate().replace(day=1) - dt.timedelta(days=1)
    expiry.fill(f"{last_month.month}/{last_month.year}")
    page.get_by_role("button", name="Pay $45.50").click()
    expect(page.get_by_test_id("card-expiry-error")).to_have_text(
        f"This card expired at the end of {last_month.month:02d} / {last_month.year % 100:02d}. "
        "Please use a card that is still valid."
    )
    expect(expiry).to_have_attribute("aria-invalid", "true")
    assert_no_axe_violations(page)
    expiry.fill("13/40")
    page.get_by_role("button", name="Pay $45.50").click()
    expect(page.get_by_test_id("card-expiry-error")).to_have_text("The month must be a number from 01 to 12.")
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PENDING

    expiry.fill(f"12 / 20{yy}")
    page.get_by_role("button", name="Pay $45.50").click()
    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PAID


def test_the_offline_gateway_page_never_loads_stripe_js(live_server, page: Page, offline_backend, booking):
    asked = []
    page.on("request", lambda request: asked.append(request.url))
    sign_in_browser(page, live_server.url, booking.client)

    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    expect(page.get_by_label("Card number")).to_be_visible()
    page.wait_for_load_state("networkidle")
    assert [url for url in asked if "stripe" in url] == []
    assert page.locator("script[src*='stripe']").count() == 0
    assert page.evaluate("typeof window.Stripe") == "undefined"


def test_someone_elses_booking_shows_booking_not_found(live_server, page: Page, booking, verified_provider):
    sign_in_browser(page, live_server.url, verified_provider.user)

    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    expect(page.get_by_role("heading", name="Booking Not Found")).to_be_visible()
    expect(page.get_by_role("link", name="Back to Dashboard")).to_have_attribute("href", re.compile(r"^/$"))


# Stripe.js cannot load here (no network), so the browser gets a stand-in at js.stripe.com with
# the same surface the island uses; the server side is the real SDK against the fake Stripe API.
FAKE_STRIPE_JS = """
window.Stripe = function (pk) {
  window.__stripe = { pk: pk };
  return {
    elements: function (opts) {
      window.__stripe.clientSecret = opts.clientSecret;
      return { create: function () { return {
        mount: function (el) {
          el.innerHTML = '<label for="fake-card">Card (Stripe)</label><input id="fake-card">';
        },
        destroy: function () {},
      }; } };
    },
    confirmPayment: function (args) {
      window.__stripe.confirm = { returnUrl: args.confirmParams.return_url, redirect: args.redirect };
      if (document.getElementById("fake-card").value === "decline") {
        return Promise.resolve({ error: { type: "card_error", message: "Your card has insufficient funds." } });
      }
      return Promise.resolve({ paymentIntent: { id: "pi", status: "succeeded" } });
    },
  };
};
"""


@pytest.fixture
def stripe_page(page: Page):
    page.route(
        re.compile(r"^https://js\.stripe\.com/"),
        lambda route: route.fulfill(status=200, content_type="application/javascript", body=FAKE_STRIPE_JS),
    )
    return page


def test_stripe_elements_path_pays_and_the_server_confirms_with_stripe(
    live_server, stripe_page: Page, stripe_backend, booking
):
    page = stripe_page
    sign_in_browser(page, live_server.url, booking.client)
    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    expect(page.get_by_label("Card (Stripe)")).to_be_visible()
    booking.refresh_from_db()
    intent = stripe_backend.intents[booking.payment_intent_id]
    assert page.evaluate("window.__stripe.pk") == "pk_test_kindly_fake"
    assert page.evaluate("window.__stripe.clientSecret") == intent["client_secret"]
    assert intent["amount"] == 4550

    page.get_by_label("Card (Stripe)").fill("decline")
    page.get_by_role("button", name="Pay $45.50").click()
    expect(page.get_by_test_id("toast")).to_contain_text("Payment Failed")
    expect(page.get_by_test_id("payment-error")).to_have_text("Your card has insufficient funds.")

    intent["status"] = "succeeded"  # what Stripe would now say about this intent
    page.get_by_label("Card (Stripe)").fill("4242")
    page.get_by_role("button", name="Pay $45.50").click()

    expect(page.get_by_role("heading", name="Payment Complete!")).to_be_visible()
    expect(page.get_by_test_id("toast")).to_contain_text("Payment Successful")
    assert page.evaluate("window.__stripe.confirm") == {"returnUrl": f"{live_server.url}/", "redirect": "if_required"}
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    assert len(stripe_backend.posts("/v1/payment_intents")) == 1


def test_a_stripe_error_on_load_shows_the_spec_toast(live_server, stripe_page: Page, stripe_backend, booking):
    page = stripe_page
    stripe_backend.fail_next.append((500, {"error": {"type": "api_error", "message": "Stripe is down"}}))
    stripe_backend.fail_next.append((500, {"error": {"type": "api_error", "message": "Stripe is down"}}))
    stripe_backend.fail_next.append((500, {"error": {"type": "api_error", "message": "Stripe is down"}}))
    sign_in_browser(page, live_server.url, booking.client)

    page.goto(f"{live_server.url}/checkout/{booking.pk}")

    expect(page.get_by_test_id("toast")).to_contain_text("Failed to create payment. Please try again.")
    expect(page.get_by_role("alert").filter(has_text="Failed to create payment. Please try again.")).to_be_visible()
    page.get_by_role("button", name="Try Again").click()
    expect(page.get_by_label("Card (Stripe)")).to_be_visible()
