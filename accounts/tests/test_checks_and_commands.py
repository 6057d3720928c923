"""The emulator system check and manage.py create_admin (against the real emulator)."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from firebase_admin import auth

from accounts.checks import check_auth_emulator_needs_debug
from accounts.firebase import get_app
from accounts.models import User, UserType
from accounts.tests.factories import UserFactory
from marketplace.testing.firebase import emulator_id_token, emulator_user


def test_emulator_with_debug_off_is_an_error(settings, monkeypatch):
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    settings.DEBUG = False
    settings.ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG = False
    settings.FIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9099"
    errors = check_auth_emulator_needs_debug()
    assert [e.id for e in errors] == ["accounts.E001"]


def test_emulator_env_var_alone_is_an_error_too(settings, monkeypatch):
    settings.DEBUG = False
    settings.ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG = False
    settings.FIREBASE_AUTH_EMULATOR_HOST = ""
    monkeypatch.setenv("FIREBASE_AUTH_EMULATOR_HOST", "127.0.0.1:9099")
    assert [e.id for e in check_auth_emulator_needs_debug()] == ["accounts.E001"]


def test_emulator_with_debug_on_or_no_emulator_is_fine(settings, monkeypatch):
    monkeypatch.delenv("FIREBASE_AUTH_EMULATOR_HOST", raising=False)
    settings.ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG = False
    settings.DEBUG = True
    settings.FIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9099"
    assert check_auth_emulator_needs_debug() == []
    settings.DEBUG = False
    settings.FIREBASE_AUTH_EMULATOR_HOST = ""
    assert check_auth_emulator_needs_debug() == []


def test_test_settings_opt_out_of_the_check(settings):
    settings.DEBUG = False
    settings.FIREBASE_AUTH_EMULATOR_HOST = "127.0.0.1:9099"
    assert settings.ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG is True
    assert check_auth_emulator_needs_debug() == []


@pytest.mark.django_db
def test_create_admin_makes_a_new_account_that_can_sign_in(client, firebase_auth, capsys):
    call_command("create_admin", "Boss@Example.com", "--password", "boss-pass-1", "--first-name", "Bea")
    user = User.objects.get(email="boss@example.com")
    assert user.user_type == UserType.ADMIN and user.is_staff
    assert auth.get_user(user.pk, app=get_app()).email == "boss@example.com"

    token = emulator_id_token("boss@example.com", "boss-pass-1")
    response = client.post("/api/auth/session", {"idToken": token}, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["userType"] == "admin"


@pytest.mark.django_db
def test_create_admin_promotes_an_existing_user_keeping_its_uid(firebase_auth, capsys):
    uid = emulator_user("cal@example.com", "cal-pass-1", "Cal Old")
    UserFactory(id=uid, email="cal@example.com", first_name="Cal", user_type=UserType.CLIENT)

    call_command("create_admin", "cal@example.com")

    user = User.objects.get(pk=uid)
    assert user.user_type == UserType.ADMIN
    assert User.objects.count() == 1
    assert "Password:" not in capsys.readouterr().out  # the existing password is kept
    assert emulator_id_token("cal@example.com", "cal-pass-1")


@pytest.mark.django_db
def test_create_admin_without_password_prints_one_for_a_new_account(firebase_auth, capsys):
    call_command("create_admin", "new@example.com")
    out = capsys.readouterr().out
    password = out.split("Password: ")[1].strip()
    assert emulator_id_token("new@example.com", password)


@pytest.mark.django_db
@pytest.mark.parametrize("args", [["not-an-email"], ["ok@example.com", "--password", "short"]])
def test_create_admin_rejects_bad_input(firebase_auth, args):
    with pytest.raises(CommandError):
        call_command("create_admin", *args)
    assert not User.objects.exists()
