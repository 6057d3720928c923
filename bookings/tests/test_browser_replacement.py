"""A replacement, not a gap, in Chromium: the helper says she cannot make tomorrow's visit; the family
sees "Finding a replacement" on the booking; a helper near takes it from her dashboard; the family
sees "Replacement confirmed: Ana will arrive at 2:00 PM"."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, expect

from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.browser import sign_in_browser
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import TimeWindow

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

HOME = (39.7817, -89.6501)


def test_the_family_sees_finding_a_replacement_then_replacement_confirmed(live_server, browser: Browser, client_user):
    base = live_server.url
    vera = VerifiedProviderFactory(user__first_name="Vera", latitude=HOME[0], longitude=HOME[1], travel_miles=25)
    ana = VerifiedProviderFactory(user__first_name="Ana", latitude=HOME[0] + 0.02, longitude=HOME[1], travel_miles=25)
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=1),
        service_request__preferred_time=TimeWindow.AFTERNOON,
        provider=vera,
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
        arrival_time=dt.time(14, 0),
        total_amount=Decimal("45.00"),
    )
    recipient = booking.recipient
    recipient.latitude, recipient.longitude = HOME
    recipient.save(update_fields=["latitude", "longitude"])
    contexts = [browser.new_context(viewport={"width": 390, "height": 844}) for _ in range(3)]
    family, helper, stepping_in = (c.new_page() for c in contexts)
    try:
        sign_in_browser(family, base, client_user)
        family.goto(f"{base}/dashboard")
        item = family.get_by_test_id("booking-item")
        expect(item.get_by_test_id("status-badge")).to_have_text("Confirmed")

        # Vera cannot make it: a reason is required before the dialog's button works.
        sign_in_browser(helper, base, vera.user)
        helper.goto(f"{base}/dashboard?view=provider")
        helper.get_by_role("button", name="I can't make this visit").click()
        dialog = helper.get_by_role("dialog", name="Cancel this visit")
        confirm = dialog.get_by_role("button", name="Cancel the visit")
        expect(confirm).to_be_disabled()
        dialog.get_by_label("Why can you not make it?").fill("I have the flu.")
        confirm.click()
        expect(helper.get_by_test_id("toast")).to_contain_text("Kindly is finding another helper")

        family.reload()
        item = family.get_by_test_id("booking-item")
        expect(item.get_by_test_id("replacement-note")).to_contain_text("Finding a replacement")
        expect(item.get_by_test_id("status-badge")).to_have_text("Finding a replacement")
        expect(item.get_by_role("button", name="Cancel with a full refund")).to_be_visible()
        # The helper who left is not said to be coming.
        expect(item.get_by_test_id("booking-arrival")).to_have_count(0)

        # Ana, near and free, was offered it: she takes it from her dashboard.
        sign_in_browser(stepping_in, base, ana.user)
        stepping_in.goto(f"{base}/dashboard?view=provider")
        offers = stepping_in.get_by_test_id("replacement-offers")
        expect(offers).to_contain_text("Set up video calls")
        expect(offers).to_contain_text("Arrive at 2:00 PM")
        offers.get_by_role("button", name="Take this visit").click()
        expect(stepping_in.get_by_test_id("toast")).to_contain_text("The family expects you at 2:00 PM")

        family.reload()
        item = family.get_by_test_id("booking-item")
        expect(item.get_by_test_id("replacement-note")).to_have_text(
            "Replacement confirmed: Ana will arrive at 2:00 PM"
        )
        expect(item.get_by_test_id("status-badge")).to_have_text("Confirmed")
        expect(item.get_by_test_id("booking-arrival")).to_have_count(0)  # said once, in the note
        family.screenshot(path="/tmp/h1-replacement-confirmed.png", full_page=True)
    finally:
        for context in contexts:
            context.close()
    booking.refresh_from_db()
    assert (booking.pk, booking.provider_id, booking.status) == (booking.pk, ana.pk, BookingStatus.CONFIRMED)
    assert Booking.objects.count() == 1
