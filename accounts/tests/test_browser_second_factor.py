"""The staff second step in Chromium: a passkey created and then used with Chromium's virtual
authenticator (the DevTools protocol's WebAuthn domain), and an authenticator app set up from the
keyboard at 320 px; the pages pass axe-core and keep 44 px targets."""

from __future__ import annotations

import re

import pytest
from django_otp.plugins.otp_totp.models import TOTPDevice
from django_otp_webauthn.models import WebAuthnCredential
from playwright.sync_api import Page, expect

from accounts.tests.factories import AdminUserFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.second_factor import totp_code
from marketplace.tests.test_browser_accessibility import _LAYOUT_PROBLEMS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def passkeys_here(settings, live_server):
    """The live server's origin is the one passkeys are accepted from (relying party: localhost)."""
    assert settings.OTP_WEBAUTHN_RP_ID == "localhost" and live_server.url.startswith("http://localhost:")
    settings.OTP_WEBAUTHN_ALLOWED_ORIGINS = [live_server.url]


def _virtual_authenticator(page: Page) -> tuple[object, str]:
    """A platform authenticator with user verification (a laptop's fingerprint reader), through
    Chromium's DevTools protocol: it answers WebAuthn prompts without a person."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("WebAuthn.enable", {"enableUI": False})
    added = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, added["authenticatorId"]


def test_staff_create_a_passkey_then_confirm_with_it_at_the_next_sign_in(live_server, page: Page, passkeys_here):
    base = live_server.url
    nell = AdminUserFactory(first_name="Nell", email="nell@example.com")
    cdp, authenticator = _virtual_authenticator(page)

    sign_in_browser(page, base, nell)
    page.goto(f"{base}/admin")
    expect(page).to_have_url(f"{base}/second-factor?next=%2Fadmin")
    expect(page.get_by_role("heading", name="Set up your second step", level=1)).to_be_visible()
    assert_no_axe_violations(page, context="second step, setting up")

    page.get_by_role("button", name="Create a passkey").click()
    expect(page).to_have_url(f"{base}/second-factor/recovery-codes?next=%2Fadmin")
    expect(page.get_by_test_id("recovery-codes").locator("code")).to_have_count(10)
    assert_no_axe_violations(page, context="recovery codes")
    page.get_by_role("link", name="I have saved my codes").click()
    expect(page).to_have_url(f"{base}/admin")
    expect(page.get_by_role("heading", name="Admin Dashboard", level=1)).to_be_visible()

    credential = WebAuthnCredential.objects.get(user=nell)
    assert credential.confirmed and credential.last_used_at is None
    stored = cdp.send("WebAuthn.getCredentials", {"authenticatorId": authenticator})["credentials"]
    assert [c["rpId"] for c in stored] == ["localhost"]

    # The next sign-in is a new session: the step again, this time with the passkey, from the keyboard.
    page.context.clear_cookies()
    sign_in_browser(page, base, nell)
    page.set_viewport_size({"width": 320, "height": 720})
    page.goto(f"{base}/django-admin/")
    expect(page).to_have_url(f"{base}/second-factor?next=%2Fdjango-admin%2F")
    expect(page.get_by_role("heading", name="Confirm it's you", level=1)).to_be_visible()
    expect(page.get_by_text("You have 10 left.")).to_be_visible()
    assert page.evaluate(_LAYOUT_PROBLEMS) == []
    assert_no_axe_violations(page, context="second step, confirming")

    page.get_by_role("button", name="Use my passkey").focus()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{base}/django-admin/")
    expect(page.get_by_text("Kindly staff admin")).to_be_visible()
    credential.refresh_from_db()
    assert credential.last_used_at is not None


def test_staff_set_up_an_authenticator_app_from_the_keyboard_at_320px(live_server, page: Page):
    base = live_server.url
    otto = AdminUserFactory(first_name="Otto", email="otto@example.com")
    sign_in_browser(page, base, otto)
    page.set_viewport_size({"width": 320, "height": 720})
    page.goto(f"{base}/admin")
    expect(page.get_by_role("img", name=re.compile("QR code of your authenticator key"))).to_be_visible()
    assert page.evaluate(_LAYOUT_PROBLEMS) == []
    key = page.get_by_test_id("authenticator-key").inner_text().replace(" ", "")

    field = page.get_by_label("6-digit code from the app")
    field.focus()
    page.keyboard.type("000000" if totp_code(key) != "000000" else "111111")
    page.keyboard.press("Enter")
    error = page.get_by_role("alert").filter(has_text="That code did not work")
    expect(error).to_be_visible()
    expect(page.get_by_label("6-digit code from the app")).to_be_focused()
    assert page.evaluate(_LAYOUT_PROBLEMS) == []
    assert_no_axe_violations(page, context="second step, wrong code")
    assert not TOTPDevice.objects.filter(user=otto).exists()

    page.keyboard.type(totp_code(key))
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("recovery-codes").locator("code")).to_have_count(10)
    assert page.evaluate(_LAYOUT_PROBLEMS) == []
    page.get_by_role("link", name="I have saved my codes").focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Admin Dashboard", level=1)).to_be_visible()
    assert TOTPDevice.objects.get(user=otto).confirmed
