"""Session sync and Bearer access with real tokens from the Firebase Auth emulator."""

import base64
import json
import time

import pytest
import time_machine
from django.contrib.auth import SESSION_KEY

from accounts.models import User, UserType
from accounts.tests.factories import UserFactory
from marketplace.testing.firebase import emulator_id_token, emulator_sign_in, emulator_user

pytestmark = pytest.mark.django_db

PASSWORD = "secret-pass-1"


def _reforge(token: str, **claims) -> str:
    """The same unsigned emulator token with some claims changed (what another project would issue)."""
    header, payload, signature = token.split(".")
    data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    data.update(claims)
    encoded = base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()
    return f"{header}.{encoded}.{signature}"


def _post_session(client, body):
    return client.post("/api/auth/session", body, content_type="application/json")


def _assert_unauthorized(response):
    assert response.status_code == 401, response.content
    assert response.json() == {"message": "Unauthorized", "errors": {}}


def test_valid_token_creates_the_user_and_starts_a_session(client, firebase_auth):
    uid = emulator_user("ann@example.com", PASSWORD, "Ann Lee")
    token = emulator_id_token("ann@example.com", PASSWORD)

    response = _post_session(client, {"idToken": token})

    assert response.status_code == 200
    body = response.json()
    assert body["id"] == uid
    assert body["email"] == "ann@example.com"
    assert (body["firstName"], body["lastName"]) == ("Ann", "Lee")
    assert body["userType"] == "client"
    assert client.session[SESSION_KEY] == uid
    assert client.get("/api/auth/user").json()["id"] == uid


def test_sign_up_names_from_the_form_win_over_the_token(client, firebase_auth):
    emulator_user("bo@example.com", PASSWORD)  # no display name yet
    token = emulator_id_token("bo@example.com", PASSWORD)

    response = _post_session(client, {"idToken": token, "firstName": "Bo", "lastName": "Diaz"})

    assert response.status_code == 200
    user = User.objects.get(email="bo@example.com")
    assert (user.first_name, user.last_name) == ("Bo", "Diaz")


def test_second_sign_in_updates_the_same_user_and_cycles_the_session_key(client, firebase_auth):
    uid = emulator_user("cy@example.com", PASSWORD, "Cy Young")
    emulator_sign_in(client, "cy@example.com", PASSWORD)
    first_key = client.session.session_key

    emulator_sign_in(client, "cy@example.com", PASSWORD)

    assert client.session.session_key != first_key
    assert User.objects.filter(pk=uid).count() == 1


def test_existing_user_keeps_type_and_names(client, firebase_auth):
    uid = emulator_user("dee@example.com", PASSWORD, "Token Name")
    UserFactory(id=uid, email="old@example.com", first_name="Dee", last_name="Local", user_type=UserType.PROVIDER)

    body = emulator_sign_in(client, "dee@example.com", PASSWORD)

    assert body["email"] == "dee@example.com"  # email follows Firebase
    assert (body["firstName"], body["lastName"], body["userType"]) == ("Dee", "Local", "provider")


def test_email_held_by_another_local_uid_is_a_conflict(client, firebase_auth):
    UserFactory(id="old-uid", email="eve@example.com")
    emulator_user("eve@example.com", PASSWORD, "Eve New")
    token = emulator_id_token("eve@example.com", PASSWORD)

    response = _post_session(client, {"idToken": token})

    assert response.status_code == 409
    assert "already belongs to another Kindly account" in response.json()["message"]
    assert SESSION_KEY not in client.session
    assert list(User.objects.values_list("pk", flat=True)) == ["old-uid"]


@pytest.mark.parametrize(
    "body",
    [
        {"idToken": "garbage"},
        {"idToken": "a.b.c"},
        {"idToken": "eyJhbGciOiJub25lIn0.bm90IGpzb24.x"},
        {"idToken": ""},
        {"idToken": "   "},
        {"idToken": "x" * 20000},
        {"idToken": 12345},
        {},
    ],
    ids=["garbage", "three-parts", "payload-not-json", "empty", "blank", "huge", "number", "missing"],
)
def test_unusable_tokens_are_401_never_500(client, firebase_auth, body):
    _assert_unauthorized(_post_session(client, body))
    assert SESSION_KEY not in client.session


def test_token_of_another_project_is_401(client, firebase_auth):
    emulator_user("fay@example.com", PASSWORD)
    token = emulator_id_token("fay@example.com", PASSWORD)
    other = _reforge(token, aud="demo-other-project", iss="https://securetoken.google.com/demo-other-project")

    _assert_unauthorized(_post_session(client, {"idToken": other}))
    assert not User.objects.exists()


