"""accounts/backends.py: the session's user, read with prepared SQL, is ModelBackend's user."""

import pytest
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore

from accounts.backends import SessionUserBackend
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_finds_the_same_user_as_modelbackend():
    user = UserFactory(first_name="Ada", profile_image_url="https://img.example/a.png")
    UserFactory()
    found = SessionUserBackend().get_user(user.pk)
    assert found == ModelBackend().get_user(user.pk) == user
    assert (found.email, found.first_name, found.user_type, found.created_at) == (
        user.email,
        "Ada",
        user.user_type,
        user.created_at,
    )


def test_no_user_for_an_unknown_id_or_a_closed_account():
    closed = UserFactory(is_active=False)
    assert SessionUserBackend().get_user("no-such-uid") is None
    assert SessionUserBackend().get_user(closed.pk) is None
    assert ModelBackend().get_user(closed.pk) is None


def session_for(user, backend: str) -> str:
    store = SessionStore()
    store.update({SESSION_KEY: user.pk, BACKEND_SESSION_KEY: backend, HASH_SESSION_KEY: user.get_session_auth_hash()})
    store.create()
    return store.session_key


@pytest.mark.parametrize("backend", settings.AUTHENTICATION_BACKENDS)
def test_sessions_signed_in_through_either_backend_stay_signed_in(client, backend):
    user = UserFactory()
    client.cookies[settings.SESSION_COOKIE_NAME] = session_for(user, backend)
    response = client.get("/api/auth/user")
    assert response.status_code == 200
    assert response.json()["id"] == user.pk


def test_a_session_of_a_closed_account_is_signed_out(client):
    user = UserFactory()
    client.cookies[settings.SESSION_COOKIE_NAME] = session_for(user, settings.AUTHENTICATION_BACKENDS[0])
    user.is_active = False
    user.save()
    assert client.get("/api/auth/user").status_code in (401, 403)
