"""/request-service: the guard, the side cards and the form's props."""

import pytest
import time_machine
from django.utils import timezone

from marketplace.testing.pages import island_props
from requests_app.models import ServiceCategory

pytestmark = pytest.mark.django_db


def test_signed_out_visitor_is_sent_to_login(client):
    response = client.get("/request-service")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Frequest-service"


def test_client_gets_the_form_with_active_categories_and_the_pricing_card(client, client_user):
    ServiceCategory.objects.filter(slug="home-organization").update(is_active=False)
    client.force_login(client_user)
    response = client.get("/request-service")
    html = response.content.decode()
    assert response.status_code == 200
    assert "/static/dist/assets/request-service-" in html
    for text in ("How It Works", "Safety &amp; Trust", "Typical Pricing", "$30-40/hour", "$25-35/hour", "$20-30/hour"):
        assert text in html
    props = island_props(response, "request-service-props")
    names = [c["name"] for c in props["categories"]]
    assert "Home Organization" not in names
    assert names[0] == "Technology Support" and len(names) == 5
    assert props["canRequest"] is True


def test_earliest_date_is_today_in_the_site_time_zone(client, client_user, settings):
    settings.TIME_ZONE = "America/New_York"
    # 02:30 UTC on the 10th is still the 9th in New York.
    with time_machine.travel("2026-12-10T02:30:00Z", tick=False):
        client.force_login(client_user)
        props = island_props(client.get("/request-service"), "request-service-props")
        assert props["today"] == "2026-12-09" == timezone.localdate().isoformat()


def test_provider_account_is_told_to_switch_before_requesting(client, verified_provider):
    client.force_login(verified_provider.user)
    props = island_props(client.get("/request-service"), "request-service-props")
    assert props["canRequest"] is False
