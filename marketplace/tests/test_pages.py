"""The server-rendered shell: landing with its island props, the 404 page, the staff admin."""

import json

import pytest
from django.apps import apps
from django.contrib import admin

from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


def test_landing_renders_island_script_and_json_props(client):
    response = client.get("/landing")
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="landing-root"' in html
    assert '<script type="module"' in html and "/static/dist/assets/landing-" in html
    props = island_props(html, "landing-props")
    assert len(props["services"]) == 6
    assert props["services"][0]["name"] == "Technology Support"


def test_unknown_path_shows_the_spec_404_page(client):
    response = client.get("/no-such-page")
    assert response.status_code == 404
    html = response.content.decode()
    assert "404 Page Not Found" in html
    assert "Did you forget to add the page to the router?" in html


OUR_APPS = {
    "accounts",
    "circles",
    "providers",
    "requests_app",
    "bookings",
    "messaging",
    "payments",
    "adminpanel",
    "notifications",
}


def test_every_model_is_registered_in_the_django_admin():
    ours = OUR_APPS
    missing = [m.__name__ for m in apps.get_models() if m._meta.app_label in ours and not admin.site.is_registered(m)]
    assert missing == []


def test_staff_can_list_every_model_in_the_django_admin(client, admin_user):
    client.force_login(admin_user)
    ours = OUR_APPS
    for model in apps.get_models():
        if model._meta.app_label not in ours:
            continue
        url = f"/django-admin/{model._meta.app_label}/{model._meta.model_name}/"
        response = client.get(url)
        assert response.status_code == 200, url


def test_non_staff_cannot_open_the_django_admin(client, client_user):
    client.force_login(client_user)
    response = client.get("/django-admin/bookings/booking/")
    assert response.status_code == 302


@pytest.mark.parametrize("path", ["/api/no-such-endpoint", "/api/bookings/not-a-number"])
def test_unknown_api_paths_answer_the_api_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"message": "Not found.", "errors": {}}


def test_server_errors_show_a_calm_page_or_the_api_json_body(rf):
    from marketplace import urls
    from marketplace.views import server_error

    assert urls.handler500 == "marketplace.views.server_error"
    page = server_error(rf.get("/dashboard"))
    assert page.status_code == 500
    assert "Something went wrong" in page.content.decode()
    api = server_error(rf.get("/api/bookings"))
    assert api.status_code == 500 and api["Content-Type"] == "application/json"
    assert json.loads(api.content) == {"message": "Something went wrong. Please try again.", "errors": {}}
