"""Accounts input: names of spaces are no names, phone numbers need digits, limits in plain words."""

from __future__ import annotations

import pytest

from accounts.models import EmergencyContact, User
from accounts.services import clean_name
from accounts.tests.factories import EmergencyContactFactory, UserFactory
from circles.services import emergency_contact_create
from core.errors import InvalidInput
from marketplace.testing.firebase import emulator_id_token, emulator_user

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-1"
CONTACTS = "/api/emergency-contacts"
LETTERS = "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +."


def _session(client, body):
    return client.post("/api/auth/session", body, content_type="application/json")


def test_sign_up_names_of_spaces_become_empty_and_the_greeting_falls_back(client, firebase_auth):
    # What the sign-up form sent before it refused them: spaces, joined into the display name.
    emulator_user("sp@example.com", PASSWORD, "   ")
    token = emulator_id_token("sp@example.com", PASSWORD)

    response = _session(client, {"idToken": token, "firstName": "   ", "lastName": "\u00a0\u200b "})

    assert response.status_code == 200, response.content
    assert (response.json()["firstName"], response.json()["lastName"]) == ("", "")
    user = User.objects.get(email="sp@example.com")
    assert (user.first_name, user.last_name) == ("", "")
    assert "Welcome back, there!" in client.get("/dashboard").content.decode()


def test_the_token_display_name_is_trimmed(client, firebase_auth):
    emulator_user("tr@example.com", PASSWORD, "   Rosa    Parks  ")
    token = emulator_id_token("tr@example.com", PASSWORD)

    response = _session(client, {"idToken": token})

    assert response.status_code == 200, response.content
    assert (response.json()["firstName"], response.json()["lastName"]) == ("Rosa", "Parks")
    assert "Welcome back, Rosa!" in client.get("/dashboard").content.decode()


def test_a_blank_first_name_does_not_borrow_the_last_name_from_the_token(client, firebase_auth):
    emulator_user("ln@example.com", PASSWORD, "    Smith")
    token = emulator_id_token("ln@example.com", PASSWORD)

    response = _session(client, {"idToken": token, "firstName": "  ", "lastName": "Smith"})

    assert (response.json()["firstName"], response.json()["lastName"]) == ("", "Smith")


def test_a_stored_name_of_spaces_is_replaced_at_the_next_sign_in_and_not_greeted(client, firebase_auth):
    uid = emulator_user("old@example.com", PASSWORD, "Olga Ivanova")
    UserFactory(id=uid, email="old@example.com", first_name="   ", last_name=" ")
    client.force_login(User.objects.get(pk=uid))
    assert "Welcome back, there!" in client.get("/dashboard").content.decode()

    response = _session(client, {"idToken": emulator_id_token("old@example.com", PASSWORD)})

    assert (response.json()["firstName"], response.json()["lastName"]) == ("Olga", "Ivanova")


def test_sign_up_names_over_150_characters_get_a_plain_message(client, firebase_auth):
    emulator_user("long@example.com", PASSWORD)
    token = emulator_id_token("long@example.com", PASSWORD)
    response = _session(client, {"idToken": token, "firstName": "A" * 151, "lastName": "B"})
    assert response.status_code == 400
    assert response.json()["errors"] == {"firstName": ["First name can be at most 150 characters."]}


@pytest.mark.parametrize(
    ("value", "cleaned"),
    [("  Ann  ", "Ann"), ("Mary   Ann", "Mary Ann"), ("\u200b", ""), ("\t\n", ""), ("José", "José")],
)
def test_clean_name(value, cleaned):
    assert clean_name(value) == cleaned


@pytest.fixture
def signed_in(client, client_user):
    client.force_login(client_user)
    return client


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({"name": "Maya", "phone": "abcdefghijklmnop"}, "phone", LETTERS),
        ({"name": "Maya", "phone": "555-1234"}, "phone", "Phone number must be at least 10 digits"),
        ({"name": "Maya", "phone": "5" * 41}, "phone", "Phone number can be at most 40 characters."),
        ({"name": "   ", "phone": "555-123-4567"}, "name", "Name is required."),
        ({"name": "N" * 201, "phone": "555-123-4567"}, "name", "Name can be at most 200 characters."),
        (
            {"name": "Maya", "phone": "555-123-4567", "relationship": "r" * 101},
            "relationship",
            "Relationship can be at most 100 characters.",
        ),
    ],
)
def test_emergency_contact_input_answers_in_plain_words(signed_in, body, field, message):
    response = signed_in.post(CONTACTS, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {field: [message]}}
    assert not EmergencyContact.objects.exists()


def test_changing_a_contacts_phone_to_letters_is_refused(signed_in, client_user):
    contact = EmergencyContactFactory(user=client_user, phone="555-123-4567")
    response = signed_in.patch(f"{CONTACTS}/{contact.pk}", {"phone": "call my cell"}, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"] == {"phone": [LETTERS]}
    contact.refresh_from_db()
    assert contact.phone == "555-123-4567"


def test_the_service_refuses_a_contact_phone_of_letters(client_user):
    with pytest.raises(InvalidInput) as refused:
        emergency_contact_create(actor=client_user, name="Maya", phone="abcdefghijklmnop")
    assert refused.value.errors == {"phone": [LETTERS]}
    assert not EmergencyContact.objects.exists()
