"""Server-side page guards, /login, /api/login, the Django admin sign-in, queued toasts."""

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.backends.db import SessionStore
from django.http import HttpResponse
from django.test import RequestFactory

from accounts.guards import admin_required_page, login_required_page, queue_toast
from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


def _queued_toasts(html: str) -> list:
    marker = '<script id="toaster-props" type="application/json">'
    start = html.index(marker) + len(marker)
    return json.loads(html[start : html.index("</script>", start)])


def _request(path, user):
    request = RequestFactory().get(path)
    request.user = user
    request.session = SessionStore()
    request._messages = FallbackStorage(request)
    return request


@admin_required_page
def _admin_view(request):
    return HttpResponse("admin ok")


@login_required_page
def _member_view(request):
    return HttpResponse("member ok")


def test_signed_out_visit_to_a_protected_page_goes_to_login_with_next(client):
    response = client.get("/dashboard?tab=2")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fdashboard%3Ftab%3D2"


def test_signed_in_user_sees_the_protected_page(client, client_user):
    client.force_login(client_user)
    response = client.get("/dashboard")
    assert response.status_code == 200
    assert "Welcome back, Clara!" in response.content.decode()


def test_login_required_page_decorator(client_user):
    assert _member_view(_request("/x", AnonymousUser())).status_code == 302
    assert _member_view(_request("/x", client_user)).content == b"member ok"


def test_admin_guard_sends_signed_out_visitors_to_login():
    response = _admin_view(_request("/admin", AnonymousUser()))
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fadmin"


def test_admin_guard_lets_admins_in(admin_user):
    assert _admin_view(_request("/admin", admin_user)).content == b"admin ok"


def test_admin_guard_sends_non_admins_home_with_the_unauthorized_toast(client, client_user):
    request = _request("/admin", client_user)
    response = _admin_view(request)
    assert response.status_code == 302
    assert response["Location"] == "/"
    queued = list(request._messages)
    assert [(m.message, m.extra_tags) for m in queued] == [
        ("Admin access required", 'kindly-toast:{"title":"Unauthorized","variant":"destructive"}')
    ]


def test_queued_toast_is_rendered_once_on_the_next_page(client, client_user, rf):
    client.force_login(client_user)
    # Queue through a real request cycle: a view that queues and redirects.
    from django.urls import path

    from marketplace import urls as root_urls

    def queue_and_redirect(request):
        queue_toast(request, title="Saved", description="All done")
        queue_toast(request, title="Unauthorized", description="Admin access required", variant="destructive")
        return HttpResponse(status=204)

    root_urls.urlpatterns.insert(0, path("__test-queue-toast", queue_and_redirect))
    try:
        from django.urls import clear_url_caches

        clear_url_caches()
        client.get("/__test-queue-toast")
        first = client.get("/dashboard").content.decode()
        second = client.get("/dashboard").content.decode()
    finally:
        root_urls.urlpatterns.pop(0)
        clear_url_caches()
    assert _queued_toasts(first) == [
        {"title": "Saved", "description": "All done", "variant": "default"},
        {"title": "Unauthorized", "description": "Admin access required", "variant": "destructive"},
    ]
    assert _queued_toasts(second) == []


def test_login_page_for_visitors_carries_firebase_config_and_safe_next(client, settings):
    settings.FIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9099"
    html = client.get("/login?next=/messages").content.decode()
    marker = '<script id="login-props" type="application/json">'
    start = html.index(marker) + len(marker)
    props = json.loads(html[start : html.index("</script>", start)])
    assert props["next"] == "/messages"
    assert props["firebase"] == {
        "apiKey": settings.FIREBASE_API_KEY,
        "authDomain": settings.FIREBASE_AUTH_DOMAIN,
        "projectId": settings.FIREBASE_PROJECT_ID,
        "appId": settings.FIREBASE_APP_ID,
        "emulatorHost": "127.0.0.1:9099",
    }
    assert 'id="login-root"' in html


@pytest.mark.parametrize(
    "target",
    [
        "https://evil.example/",
        "//evil.example/x",
        "javascript:alert(1)",
        "",
        "/\\evil.example/x",
        "\\\\evil.example",
        "/\t/evil.example",
        "http://testserver/request-service",
        "request-service",
    ],
)
def test_login_page_ignores_next_that_leaves_the_site(client, target):
    html = client.get("/login", {"next": target}).content.decode()
    assert '"next": "/"' in html


@pytest.mark.parametrize(
    "query, mode, target",
    [
        ({}, "sign-in", "/"),
        ({"mode": "signup", "next": "/provider-signup"}, "sign-up", "/provider-signup"),
        ({"mode": "signup", "next": "/request-service"}, "sign-up", "/request-service"),
        ({"mode": "SIGNUP-please"}, "sign-in", "/"),
        ({"next": "/messages?with=7"}, "sign-in", "/messages?with=7"),
    ],
)
def test_login_page_opens_the_card_asked_for_and_keeps_the_way_back(client, query, mode, target):
    props = island_props(client.get("/login", query), "login-props")
    assert (props["mode"], props["next"]) == (mode, target)


def test_login_page_sends_a_signed_in_user_home(client, client_user):
    client.force_login(client_user)
    response = client.get("/login")
    assert response.status_code == 302
    assert response["Location"] == "/"


def test_api_login_redirects_to_the_login_page(client):
    response = client.get("/api/login")
    assert response.status_code == 302
    assert response["Location"] == "/login"


def test_django_admin_signs_in_through_the_login_page(client):
    response = client.get("/django-admin/", follow=False)
    assert response.status_code == 302
    login = client.get(response["Location"])
    assert login.status_code == 302
    assert login["Location"] == "/login?next=%2Fdjango-admin%2F"


def test_django_admin_opens_for_a_signed_in_admin(client, admin_user):
    client.force_login(admin_user)
    assert client.get("/django-admin/login/?next=/django-admin/accounts/user/")["Location"] == (
        "/django-admin/accounts/user/"
    )
    assert client.get("/django-admin/").status_code == 200


def test_login_page_lets_the_google_popup_report_back(client):
    # COOP same-origin (Django's default) would cut window.opener for the sign-in popup.
    assert client.get("/login")["Cross-Origin-Opener-Policy"] == "same-origin-allow-popups"
    assert client.get("/landing")["Cross-Origin-Opener-Policy"] == "same-origin"
