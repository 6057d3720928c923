"""The staff second step (accounts.second_factor): who reaches /admin, the admin API and the Django
admin; setting up an authenticator app with a real code from its key; confirming it's you later;
recovery codes; throttling of wrong codes; staff API tokens refused. The reset command:
adminpanel/tests/test_reset_second_factor.py. Passkeys in a browser: test_browser_second_factor.py."""

import re
import time
from datetime import timedelta
from html import unescape

import pytest
from django.contrib import admin
from django.test import Client, RequestFactory
from django.utils import timezone
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.permissions import ADMIN_ACCESS_REQUIRED
from accounts.second_factor import (
    RECOVERY_CODE_COUNT,
    SECOND_FACTOR_REQUIRED,
    STAFF_ONLY,
    STAFF_TOKEN_REFUSED,
    WRONG_CODE,
    WRONG_RECOVERY_CODE,
)
from accounts.tests.factories import AdminUserFactory
from marketplace.admin_site import KindlyAdminSite
from marketplace.testing.firebase import emulator_id_token, emulator_user
from marketplace.testing.second_factor import totp_code

pytestmark = pytest.mark.django_db

STEP = "/second-factor"


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def staff_without_factor(db):
    """A staff member signed in with Firebase who has no second step yet."""
    return AdminUserFactory(first_name="Nell", email="nell@example.com")


@pytest.fixture
def staff_not_confirmed(db):
    """A staff member with an authenticator app, in a session that has not used it yet."""
    user = AdminUserFactory(first_name="Otto", email="otto@example.com")
    TOTPDevice.objects.create(user=user, name="Authenticator app", confirmed=True)
    return user


def _key_on_page(html: str) -> str:
    found = re.search(r'data-testid="authenticator-key">([A-Z2-7 ]+)<', html)
    assert found, "the set-up page shows the authenticator key"
    return found.group(1).replace(" ", "")


# The permission table: /admin, the admin API, the Django admin.

SURFACES = ["/admin", "/api/admin/summary", "/django-admin/"]


@pytest.mark.parametrize("who", ["staff_without_factor", "staff_not_confirmed"])
def test_staff_without_the_second_step_are_sent_to_it_or_refused(request, who):
    client = _signed_in(request.getfixturevalue(who))

    page = client.get("/admin")
    assert page.status_code == 302 and page["Location"] == f"{STEP}?next=%2Fadmin"
    api = client.get("/api/admin/summary")
    assert api.status_code == 403 and api.json() == {"message": SECOND_FACTOR_REQUIRED, "errors": {}}
    django_admin = client.get("/django-admin/")
    assert django_admin.status_code == 302 and django_admin["Location"] == f"{STEP}?next=%2Fdjango-admin%2F"


def test_staff_who_passed_the_second_step_reach_all_three(admin_user):
    client = _signed_in(admin_user)
    for path in SURFACES:
        assert client.get(path).status_code == 200, path


def test_non_staff_get_what_they_got_before(client_user, verified_provider):
    for user in (client_user, verified_provider.user):
        client = _signed_in(user)
        page = client.get("/admin")
        assert page.status_code == 302 and page["Location"] == "/"
        api = client.get("/api/admin/summary")
        assert api.status_code == 403 and api.json()["message"] == ADMIN_ACCESS_REQUIRED
        assert client.get("/django-admin/").status_code == 302
        # No step for them: their own pages and API answer at once, and the step sends them home.
        assert client.get("/dashboard").status_code == 200
        assert client.get("/api/bookings").status_code == 200
        assert client.get(STEP)["Location"] == "/"


def test_signed_out_visitors_are_sent_to_sign_in():
    client = Client()
    assert client.get("/admin")["Location"] == "/login?next=%2Fadmin"
    assert client.get("/api/admin/summary").status_code == 401
    assert client.get(STEP)["Location"] == f"/login?next={STEP.replace('/', '%2F')}"


def test_before_the_step_staff_rights_are_held_back_everywhere_but_sign_in_and_out(staff_not_confirmed):
    client = _signed_in(staff_not_confirmed)
    # Staff see every booking through the ordinary API too: it waits for the step as well.
    bookings = client.get("/api/bookings")
    assert bookings.status_code == 403 and bookings.json()["message"] == SECOND_FACTOR_REQUIRED
    assert client.get("/dashboard?view=client")["Location"] == f"{STEP}?next=%2Fdashboard%3Fview%3Dclient"
    assert client.get("/api/auth/user").json()["email"] == "otto@example.com"
    assert client.get(STEP).status_code == 200
    assert client.post("/api/auth/logout").status_code == 204


