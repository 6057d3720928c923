"""The page shell: visitors get the spec's Get Started action next to
Sign In (both to /login), and every page links a favicon that exists; /favicon.ico answers."""

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db

VISITOR_PAGES = ["/", "/landing", "/login", "/privacy-policy", "/no-such-page"]


def _header(html: str) -> str:
    return html.split('<header class="site-header">', 1)[1].split("</header>", 1)[0]


@pytest.mark.parametrize("path", VISITOR_PAGES)
def test_visitor_header_offers_sign_in_and_get_started_to_login(client, path):
    header = _header(client.get(path).content.decode())
    assert re.search(r'<a class="button [^"]*" href="/login">Sign In</a>', header)
    assert re.search(r'<a class="button [^"]*" href="/login">Get Started</a>', header)


def test_signed_in_header_has_no_get_started(client, client_user):
    client.force_login(client_user)
    header = _header(client.get("/dashboard").content.decode())
    assert "Get Started" not in header and "Sign In" not in header


@pytest.mark.parametrize("path", [*VISITOR_PAGES, "/dashboard"])
def test_every_page_links_the_favicon(client, client_user, path):
    if path == "/dashboard":
        client.force_login(client_user)
    html = client.get(path).content.decode()
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in html


def test_the_favicon_file_is_a_static_svg():
    found = finders.find("favicon.svg")
    assert found, "static/favicon.svg is missing"
    with open(found, encoding="utf-8") as f:
        assert f.read().lstrip().startswith("<svg")


def test_favicon_ico_redirects_to_the_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"] == "/static/favicon.svg"
    assert "max-age=86400" in response["Cache-Control"]


def test_the_error_page_links_the_favicon_too():
    from django.template import loader

    assert 'rel="icon" href="/static/favicon.svg"' in loader.get_template("500.html").render()
