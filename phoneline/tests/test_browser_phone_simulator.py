"""The phone simulator in Chromium (make run's way to try the phone menu): a staff member calls as
Harold, types his PIN, hears his next visit and confirms it; the page is axe clean, keyboard and
44 px friendly at 390 px, and the helper's line then says "Confirmed by phone"."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core.notices import phone as words
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.tests.test_browser_accessibility import _LAYOUT_PROBLEMS
from phoneline import services
from phoneline.models import PhoneConfirmation
from providers.tests.factories import VerifiedProviderFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOT = "/tmp/h4_phone_simulator_390.png"


@pytest.fixture
def harold(client_user, settings):
    settings.DEBUG = True
    settings.TWILIO_AUTH_TOKEN = "dev-auth-token"
    settings.TWILIO_FROM_NUMBER = "+15005550006"
    harold = CareRecipient.objects.create(first_name="Harold", last_name="Smith", phone="555-201-3344")
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    services.pin_set(actor=client_user, recipient_id=harold.pk, pin="2580")
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__recipient=harold,
        service_request__title="Tablet help",
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=4),
        service_request__preferred_time="afternoon",
        provider=VerifiedProviderFactory(user__first_name="Vera"),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    return booking


def _audit(page: Page, label: str, problems: list[str]) -> None:
    found = axe_violations(page)
    if found:
        problems.append(f"{label}:\n{format_violations(found)}")
    layout = page.evaluate(_LAYOUT_PROBLEMS)
    if layout:
        problems.append(f"{label} layout: {layout}")


def test_a_call_as_harold_hears_his_next_visit_and_confirms_it(live_server, page: Page, admin_user, harold):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, admin_user)
    page.goto(live_server.url + "/phone-simulator", wait_until="networkidle")
    problems: list[str] = []
    _audit(page, "start", problems)

    page.get_by_label("Call +15005550006 as").select_option(label="Harold Smith")
    page.get_by_role("button", name="Call Kindly").click()
    heard = page.get_by_test_id("simulator-heard")
    expect(heard).to_contain_text(str(words.ASK_PIN))
    page.get_by_label("Keys to type").fill("2580")
    page.get_by_label("Keys to type").press("Enter")  # the keyboard alone
    expect(heard).to_contain_text("To hear your next visits, press 1.")
    _audit(page, "menu", problems)

    page.get_by_role("button", name="Press 1").click()
    expect(heard).to_contain_text("in the afternoon, Vera, to help with Tablet help")
    page.get_by_role("button", name="Press 2").click()
    expect(heard).to_contain_text("To confirm it, press 1.")
    page.get_by_role("button", name="Press 1").click()
    expect(heard).to_contain_text(words.CONFIRMED.format(helper="Vera"))
    _audit(page, "confirmed", problems)
    page.screenshot(path=SHOT, full_page=True)
    assert not problems, "\n".join(problems)
    assert PhoneConfirmation.objects.filter(booking=harold).exists()

    # The helper reads it on the booking's page, one tap from her dashboard.
    sign_in_browser(page, live_server.url, harold.provider.user)
    page.goto(live_server.url + "/")
    page.get_by_test_id("booking-item").filter(has_text="Tablet help").get_by_test_id("booking-details").click()
    expect(page.get_by_test_id("confirmed-by-phone")).to_have_text("Confirmed by phone")
