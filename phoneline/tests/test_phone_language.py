"""The phone menu and the reminders speak the language of the person cared for
(CareRecipient.language): a Spanish speaker hears Spanish in an es-US voice, and the menu listens
for Spanish words; an English speaker hears the menu as before (en-US). Through Twilio's signed
webhooks, as Twilio runs them (marketplace/testing/twilio.py)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from urllib.parse import urlsplit

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core.notices import phone as words
from marketplace.testing.twilio import MenuCall
from phoneline import tasks
from phoneline.models import PhoneConfirmation
from providers.tests.factories import VerifiedProviderFactory

ROSA = "+15552013344"
EASTERN = zoneinfo.ZoneInfo("America/New_York")
EVENING = dt.datetime(2026, 12, 1, 18, 0, tzinfo=EASTERN)  # the evening before Wednesday's visit


def _recipient(client_user, language: str) -> CareRecipient:
    rosa = CareRecipient.objects.create(
        first_name="Rosa", last_name="Díaz", phone="555-201-3344", language=language, time_zone="America/New_York"
    )
    CircleMember.objects.create(recipient=rosa, user=client_user, role=CircleRole.ORGANIZER)
    return rosa


def _visit(client_user, rosa, day: dt.date):
    return BookingFactory(
        service_request__client=client_user,
        service_request__recipient=rosa,
        service_request__title="Ayuda con la tableta",
        service_request__preferred_date=day,
        service_request__preferred_time="afternoon",
        provider=VerifiedProviderFactory(user__first_name="Vera"),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )


def _set_pin(client_user, rosa) -> None:
    organizer = Client()
    organizer.force_login(client_user)
    response = organizer.put(
        f"/api/care-recipients/{rosa.pk}/phone-pin", {"pin": "2580"}, content_type="application/json"
    )
    assert response.status_code == 200, response.content


@pytest.mark.django_db
def test_a_spanish_speaker_hears_the_menu_in_spanish_in_an_es_us_voice(client_user, phone_lines):
    rosa = _recipient(client_user, "es")
    _set_pin(client_user, rosa)
    booking = _visit(client_user, rosa, timezone.localdate() + dt.timedelta(days=5))
    call = MenuCall(Client(), from_=ROSA)

    first = call.start()
    assert first.said == ["Hola. Le habla Kindly.", "Por favor, marque su PIN de cuatro cifras."]
    assert set(first.languages) == {"es-US"}
    menu = call.press("2580")
    assert menu.said[-1].startswith("Para oír sus próximas visitas, marque 1.")
    assert menu.gather_language == "es-US" and set(menu.languages) == {"es-US"}

    # She says what she wants in Spanish: "confirmar" is key 2.
    ask = call.speak("quiero confirmar")
    assert ask.said[0].startswith("Su próxima visita es el ")
    assert "por la tarde, con Vera, para ayudar con Ayuda con la tableta" in ask.said[0]
    assert ask.said[0].endswith("Para confirmarla, marque 1. Para volver, marque 9.")
    done = call.press("1")
    assert done.said[0] == "Gracias. Su visita está confirmada. Se lo dijimos a Vera y a su familia."
    assert PhoneConfirmation.objects.filter(booking=booking).exists()


@pytest.mark.django_db
def test_an_english_speaker_hears_the_menu_in_english_as_before(client_user, phone_lines):
    rosa = _recipient(client_user, "en")
    _set_pin(client_user, rosa)
    call = MenuCall(Client(), from_=ROSA)

    first = call.start()
    assert (
        first.said == [words.GREETING, words.ASK_PIN] == ["Hello. This is Kindly.", "Please type your four digit PIN."]
    )
    assert set(first.languages) == {"en-US"}
    menu = call.press("2580")
    assert menu.said[-1] == words.MENU and menu.gather_language == "en-US"


@pytest.mark.django_db
def test_an_unknown_caller_hears_english(phone_lines):
    started = MenuCall(Client(), from_="+15559990000").start()
    assert started.said[0] == "Hello. This is Kindly." and set(started.languages) == {"en-US"}


@pytest.fixture
def spanish_visit(db, client_user, phone_lines):
    with time_machine.travel(EVENING - dt.timedelta(days=3), tick=False):
        rosa = _recipient(client_user, "es")
        organizer = Client()
        organizer.force_login(client_user)
        return organizer, rosa, _visit(client_user, rosa, dt.date(2026, 12, 2))


def test_the_reminder_call_the_evening_before_is_in_her_language(spanish_visit, phone_lines):
    organizer, rosa, _booking = spanish_visit
    organizer.put(f"/api/care-recipients/{rosa.pk}/phone-reminder", {"by": "call"}, content_type="application/json")
    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 1
        placed = phone_lines.calls[-1]
        url = urlsplit(placed["Url"])
        call = MenuCall(Client(), from_="+15005550006", to=ROSA, sid=placed["sid"])
        asked = call.post(f"{url.path}?{url.query}")
        assert asked.said[0].startswith(
            "Hola, Rosa. Le habla Kindly. Mañana tiene una visita: el miércoles 2 de diciembre, por la tarde, con Vera"
        )
        assert asked.gather_language == "es-US" and set(asked.languages) == {"es-US"}
        assert call.press("1").said == ["Gracias. Su visita está confirmada. Se lo dijimos a Vera y a su familia."]


def test_the_reminder_text_is_in_her_language(spanish_visit, phone_lines):
    organizer, rosa, _booking = spanish_visit
    organizer.put(f"/api/care-recipients/{rosa.pk}/phone-reminder", {"by": "text"}, content_type="application/json")
    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 1
    [text] = phone_lines.sent
    assert text["To"] == ROSA
    assert text["Body"].startswith(
        "Kindly: Tiene una visita mañana, el miércoles 2 de diciembre, por la tarde, con Vera"
    )
    assert text["Body"].endswith("Responda STOP para no recibir más mensajes.")  # the channel's words, hers too
