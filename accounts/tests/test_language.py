"""A person's language (User.language): chosen at sign-up (the card, else the browser), changed on
/settings or through the API, and the language every page speaks to them in once signed in."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages

from accounts.models import User
from accounts.tests.factories import UserFactory
from marketplace.testing.firebase import emulator_id_token, emulator_user
from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-1"


def _sign_up(client, email, body=None, **headers):
    emulator_user(email, PASSWORD, "Ana Ruiz")
    token = emulator_id_token(email, PASSWORD)
    return client.post(
        "/api/auth/session", {"idToken": token, **(body or {})}, content_type="application/json", **headers
    )


# ---------------------------------------------------------------- sign-up


def test_the_sign_up_card_choice_is_the_new_accounts_language(client, firebase_auth):
    response = _sign_up(client, "ana@example.com", {"language": "es"}, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")

    assert response.status_code == 200, response.content
    assert response.json()["language"] == "es"
    assert User.objects.get(email="ana@example.com").language == "es"


def test_without_a_choice_the_browsers_language_is_the_default(client, firebase_auth):
    response = _sign_up(client, "luz@example.com", HTTP_ACCEPT_LANGUAGE="es-MX,es;q=0.9,en;q=0.5")

    assert response.status_code == 200, response.content
    assert User.objects.get(email="luz@example.com").language == "es"


def test_a_browser_in_a_language_kindly_does_not_speak_gets_english(client, firebase_auth):
    _sign_up(client, "kim@example.com", HTTP_ACCEPT_LANGUAGE="ko-KR,ko;q=0.9")

    assert User.objects.get(email="kim@example.com").language == "en"


def test_a_later_sign_in_never_changes_the_chosen_language(client, firebase_auth):
    _sign_up(client, "eva@example.com", {"language": "es"})
    client.post("/api/auth/logout")
    token = emulator_id_token("eva@example.com", PASSWORD)

    client.post("/api/auth/session", {"idToken": token}, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")

    assert User.objects.get(email="eva@example.com").language == "es"


def test_an_unknown_language_at_sign_up_is_a_400_in_plain_words(client, firebase_auth):
    response = _sign_up(client, "max@example.com", {"language": "fr"})

    assert response.status_code == 400
    assert response.json()["errors"] == {"language": ["Choose English or Español."]}
    assert not User.objects.filter(email="max@example.com").exists()


def test_the_sign_up_card_starts_at_the_browsers_language(client):
    response = client.get("/login?mode=signup", HTTP_ACCEPT_LANGUAGE="es-US,es;q=0.9")

    props = island_props(response, "login-props")
    assert props["language"] == "es"
    assert props["languages"] == [{"value": "en", "label": "English"}, {"value": "es", "label": "Español"}]


# ---------------------------------------------------------------- the API


def test_put_language_changes_it_and_answers_the_profile(client):
    user = UserFactory(language="en")
    client.force_login(user)

    response = client.put("/api/auth/language", {"language": "es"}, content_type="application/json")

    assert response.status_code == 200
    assert response.json()["language"] == "es"
    user.refresh_from_db()
    assert user.language == "es"
    assert client.get("/api/auth/user").json()["language"] == "es"


@pytest.mark.parametrize("body", [{"language": "de"}, {"language": ""}, {}, {"language": None}])
def test_put_language_refuses_what_kindly_does_not_speak(client, body):
    user = UserFactory(language="en")
    client.force_login(user)

    response = client.put("/api/auth/language", body, content_type="application/json")

    assert response.status_code == 400
    assert response.json() == {
        "message": "Choose English or Español.",
        "errors": {"language": ["Choose English or Español."]},
    }
    user.refresh_from_db()
    assert user.language == "en"


def test_put_language_needs_a_session(client):
    assert client.put("/api/auth/language", {"language": "es"}, content_type="application/json").status_code in (
        401,
        403,
    )


# ---------------------------------------------------------------- pages


def test_a_signed_in_persons_choice_wins_over_the_browser(client):
    client.force_login(UserFactory(language="es"))

    response = client.get("/settings", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9")

    html = response.content.decode()
    assert response["Content-Language"] == "es"
    assert '<html lang="es">' in html
    assert "<h1>Ajustes</h1>" in html
    assert "Ir al contenido principal" in html  # the layout too
    assert "<h1>Settings</h1>" not in html


def test_an_english_speaker_reads_english_whatever_the_browser_says(client):
    client.force_login(UserFactory(language="en"))

    response = client.get("/settings", HTTP_ACCEPT_LANGUAGE="es")

    html = response.content.decode()
    assert '<html lang="en">' in html and "<h1>Settings</h1>" in html


def test_a_visitor_reads_the_browsers_language(client):
    response = client.get("/privacy-policy", HTTP_ACCEPT_LANGUAGE="es-MX,es;q=0.9")

    html = response.content.decode()
    assert '<html lang="es">' in html
    assert "Política de privacidad" in html  # the footer
    assert "Buscar ayudantes" in html  # the visitor's nav


def test_the_settings_page_offers_the_language_form_with_the_current_choice(client):
    client.force_login(UserFactory(language="es"))

    html = client.get("/settings").content.decode()

    assert 'action="/settings/language"' in html
    assert '<option value="es" lang="es" selected>Español</option>' in html
    assert '<option value="en" lang="en">English</option>' in html


def test_the_settings_form_saves_the_language_and_says_so_in_it(client):
    user = UserFactory(language="en")
    client.force_login(user)

    response = client.post("/settings/language", {"language": "es"})

    assert response.status_code == 302
    assert response["Location"] == "/settings#language"
    assert response.cookies["django_language"].value == "es"
    user.refresh_from_db()
    assert user.language == "es"
    [toast] = list(get_messages(response.wsgi_request))
    assert "Idioma guardado" in toast.extra_tags
    assert toast.message == "Kindly ahora le habla en español."
    assert "<h1>Ajustes</h1>" in client.get("/settings").content.decode()


def test_the_settings_form_refuses_an_unknown_language(client):
    user = UserFactory(language="en")
    client.force_login(user)

    response = client.post("/settings/language", {"language": "xx"})

    assert response.status_code == 302
    user.refresh_from_db()
    assert user.language == "en"


def test_the_settings_form_is_for_the_signed_in_only(client):
    response = client.post("/settings/language", {"language": "es"})

    assert response.status_code == 302 and response["Location"].startswith("/login")


def test_the_member_since_date_is_written_the_readers_way(client):
    client.force_login(UserFactory(language="es"))

    html = client.get("/settings").content.decode()

    assert " de 20" in html  # "26 de noviembre de 2026"