def test_token_without_claims_we_need_is_401(client, firebase_auth):
    emulator_user("gil@example.com", PASSWORD)
    token = emulator_id_token("gil@example.com", PASSWORD)

    _assert_unauthorized(_post_session(client, {"idToken": _reforge(token, exp="soon")}))
    _assert_unauthorized(_post_session(client, {"idToken": _reforge(token, auth_time=None)}))
    _assert_unauthorized(_post_session(client, {"idToken": _reforge(token, iat=time.time() + 3600)}))


def test_stale_auth_time_is_401_but_fresh_is_fine(client, firebase_auth):
    emulator_user("hal@example.com", PASSWORD)
    token = emulator_id_token("hal@example.com", PASSWORD)

    with time_machine.travel(time.time() + 301, tick=True):
        _assert_unauthorized(_post_session(client, {"idToken": token}))
    with time_machine.travel(time.time() + 250, tick=True):
        assert _post_session(client, {"idToken": token}).status_code == 200


def test_expired_token_is_401_for_session_and_bearer(client, firebase_auth):
    emulator_user("ida@example.com", PASSWORD)
    token = emulator_id_token("ida@example.com", PASSWORD)

    with time_machine.travel(time.time() + 3601, tick=True):
        _assert_unauthorized(_post_session(client, {"idToken": token}))
        _assert_unauthorized(client.get("/api/auth/user", HTTP_AUTHORIZATION=f"Bearer {token}"))


def test_disabled_firebase_account_is_401(client, firebase_auth):
    from firebase_admin import auth

    from accounts.firebase import get_app

    uid = emulator_user("jo@example.com", PASSWORD)
    token = emulator_id_token("jo@example.com", PASSWORD)
    auth.update_user(uid, disabled=True, app=get_app())

    _assert_unauthorized(_post_session(client, {"idToken": token}))


def test_inactive_local_user_is_401(client, firebase_auth):
    uid = emulator_user("kim@example.com", PASSWORD)
    UserFactory(id=uid, email="kim@example.com", is_active=False)
    token = emulator_id_token("kim@example.com", PASSWORD)

    _assert_unauthorized(_post_session(client, {"idToken": token}))
    _assert_unauthorized(client.get("/api/auth/user", HTTP_AUTHORIZATION=f"Bearer {token}"))


def test_session_sync_enforces_csrf(firebase_auth):
    from django.test import Client

    emulator_user("lu@example.com", PASSWORD)
    token = emulator_id_token("lu@example.com", PASSWORD)
    strict = Client(enforce_csrf_checks=True)

    response = strict.post("/api/auth/session", {"idToken": token}, content_type="application/json")

    assert response.status_code == 403
    assert SESSION_KEY not in strict.session


def test_unknown_fields_are_400(client, firebase_auth):
    response = _post_session(client, {"idToken": "x", "admin": True})
    assert response.status_code == 400
    assert response.json()["errors"] == {"admin": ["Unknown field."]}


def test_bearer_token_authenticates_api_calls_without_csrf(firebase_auth):
    from django.test import Client

    uid = emulator_user("max@example.com", PASSWORD, "Max Moe")
    token = emulator_id_token("max@example.com", PASSWORD)
    strict = Client(enforce_csrf_checks=True)

    profile = strict.get("/api/auth/user", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert profile.status_code == 200
    assert profile.json()["id"] == uid
    switched = strict.put(
        "/api/auth/user-type",
        {"userType": "provider"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {token}",
    )
    assert switched.status_code == 200
    assert User.objects.get(pk=uid).user_type == UserType.PROVIDER
    # A Bearer call never starts a session.
    assert SESSION_KEY not in strict.session


def test_bearer_ignores_auth_time_age_but_not_expiry(client, firebase_auth):
    emulator_user("ned@example.com", PASSWORD)
    token = emulator_id_token("ned@example.com", PASSWORD)

    with time_machine.travel(time.time() + 1800, tick=True):
        assert client.get("/api/auth/user", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200


@pytest.mark.parametrize("header", ["Bearer", "Bearer a b", "Bearer garbage", "Bearer ", "Bearer \u00e9t\u00e9"])
def test_bad_bearer_headers_are_401(client, firebase_auth, header):
    _assert_unauthorized(client.get("/api/auth/user", HTTP_AUTHORIZATION=header))


def test_logout_ends_the_session(client, firebase_auth):
    emulator_user("ola@example.com", PASSWORD)
    emulator_sign_in(client, "ola@example.com", PASSWORD)

    assert client.post("/api/auth/logout").status_code == 204

    _assert_unauthorized(client.get("/api/auth/user"))


def test_logout_when_signed_out_is_harmless(client):
    assert client.post("/api/auth/logout").status_code == 204


def test_sign_in_attempts_are_rate_limited_per_ip(client, settings):
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "sign_in": "3/min"}
    statuses = [_post_session(client, {"idToken": "garbage"}).status_code for _ in range(4)]
    assert statuses == [401, 401, 401, 429]
