"""manage.py reset_second_factor: a staff member who lost every factor gets a fresh start, audited."""

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnCredential

from accounts.tests.factories import AdminUserFactory
from adminpanel.models import AuditAction, AuditLog

pytestmark = pytest.mark.django_db


@pytest.fixture
def lost_everything(db):
    """A staff member with an authenticator app, a passkey and recovery codes, in a session that
    passed the step with the app."""
    user = AdminUserFactory(first_name="Lou", email="lou@example.com")
    app = TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=True)
    WebAuthnCredential.objects.create(
        user=user, name="Laptop", confirmed=True, credential_id=b"\x01" * 16, public_key=b"\x02" * 16
    )
    codes = StaticDevice.objects.create(user=user, name="Recovery codes", confirmed=True)
    StaticToken.objects.bulk_create(StaticToken(device=codes, token=f"code{i:04d}") for i in range(3))
    user.otp_device = app
    return user


def test_reset_removes_every_factor_ends_confirmed_sessions_and_is_audited(lost_everything, admin_user):
    session = Client()
    session.force_login(lost_everything)
    assert session.get("/admin").status_code == 200

    out = _run("lou@example.com", "--by", admin_user.email, "--reason", "Lost her phone and laptop")

    assert "1 passkey(s), 1 authenticator app(s) and 3 recovery code(s) removed" in out
    for model in (TOTPDevice, StaticDevice, WebAuthnCredential):
        assert not model.objects.filter(user=lost_everything).exists()
    # The session that passed the step with a removed factor no longer counts: she sets one up again.
    assert session.get("/admin")["Location"] == "/second-factor?next=%2Fadmin"
    assert "Set up your second step" in session.get("/second-factor").content.decode()
    entry = AuditLog.objects.get(action=AuditAction.SECOND_FACTOR_RESET)
    assert (entry.actor, entry.target_type, entry.target_id) == (admin_user, "accounts.user", lost_everything.pk)
    assert entry.reason == "Lost her phone and laptop"
    assert entry.details == {
        "removed": {"passkeys": 1, "authenticators": 1, "recoveryCodes": 3},
        "email": "lou@example.com",
    }
    assert entry.get_action_display() == "Second step reset"


@pytest.mark.parametrize(
    ("email", "by", "message"),
    [
        ("nobody@example.com", "ada@example.com", "No Kindly account has the email nobody@example.com."),
        ("clara@example.com", "ada@example.com", "clara@example.com is not a staff account"),
        ("lou@example.com", "clara@example.com", "--by must be the email of an admin account"),
        ("lou@example.com", "ghost@example.com", "--by must be the email of an admin account"),
    ],
)
def test_a_reset_that_cannot_be_done_changes_nothing(lost_everything, admin_user, client_user, email, by, message):
    with pytest.raises(CommandError, match=message):
        _run(email, "--by", by)
    assert TOTPDevice.objects.filter(user=lost_everything).exists()
    assert StaticToken.objects.filter(device__user=lost_everything).count() == 3
    assert not AuditLog.objects.exists()


def test_a_dry_run_says_what_would_go_and_changes_nothing(lost_everything, admin_user):
    out = _run("lou@example.com", "--by", admin_user.email, "--dry-run")

    assert "would remove 1 passkey(s), 1 authenticator app(s) and 3 recovery code(s) of lou@example.com" in out
    assert TOTPDevice.objects.filter(user=lost_everything).exists()
    assert not AuditLog.objects.exists()


def test_the_admin_who_asked_must_be_named():
    with pytest.raises(CommandError, match="--by"):
        _run("lou@example.com")


def _run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("reset_second_factor", *args, stdout=out)
    return out.getvalue()