def test_the_django_admin_site_is_kindlys_and_asks_for_the_step(staff_not_confirmed, admin_user):
    assert isinstance(admin.site, KindlyAdminSite)
    assert admin.site.site_header == "Kindly staff admin"
    # Factors are not shown there: an authenticator key is its owner's alone.
    assert TOTPDevice not in admin.site._registry and StaticDevice not in admin.site._registry
    request = RequestFactory().get("/django-admin/")
    request.user = staff_not_confirmed
    assert admin.site.has_permission(request) is False
    request.user = admin_user
    assert admin.site.has_permission(request) is True


# Setting up an authenticator app, and confirming it's you with it later.


def test_staff_set_up_an_authenticator_app_with_a_real_code_and_see_recovery_codes_once(staff_without_factor):
    client = _signed_in(staff_without_factor)
    page = client.get(f"{STEP}?next=/admin")
    html = page.content.decode()
    assert page.status_code == 200 and "Set up your second step" in html
    assert "<svg" in html and 'class="qr-code"' in html
    key = _key_on_page(html)

    wrong = client.post(
        f"{STEP}/authenticator?next=/admin", {"code": "000000" if totp_code(key) != "000000" else "111111"}
    )
    assert wrong.status_code == 400 and str(WRONG_CODE) in unescape(wrong.content.decode())
    assert not TOTPDevice.objects.filter(user=staff_without_factor).exists()
    # The page offers the same key again: the app the person just set up keeps working.
    assert _key_on_page(wrong.content.decode()) == key

    session_before = client.session.session_key
    done = client.post(f"{STEP}/authenticator?next=/admin", {"code": totp_code(key)})
    assert done.status_code == 302 and done["Location"] == f"{STEP}/recovery-codes?next=%2Fadmin"
    device = TOTPDevice.objects.get(user=staff_without_factor)
    assert device.confirmed and device.name == "Authenticator app"
    assert client.session.session_key != session_before  # a new session key for the higher rights

    codes_page = client.get(done["Location"])
    codes = re.findall(r"<code>([a-z2-7]{4}-[a-z2-7]{4})</code>", codes_page.content.decode())
    assert len(codes) == RECOVERY_CODE_COUNT
    assert StaticToken.objects.filter(device__user=staff_without_factor).count() == RECOVERY_CODE_COUNT
    # Shown once: the next visit goes straight on.
    assert client.get(done["Location"])["Location"] == "/admin"
    assert client.get("/admin").status_code == 200

    # A later sign-in (a new session) confirms with the app's next code; a used code never works again.
    later = _signed_in(staff_without_factor)
    assert "Confirm it's you" in unescape(later.get(STEP).content.decode())
    replay = later.post(f"{STEP}/authenticator", {"code": totp_code(key)})
    assert replay.status_code == 400
    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_count=0, throttling_failure_timestamp=None)
    confirmed = later.post(
        f"{STEP}/authenticator?next=/api/admin/summary", {"code": totp_code(key, at=time.time() + 30)}
    )
    assert confirmed["Location"] == "/api/admin/summary"
    assert later.get("/api/admin/summary").status_code == 200


def test_wrong_codes_slow_the_next_tries_down(staff_not_confirmed):
    device = TOTPDevice.objects.get(user=staff_not_confirmed)
    key = _base32(device)
    client = _signed_in(staff_not_confirmed)
    wrong = "123456" if totp_code(key) != "123456" else "654321"
    assert client.post(f"{STEP}/authenticator", {"code": wrong}).status_code == 400

    too_soon = client.post(f"{STEP}/authenticator", {"code": totp_code(key)})
    assert too_soon.status_code == 400
    assert "Too many wrong codes. Please wait 1 second and try again." in too_soon.content.decode()
    assert client.get("/admin").status_code == 302

    TOTPDevice.objects.filter(pk=device.pk).update(throttling_failure_timestamp=timezone.now() - timedelta(seconds=2))
    assert client.post(f"{STEP}/authenticator", {"code": totp_code(key)})["Location"] == "/admin"
    assert client.get("/admin").status_code == 200


def _base32(device: TOTPDevice) -> str:
    from base64 import b32encode

    return b32encode(device.bin_key).decode()


def test_a_code_that_is_not_six_digits_changes_nothing(staff_not_confirmed):
    client = _signed_in(staff_not_confirmed)
    for typed in ["", "12345", "abcdef", "1234567", "<script>"]:
        TOTPDevice.objects.filter(user=staff_not_confirmed).update(throttling_failure_timestamp=None)
        response = client.post(f"{STEP}/authenticator", {"code": typed})
        assert response.status_code == 400, typed
    assert client.get("/admin").status_code == 302


