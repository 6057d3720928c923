"""The API answers in the reader's language (docs/i18n.md): a Spanish account reads its 400, 403,
404 and 409 bodies in Spanish, an English one in English, from the same endpoints. Kindly's own
messages come from the catalogue (locale/es), DRF's and Django's from theirs; "Unauthorized" stays
the word the pages recognise."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from accounts.api.serializers import SessionInputSerializer
from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from circles.models import CircleRole
from circles.tests.factories import CircleMemberFactory
from core.api import input_limits
from marketplace.testing.api import call
from marketplace.testing.firebase import emulator_id_token, emulator_user
from requests_app.api.serializers import ServiceRequestCreateSerializer

pytestmark = pytest.mark.django_db


@pytest.fixture
def booking(client_user):
    return BookingFactory(service_request__client=client_user, status=BookingStatus.COMPLETED)


def _as(client, user, language: str):
    user.language = language
    user.save(update_fields=["language"])
    client.force_login(user)
    return client


def test_a_409_is_in_spanish_for_a_spanish_reader_and_english_for_an_english_one(client, client_user, booking):
    spanish = call(_as(client, client_user, "es"), "POST", f"/api/bookings/{booking.pk}/cancel", {})
    english = call(_as(client, client_user, "en"), "POST", f"/api/bookings/{booking.pk}/cancel", {})

    assert spanish.status_code == english.status_code == 409
    assert spanish.json() == {
        "message": "Solo se pueden cancelar las reservas en estado scheduled o confirmed; "
        "esta está en estado completed.",
        "errors": {},
    }
    assert english.json()["message"] == (
        "Only scheduled or confirmed bookings can be cancelled; this one is completed."
    )


def test_a_403_for_a_member_who_is_not_an_organizer_is_in_her_language(client, booking):
    member = UserFactory(first_name="Marta")
    CircleMemberFactory(recipient=booking.recipient, user=member, role=CircleRole.MEMBER)

    spanish = call(_as(client, member, "es"), "POST", f"/api/bookings/{booking.pk}/cancel", {})
    english = call(_as(client, member, "en"), "POST", f"/api/bookings/{booking.pk}/cancel", {})

    assert spanish.status_code == english.status_code == 403
    assert spanish.json()["message"] == ("Solo un organizador de este círculo de cuidado puede cancelar esta reserva.")
    assert english.json()["message"] == "Only an organizer of this care circle can cancel this booking."


def test_a_404_for_someone_elses_booking_is_in_her_language(client, booking):
    stranger = UserFactory()

    spanish = call(_as(client, stranger, "es"), "POST", f"/api/bookings/{booking.pk}/cancel", {})
    english = call(_as(client, stranger, "en"), "POST", f"/api/bookings/{booking.pk}/cancel", {})

    assert (spanish.status_code, english.status_code) == (404, 404)
    assert spanish.json()["message"] == "No encontramos la reserva."
    assert english.json()["message"] == "Booking not found."


def test_a_400_names_each_field_in_her_language_with_drfs_own_words_translated(client, client_user):
    booking = BookingFactory(service_request__client=client_user)
    body = {"reason": 42, "refund": True}

    spanish = call(_as(client, client_user, "es"), "POST", f"/api/bookings/{booking.pk}/cancel", body)
    english = call(_as(client, client_user, "en"), "POST", f"/api/bookings/{booking.pk}/cancel", body)

    assert spanish.status_code == english.status_code == 400
    assert spanish.json()["errors"]["refund"] == ["Campo desconocido."]
    assert english.json()["errors"]["refund"] == ["Unknown field."]


def test_drfs_own_messages_come_from_its_spanish_catalogue(client, client_user):
    booking = BookingFactory(service_request__client=client_user)

    spanish = call(_as(client, client_user, "es"), "POST", f"/api/bookings/{booking.pk}/cancel", {"reason": 42})
    english = call(_as(client, client_user, "en"), "POST", f"/api/bookings/{booking.pk}/cancel", {"reason": 42})

    assert spanish.status_code == english.status_code == 400
    assert english.json()["message"] == "Not a valid string."
    assert spanish.json()["message"] == "No es una cadena válida."
    assert spanish.json()["errors"] == {"reason": ["No es una cadena válida."]}


def test_a_field_limit_names_its_label_in_the_readers_language_each_time_it_is_read():
    """Fields are built once, at import; their words (label, limit) are read per language, and the
    form's copy of them (input_limits) is kept one per language."""
    with translation.override("es"):
        spanish = input_limits(SessionInputSerializer)["firstName"]["maxLengthMessage"]
        service_rule = input_limits(ServiceRequestCreateSerializer)["title"]["maxLengthMessage"]
    with translation.override("en"):
        english = input_limits(SessionInputSerializer)["firstName"]["maxLengthMessage"]

    assert spanish == "Nombre: puede tener como máximo 150 caracteres."
    assert english == "First name can be at most 150 characters."
    assert service_rule == "El título puede tener como máximo 200 caracteres."


def test_a_request_in_spanish_from_a_signed_out_browser_still_reads_unauthorized(client):
    response = client.get("/api/bookings", HTTP_ACCEPT_LANGUAGE="es")

    assert response.status_code == 401
    assert response.json() == {"message": "Unauthorized", "errors": {}}


def test_an_api_client_with_a_bearer_token_reads_its_users_language(client, firebase_auth, booking):
    """A token's user is known only once DRF authenticates it (no session for the middleware)."""
    emulator_user("lucia@example.com", "secret-pass-1", "Lucía Gómez")
    token = emulator_id_token("lucia@example.com", "secret-pass-1")
    signed_up = client.post("/api/auth/session", {"idToken": token, "language": "es"}, content_type="application/json")
    assert signed_up.status_code == 200, signed_up.content

    response = Client().post(
        f"/api/bookings/{booking.pk}/cancel", {}, content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {token}"
    )

    assert response.status_code == 404
    assert response.json()["message"] == "No encontramos la reserva."
