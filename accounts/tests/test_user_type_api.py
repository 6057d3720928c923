"""GET /api/auth/user and PUT /api/auth/user-type."""

import pytest

from accounts.models import User, UserType

pytestmark = pytest.mark.django_db

URL = "/api/auth/user-type"


def _put(client, body):
    return client.put(URL, body, content_type="application/json")


def test_profile_is_camel_case(client, client_user):
    client.force_login(client_user)
    body = client.get("/api/auth/user").json()
    assert body["id"] == client_user.pk
    assert body["firstName"] == "Clara"
    assert body["userType"] == "client"
    assert {"lastName", "email", "profileImageUrl", "stripeCustomerId", "createdAt", "updatedAt"} <= set(body)


def test_signed_out_gets_401_unauthorized(client):
    for response in (client.get("/api/auth/user"), _put(client, {"userType": "provider"})):
        assert response.status_code == 401
        assert response.json()["message"] == "Unauthorized"


def test_client_switches_to_provider_and_back(client, client_user):
    client.force_login(client_user)
    response = _put(client, {"userType": "provider"})
    assert response.status_code == 200
    assert response.json()["userType"] == "provider"
    assert User.objects.get(pk=client_user.pk).user_type == UserType.PROVIDER

    assert _put(client, {"userType": "client"}).json()["userType"] == "client"
    assert User.objects.get(pk=client_user.pk).user_type == UserType.CLIENT


def test_admin_cannot_switch(client, admin_user):
    client.force_login(admin_user)
    response = _put(client, {"userType": "client"})
    assert response.status_code == 403
    assert User.objects.get(pk=admin_user.pk).user_type == UserType.ADMIN


@pytest.mark.parametrize(
    "body",
    [{"userType": "admin"}, {"userType": "superuser"}, {"userType": ""}, {}, {"userType": ["client"]}, {"x": 1}],
)
def test_other_values_are_400_and_change_nothing(client, client_user, body):
    client.force_login(client_user)
    response = _put(client, body)
    assert response.status_code == 400
    assert response.json()["errors"]
    assert User.objects.get(pk=client_user.pk).user_type == UserType.CLIENT


def test_session_writes_need_the_csrf_token(client_user):
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(client_user)
    assert _put(strict, {"userType": "provider"}).status_code == 403
    assert User.objects.get(pk=client_user.pk).user_type == UserType.CLIENT
