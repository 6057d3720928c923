"""A care recipient has her own language (CareRecipient.language): what her helper is chosen to
speak. It starts as the language of whoever adds her; an organizer changes it, a member cannot."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.tests.factories import UserFactory
from circles.models import CareRecipient
from circles.services import recipient_for_self

pytestmark = pytest.mark.django_db

JSON = "application/json"


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def test_a_new_recipient_starts_in_the_language_of_whoever_adds_her(client_user):
    client_user.language = "es"
    client_user.save(update_fields=["language"])

    created = as_user(client_user).post("/api/care-recipients", {"firstName": "Rosa"}, content_type=JSON)

    assert created.status_code == 201
    assert created.json()["language"] == "es"


def test_a_language_given_when_adding_her_wins(client_user):
    created = as_user(client_user).post(
        "/api/care-recipients", {"firstName": "Rosa", "language": "es"}, content_type=JSON
    )

    assert created.status_code == 201
    assert CareRecipient.objects.get(pk=created.json()["id"]).language == "es"


def test_the_person_who_signs_up_for_herself_keeps_her_own_language():
    rosa = UserFactory(first_name="Rosa", language="es")

    assert recipient_for_self(user=rosa).language == "es"


def test_an_organizer_sets_her_language(circle, client_user):
    response = as_user(client_user).patch(f"/api/care-recipients/{circle.pk}", {"language": "es"}, content_type=JSON)

    assert response.status_code == 200
    assert response.json()["language"] == "es"
    circle.refresh_from_db()
    assert circle.language == "es"


def test_a_language_kindly_does_not_speak_is_a_400(circle, client_user):
    response = as_user(client_user).patch(f"/api/care-recipients/{circle.pk}", {"language": "xx"}, content_type=JSON)

    assert response.status_code == 400
    assert response.json()["errors"] == {"language": ["Choose English or Español."]}
    circle.refresh_from_db()
    assert circle.language == "en"


def test_a_member_cannot_change_it_and_an_outsider_does_not_see_her(circle, bob, outsider):
    assert (
        as_user(bob).patch(f"/api/care-recipients/{circle.pk}", {"language": "es"}, content_type=JSON).status_code
        == 403
    )
    assert (
        as_user(outsider).patch(f"/api/care-recipients/{circle.pk}", {"language": "es"}, content_type=JSON).status_code
        == 404
    )
    circle.refresh_from_db()
    assert circle.language == "en"
