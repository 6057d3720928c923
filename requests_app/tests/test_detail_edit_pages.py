"""The request details and edit pages: guards, the island and its props (screens-2)."""

import pytest

from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/service-request-details?id=1", "/edit-service-request?id=1"])
def test_signed_out_visitor_is_sent_to_login(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"].startswith("/login?next=")


def test_details_page_passes_the_id_and_the_viewer_without_a_provider_profile(client, client_user):
    client.force_login(client_user)
    response = client.get("/service-request-details?id=42")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/dist/assets/service-request-details-" in html
    props = island_props(html, "service-request-details-props")
    assert props["requestId"] == "42"
    assert props["viewer"] == {"id": client_user.id, "firstName": "Clara", "userType": "client", "provider": None}


def test_details_page_without_id_passes_none(client, client_user):
    client.force_login(client_user)
    props = island_props(client.get("/service-request-details").content.decode(), "service-request-details-props")
    assert props["requestId"] is None


def test_details_page_tells_the_island_about_a_pending_provider_profile(client, provider_user):
    client.force_login(provider_user)
    props = island_props(client.get("/service-request-details?id=7").content.decode(), "service-request-details-props")
    assert props["viewer"]["provider"] == {"id": provider_user.provider.id, "verificationStatus": "pending"}


def test_details_page_tells_the_island_about_a_verified_provider(client, verified_provider):
    client.force_login(verified_provider.user)
    props = island_props(client.get("/service-request-details?id=7").content.decode(), "service-request-details-props")
    assert props["viewer"]["provider"]["verificationStatus"] == "verified"


def test_edit_page_passes_the_id_and_the_six_categories(client, client_user):
    client.force_login(client_user)
    response = client.get("/edit-service-request?id=5")
    assert response.status_code == 200
    html = response.content.decode()
    assert "/static/dist/assets/edit-service-request-" in html
    props = island_props(html, "edit-service-request-props")
    assert props["requestId"] == "5"
    assert [c["name"] for c in props["categories"]][:2] == ["Technology Support", "Wellness Checks"]
    assert len(props["categories"]) == 6


def test_pages_load_only_their_own_island(client, client_user):
    client.force_login(client_user)
    html = client.get("/edit-service-request?id=5").content.decode()
    assert "service-request-details-" not in html
    assert "landing-" not in html
