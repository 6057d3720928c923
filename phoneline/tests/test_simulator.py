"""The phone simulator page without a browser: staff only, DEBUG only, and a call played through
the same signed webhooks (a forged token would fail them)."""

from __future__ import annotations

import pytest
from django.test import Client

from circles.models import CareRecipient, CircleMember, CircleRole
from core.notices import phone as words
from phoneline import services
from phoneline.models import StaffVoicemail


@pytest.fixture
def harold(db, client_user, settings):
    settings.DEBUG = True
    settings.TWILIO_AUTH_TOKEN = "dev-auth-token"
    settings.TWILIO_FROM_NUMBER = "+15005550006"
    harold = CareRecipient.objects.create(first_name="Harold", last_name="Smith", phone="555-201-3344")
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    services.pin_set(actor=client_user, recipient_id=harold.pk, pin="2580")
    return harold


def test_the_simulator_is_for_staff_under_debug_only(client_user, admin_user, harold, settings):
    client = Client()
    assert client.get("/phone-simulator").status_code == 302  # signed out: to sign in
    client.force_login(client_user)
    assert client.get("/phone-simulator").status_code == 302  # not staff: sent home
    client.force_login(admin_user)
    page = client.get("/phone-simulator")
    assert page.status_code == 200 and b"Harold Smith" in page.content
    assert b"201-3344" not in page.content and b"2013344" not in page.content  # names only, never his number
    settings.DEBUG = False
    assert client.get("/phone-simulator").status_code == 404


def test_a_simulated_call_goes_through_the_signed_webhooks(admin_user, harold):
    staff = Client()
    staff.force_login(admin_user)
    staff.post("/phone-simulator", {"action": "call", "caller": str(harold.pk)})
    staff.post("/phone-simulator", {"action": "key", "key": "2580"})
    staff.post("/phone-simulator", {"action": "say", "words": "when is my next visit"})
    heard = staff.get("/phone-simulator").content.decode()
    assert str(words.MENU) in heard and str(words.NO_VISITS) in heard
    staff.post("/phone-simulator", {"action": "key", "key": "0"})
    staff.post("/phone-simulator", {"action": "say", "words": "Please call me back"})
    assert str(words.MESSAGE_SAVED) in staff.get("/phone-simulator").content.decode()
    assert StaffVoicemail.objects.get().transcription == "Please call me back"
    staff.post("/phone-simulator", {"action": "hang-up"})
    staff.post("/phone-simulator", {"action": "call", "caller": "unknown"})
    assert str(words.UNKNOWN_CALLER) in staff.get("/phone-simulator").content.decode()


def test_the_evening_reminder_call_rings_on_the_page_and_1_confirms_the_visit(admin_user, client_user, harold):
    import datetime as dt

    from django.utils import timezone
    from django.utils.html import escape

    from bookings.models import BookingStatus, PaymentStatus
    from bookings.tests.factories import BookingFactory
    from phoneline.models import PhoneConfirmation, ReminderBy, ReminderCall
    from phoneline.simulator import NO_REMINDER
    from providers.tests.factories import VerifiedProviderFactory

    booking = BookingFactory(
        service_request__client=client_user,
        service_request__recipient=harold,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
        provider=VerifiedProviderFactory(user__first_name="Vera"),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    staff = Client()
    staff.force_login(admin_user)
    staff.post("/phone-simulator", {"action": "reminder", "caller": str(harold.pk)})
    page = staff.get("/phone-simulator").content.decode()
    assert escape(NO_REMINDER.format(name="Harold")) in page  # no reminders chosen: nothing rings
    assert not ReminderCall.objects.exists()

    services.reminder_choice_set(actor=client_user, recipient_id=harold.pk, by=ReminderBy.CALL)
    staff.post("/phone-simulator", {"action": "reminder", "caller": str(harold.pk)})
    heard = staff.get("/phone-simulator").content.decode()
    assert "Harold" in heard and "press 1" in heard
    staff.post("/phone-simulator", {"action": "key", "key": "1"})
    assert words.CONFIRMED.format(helper="Vera") in staff.get("/phone-simulator").content.decode()
    assert PhoneConfirmation.objects.filter(booking=booking).exists()
    assert ReminderCall.objects.get(booking=booking).outcome == "confirmed"
