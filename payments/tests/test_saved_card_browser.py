"""Saving a card on /settings and seeing a series charged to it, in Chromium with the offline test
gateway (live server, real PostgreSQL): no "Pay now" on a visit charged automatically."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from payments import cards
from payments.models import SavedCard, VisitCharge
from requests_app.models import Repeat
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_organizer_saves_a_card_and_her_series_is_charged_without_pay_now(
    live_server, page: Page, offline_backend, client_user, verified_provider
):
    first = timezone.localdate() + dt.timedelta(days=10)
    request = ServiceRequestFactory(
        client=client_user,
        title="Weekly shopping",
        preferred_date=first,
        preferred_time="morning",
        repeat=Repeat.WEEKLY,
        repeat_count=3,
    )
    member = UserFactory(first_name="Mark")
    CircleMember.objects.create(recipient=request.recipient, user=member, role=CircleRole.MEMBER)
    sign_in_browser(page, live_server.url, client_user)

    # Settings: the organizer's own card.
    page.goto(f"{live_server.url}/settings")
    card = page.locator("#payment-method")
    expect(card.get_by_role("heading", name="Payment method")).to_be_visible()
    card.get_by_label("Card number").fill("4000 0000 0000 0002")
    card.get_by_label("Expiry date (MM/YY)").fill("12/34")
    card.get_by_role("button", name="Save card").click()
    expect(card.get_by_text("Your card was declined.")).to_be_visible()
    card.get_by_label("Card number").fill("4242 4242 4242 4242")
    card.get_by_role("button", name="Save card").click()
    expect(card.get_by_test_id("saved-card")).to_contain_text("Visa •••• 4242")
    expect(card.get_by_test_id("saved-card")).to_contain_text("expires 12/2034")
    assert_no_axe_violations(page)
    assert SavedCard.objects.get(user=client_user).last4 == "4242"

    # The helper accepts the series: each visit is charged when it is booked.
    helper = APIClient()
    helper.force_login(verified_provider.user)
    assert helper.post(f"/api/service-requests/{request.pk}/accept", {}, format="json").status_code == 201
    visits = list(Booking.objects.filter(service_request=request).order_by("series_index"))
    assert [(v.status, v.payment_status) for v in visits] == [(BookingStatus.CONFIRMED, PaymentStatus.PAID)] * 3

    # A later booking, charged when it is confirmed (its charge still to be made): no Pay now either.
    later = BookingFactory(service_request__client=client_user, service_request__title="Garden help")
    saved = SavedCard.objects.get(user=client_user)
    VisitCharge.objects.create(
        booking=later,
        card=saved,
        payer=client_user,
        gateway=saved.gateway,
        card_label=saved.label,
        amount_cents=3000,
        idempotency_key=cards.visit_charge_key(later.pk),
    )

    page.goto(f"{live_server.url}/dashboard")
    items = page.get_by_test_id("booking-item")
    expect(page.get_by_test_id("auto-charge-note").filter(has_text="Paid with Visa •••• 4242")).to_have_count(3)
    pending = items.filter(has_text="Garden help")
    expect(pending.get_by_test_id("status-note")).to_have_text("Will be charged to Visa •••• 4242 when confirmed")
    expect(page.get_by_role("link", name="Pay now")).to_have_count(0)
    assert_no_axe_violations(page)

    # A plain member of the circle reads nothing of the card.
    sign_in_browser(page, live_server.url, member)
    page.goto(f"{live_server.url}/dashboard")
    expect(page.get_by_test_id("booking-item").first).to_be_visible()
    expect(page.get_by_text("4242")).to_have_count(0)
    page.goto(f"{live_server.url}/settings")
    expect(page.get_by_role("heading", name="Payment method")).to_have_count(0)
