"""The spec's not-found page ("404 Page Not Found") with DEBUG on too, as under `make run`;
the API keeps its JSON 404 and a missing trailing slash still redirects."""

import pytest
from django.http import Http404, HttpResponse
from django.urls import include, path

pytestmark = pytest.mark.django_db


def _raises_404(request):
    raise Http404("No such booking")


def _ok(request):
    return HttpResponse("ok")


# A urlconf for the view-raises-Http404 case: the real one plus a page view that raises it.
urlpatterns = [
    path("raises-404", _raises_404),
    path("with-slash/", _ok),
    path("", include("marketplace.urls")),
]


@pytest.fixture
def debug_on(settings):
    settings.DEBUG = True


def _assert_spec_page(response):
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")
    html = response.content.decode()
    assert "<h1>404 Page Not Found</h1>" in html
    assert "Did you forget to add the page to the router?" in html
    assert "Using the URLconf" not in html  # Django's debug page lists the URL patterns
    assert 'href="/login">Sign In</a>' in html  # the site's own shell (header) around it


def test_unknown_path_shows_the_spec_page_with_debug_on(client, debug_on):
    _assert_spec_page(client.get("/no-such-page"))


def test_unknown_path_shows_the_spec_page_with_debug_off(client):
    _assert_spec_page(client.get("/no-such-page"))


def test_unknown_path_for_a_signed_in_user_with_debug_on(client, client_user, debug_on):
    client.force_login(client_user)
    response = client.get("/dashboard/extra")
    assert response.status_code == 404
    assert "404 Page Not Found" in response.content.decode()


@pytest.mark.urls(__name__)
def test_a_view_that_raises_http404_shows_the_spec_page_with_debug_on(client, debug_on):
    response = client.get("/raises-404")
    _assert_spec_page(response)
    assert "No such booking" not in response.content.decode()  # no debug detail leaks


@pytest.mark.parametrize("debug", [True, False])
def test_unknown_api_path_keeps_the_json_404(client, settings, debug):
    settings.DEBUG = debug
    response = client.get("/api/no-such-endpoint")
    assert response.status_code == 404
    assert response.json() == {"message": "Not found.", "errors": {}}


@pytest.mark.urls(__name__)
def test_missing_trailing_slash_still_redirects_with_debug_on(client, debug_on):
    response = client.get("/with-slash")
    assert response.status_code == 301
    assert response["Location"] == "/with-slash/"
    assert client.get("/django-admin")["Location"] == "/django-admin/"
