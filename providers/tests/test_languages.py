"""The languages a helper speaks (Provider.languages): given when she applies and changed on her
profile, shown as "Speaks English, Spanish" (in the reader's language) on her cards and profile,
and a browse filter (?language=es)."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from marketplace.testing.api import call, valid_application_body
from providers.models import Provider
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory

pytestmark = pytest.mark.django_db


def _browse(client, query: str = "", **headers):
    response = client.get(f"/api/providers{query}", **headers)
    assert response.status_code == 200, response.content
    body = response.json()
    return body["results"] if isinstance(body, dict) else body


# ---------------------------------------------------------------- applying and changing


def test_she_says_which_languages_she_speaks_when_she_applies(client):
    user = UserFactory()
    client.force_login(user)

    response = call(client, "POST", "/api/provider/profile", valid_application_body(languages=["es", "en"]))

    assert response.status_code == 201, response.content
    assert response.json()["languages"] == ["es", "en"]
    assert response.json()["speaks"] == "Speaks Spanish, English"
    assert Provider.objects.get(user=user).languages == ["es", "en"]


def test_an_application_without_languages_speaks_english(client):
    client.force_login(UserFactory())

    response = call(client, "POST", "/api/provider/profile", valid_application_body())

    assert response.status_code == 201, response.content
    assert response.json()["languages"] == ["en"]


@pytest.mark.parametrize(
    ("languages", "message"),
    [
        (["xx"], "Choose the languages you speak from the list."),
        (["es", "es"], "List each language once."),
        ([], "Choose at least one language you speak."),
        ("es", "Choose the languages you speak from the list."),
    ],
)
def test_languages_not_on_the_list_are_a_400_naming_the_field(client, languages, message):
    user = UserFactory()
    client.force_login(user)

    response = call(client, "POST", "/api/provider/profile", valid_application_body(languages=languages))

    assert response.status_code == 400, response.content
    assert response.json()["errors"]["languages"] == [message]
    assert not Provider.objects.filter(user=user).exists()


def test_she_changes_her_languages_on_her_profile(client):
    provider = ProviderFactory(languages=["en"])
    client.force_login(provider.user)

    response = call(client, "PATCH", "/api/provider/profile", {"languages": ["en", "vi"]})

    assert response.status_code == 200, response.content
    assert response.json()["speaks"] == "Speaks English, Vietnamese"
    provider.refresh_from_db()
    assert provider.languages == ["en", "vi"]


def test_a_change_of_languages_that_breaks_the_rule_changes_nothing(client):
    provider = ProviderFactory(languages=["en"], travel_miles=10)
    client.force_login(provider.user)

    response = call(client, "PATCH", "/api/provider/profile", {"languages": ["zz"], "travelMiles": 20})

    assert response.status_code == 400
    assert response.json()["errors"]["languages"] == ["Choose the languages you speak from the list."]
    provider.refresh_from_db()
    assert (provider.languages, provider.travel_miles) == (["en"], 10)


def test_only_a_provider_sets_her_languages(client):
    client.force_login(UserFactory())

    response = call(client, "PATCH", "/api/provider/profile", {"languages": ["es"]})

    assert response.status_code == 403


# ---------------------------------------------------------------- browse and the profile


@pytest.mark.sqlite
def test_browse_filters_by_a_language_she_speaks(client):
    lucia = VerifiedProviderFactory(languages=["es", "en"])
    rosa = VerifiedProviderFactory(languages=["es"])
    VerifiedProviderFactory(languages=["en"])
    VerifiedProviderFactory(languages=["en", "fr"])

    spanish = _browse(client, "?language=es")

    assert sorted(card["id"] for card in spanish) == sorted([lucia.pk, rosa.pk])
    assert len(_browse(client)) == 4
    assert [card["id"] for card in _browse(client, "?language=vi")] == []


def test_an_unknown_language_filter_is_a_400(client):
    response = client.get("/api/providers?language=klingon")

    assert response.status_code == 400
    assert response.json()["errors"]["language"] == ["Please choose a language from the list."]


def test_cards_say_what_she_speaks_in_the_readers_language(client):
    VerifiedProviderFactory(languages=["en", "es"])

    [english] = _browse(client)
    [spanish] = _browse(client, "", HTTP_ACCEPT_LANGUAGE="es")

    assert english["languages"] == ["en", "es"]
    assert english["speaks"] == "Speaks English, Spanish"
    # The same page cached for English is not served to a Spanish reader (one value per language).
    assert spanish["speaks"] == "Habla inglés, español"


def test_her_profile_says_what_she_speaks(client):
    helper = VerifiedProviderFactory(languages=["es", "en"])
    client.force_login(UserFactory(language="es"))

    response = client.get(f"/api/providers/{helper.pk}/profile")

    assert response.status_code == 200
    assert response.json()["languages"] == ["es", "en"]
    assert response.json()["speaks"] == "Habla español, inglés"
