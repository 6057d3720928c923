"""The six services' names are in each reader's language: a Spanish-speaking family reads
"Visitas de bienestar" in the request form's list and on her request; an English reader the names
as before; a service staff added keeps the name they gave it."""

import json
import re

import pytest

from accounts.models import UserType
from accounts.tests.factories import UserFactory
from requests_app.models import ServiceCategory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def _props(page: str, island: str) -> dict:
    found = re.search(rf'<script id="{island}-props" type="application/json">(.*?)</script>', page, re.S)
    assert found, page[:500]
    return json.loads(found.group(1))


@pytest.mark.parametrize(
    ("language", "expected"),
    [("es", ["Ayuda con la tecnología", "Visitas de bienestar"]), ("en", ["Technology Support", "Wellness Checks"])],
)
def test_the_request_form_lists_the_services_in_the_readers_language(client, language, expected):
    rosa = UserFactory(user_type=UserType.CLIENT, language=language)
    client.force_login(rosa)
    page = client.get("/request-service").content.decode()
    names = [c["name"] for c in _props(page, "request-service")["categories"]]
    assert names[:2] == expected


def test_her_request_names_its_service_in_spanish_and_a_new_service_keeps_its_name(client):
    rosa = UserFactory(user_type=UserType.CLIENT, language="es")
    wellness = ServiceCategory.objects.get(slug="wellness-checks")
    request = ServiceRequestFactory(client=rosa, category=wellness)
    client.force_login(rosa)
    assert client.get(f"/api/service-requests/{request.pk}").json()["serviceCategory"]["name"] == "Visitas de bienestar"
    garden = ServiceCategory.objects.create(slug="garden-help", name="Garden Help")
    assert garden.display_name == "Garden Help"
