"""Operator commands: each has a helpful --help and a --dry-run that changes nothing."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command, load_command_class

from accounts.firebase import firebase_user_exists
from accounts.models import User, UserType
from accounts.tests.factories import UserFactory
from marketplace.testing.firebase import emulator_user

COMMANDS = {
    "seed_demo": "marketplace",
    "create_admin": "accounts",
    "expire_stale_requests": "requests_app",
    "purge_closed_accounts": "marketplace",
    "reset_second_factor": "adminpanel",
}


@pytest.mark.parametrize(("name", "app"), COMMANDS.items())
def test_every_operator_command_explains_itself_and_offers_a_dry_run(name, app):
    parser = load_command_class(app, name).create_parser("manage.py", name)

    text = parser.format_help()

    assert "--dry-run" in text
    assert len(load_command_class(app, name).help) > 60


def run_create_admin(*args: str) -> str:
    out = io.StringIO()
    call_command("create_admin", *args, stdout=out)
    return out.getvalue()


@pytest.mark.django_db
def test_create_admin_dry_run_creates_nothing(firebase_auth):
    output = run_create_admin("new.admin@example.com", "--dry-run")

    assert "would create the Firebase account new.admin@example.com with a one-off password" in output
    assert "would create the local user new.admin@example.com as an admin" in output
    assert "Password:" not in output
    assert not User.objects.filter(email="new.admin@example.com").exists()
    assert not firebase_user_exists("new.admin@example.com")


@pytest.mark.django_db
def test_create_admin_dry_run_does_not_promote(firebase_auth):
    uid = emulator_user("cl@example.com", "client-pass-1")
    UserFactory(id=uid, email="cl@example.com", user_type=UserType.CLIENT)

    output = run_create_admin("cl@example.com", "--password", "new-pass-1", "--dry-run")

    assert "would update the Firebase account cl@example.com (update its password)" in output
    assert f"would promote the local user cl@example.com (uid {uid}, now client) to admin" in output
    assert User.objects.get(pk=uid).user_type == UserType.CLIENT