# Recovery codes.


def test_a_recovery_code_confirms_it_is_you_once(staff_without_factor):
    setup = _signed_in(staff_without_factor)
    key = _key_on_page(setup.get(STEP).content.decode())
    location = setup.post(f"{STEP}/authenticator", {"code": totp_code(key)})["Location"]
    codes = re.findall(r"<code>([a-z2-7-]{9})</code>", setup.get(location).content.decode())

    phone_lost = _signed_in(staff_without_factor)
    page = phone_lost.get(STEP).content.decode()
    assert f"You have {RECOVERY_CODE_COUNT} left." in page
    used = phone_lost.post(f"{STEP}/recovery-code?next=/admin", {"code": codes[0].upper()})
    assert used["Location"] == "/admin" and phone_lost.get("/admin").status_code == 200
    assert StaticToken.objects.filter(device__user=staff_without_factor).count() == RECOVERY_CODE_COUNT - 1

    again = _signed_in(staff_without_factor)
    refused = again.post(f"{STEP}/recovery-code", {"code": codes[0]})
    assert refused.status_code == 400 and str(WRONG_RECOVERY_CODE) in unescape(refused.content.decode())
    assert again.get("/admin").status_code == 302


# Passkey calls (the ceremonies themselves run in the browser test).


def test_passkey_calls_are_for_signed_in_staff_only(client_user, staff_not_confirmed, staff_without_factor):
    anonymous = Client()
    answer = anonymous.post(f"{STEP}/passkey/register/begin", content_type="application/json")
    assert answer.status_code == 403 and answer.json() == {"message": "Please sign in again.", "errors": {}}
    assert anonymous.post(f"{STEP}/passkey/verify/begin", content_type="application/json").status_code == 403

    client = _signed_in(client_user)
    for call in ("register", "verify"):
        answer = client.post(f"{STEP}/passkey/{call}/begin", content_type="application/json")
        assert answer.status_code == 403 and answer.json()["message"] == STAFF_ONLY

    # Someone who has a factor confirms it's them with it before adding a passkey.
    answer = _signed_in(staff_not_confirmed).post(f"{STEP}/passkey/register/begin", content_type="application/json")
    assert answer.status_code == 403
    assert answer.json()["message"] == "Confirm it's you with your second step before adding a passkey."

    options = _signed_in(staff_without_factor).post(f"{STEP}/passkey/register/begin", content_type="application/json")
    assert options.status_code == 200
    assert options.json()["rp"]["name"] == "Kindly" and options.json()["user"]["name"] == "nell@example.com"


def test_a_passkey_answer_that_does_not_check_out_changes_nothing(staff_without_factor):
    client = _signed_in(staff_without_factor)
    client.post(f"{STEP}/passkey/register/begin", content_type="application/json")
    forged = {
        "id": "AAAA",
        "rawId": "AAAA",
        "type": "public-key",
        "response": {"clientDataJSON": "e30", "attestationObject": "oA"},
    }
    answer = client.post(f"{STEP}/passkey/register/complete", forged, content_type="application/json")
    assert answer.status_code == 422 and set(answer.json()) == {"message", "errors"}
    assert client.get("/admin").status_code == 302
    # The ceremony's state is used once: completing again needs a new start.
    again = client.post(f"{STEP}/passkey/register/complete", forged, content_type="application/json")
    assert (
        again.status_code == 400
        and again.json()["message"] == "That took too long or was interrupted. Please try again."
    )


# Staff API tokens.


def test_a_staff_accounts_firebase_token_is_refused_and_others_work(firebase_auth):
    staff_uid = emulator_user("ada.token@example.com", "secret-pass-1", "Ada Token")
    AdminUserFactory(id=staff_uid, email="ada.token@example.com")
    token = emulator_id_token("ada.token@example.com", "secret-pass-1")
    for path in ("/api/admin/summary", "/api/auth/user", "/api/bookings"):
        answer = Client().get(path, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert answer.status_code == 403 and answer.json() == {"message": STAFF_TOKEN_REFUSED, "errors": {}}, path

    emulator_user("cleo.token@example.com", "secret-pass-1", "Cleo Token")
    token = emulator_id_token("cleo.token@example.com", "secret-pass-1")
    assert Client().get("/api/auth/user", HTTP_AUTHORIZATION=f"Bearer {token}").status_code == 200
