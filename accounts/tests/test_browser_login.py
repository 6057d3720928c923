"""The sign-in card in Chromium: "Forgot password?" through the Firebase
Auth emulator, failures shown in the card until the person changes something, and the landing
page's buttons leading through sign-up to the form asked for."""

from __future__ import annotations

import re

import pytest
import requests
from playwright.sync_api import Page, expect

from accounts.models import User
from accounts.tests.factories import UserFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.firebase import AuthEmulator, emulator_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-pass-1"


def _oob_codes(emulator: AuthEmulator) -> list[dict]:
    """The emails the emulator "sent" (its stand-in for an outbox)."""
    url = f"{emulator.base_url}/emulator/v1/projects/{emulator.project_id}/oobCodes"
    response = requests.get(url, timeout=10)
    response.raise_for_status()
    return response.json().get("oobCodes", [])


def _login_error(page: Page):
    return page.get_by_test_id("login-error")


def _ask_for_reset(page: Page, base: str, email: str) -> None:
    page.goto(f"{base}/login")
    page.get_by_role("button", name="Forgot password?").click()
    heading = page.get_by_role("heading", name="Reset your password")
    expect(heading).to_be_visible()
    expect(heading).to_be_focused()
    page.get_by_label("Email").fill(email)
    page.get_by_role("button", name="Send Reset Link").click()


def test_forgot_password_sends_the_reset_email_and_the_new_password_signs_in(live_server, page: Page, firebase_auth):
    uid = emulator_user("rita@example.com", PASSWORD, "Rita Reed")
    UserFactory(id=uid, email="rita@example.com", first_name="Rita")
    base = live_server.url

    _ask_for_reset(page, base, "rita@example.com")

    expect(page.get_by_role("heading", name="Check your email")).to_be_focused()
    sent = page.get_by_test_id("reset-sent")
    expect(sent).to_contain_text("If there is a Kindly account for rita@example.com")
    expect(sent).to_contain_text("we've sent it a link to choose a new password")
    assert_no_axe_violations(page)
    codes = [c for c in _oob_codes(firebase_auth) if c["email"] == "rita@example.com"]
    assert [c["requestType"] for c in codes] == ["PASSWORD_RESET"]

    # Following the emailed link sets a new password (the emulator's REST stand-in for the page
    # the link opens); the old one then fails and the new one signs in.
    reset = requests.post(
        f"{firebase_auth.base_url}/identitytoolkit.googleapis.com/v1/accounts:resetPassword?key=any",
        json={"oobCode": codes[0]["oobCode"], "newPassword": "brand-new-pass-2"},
        timeout=10,
    )
    assert reset.status_code == 200, reset.text
    page.get_by_role("button", name="Back to Sign In").click()
    expect(page.get_by_role("heading", name="Welcome Back")).to_be_focused()
    expect(page.get_by_label("Email")).to_have_value("rita@example.com")
    page.get_by_label("Password").fill("brand-new-pass-2")
    page.get_by_role("button", name="Sign In", exact=True).click()
    page.wait_for_url(f"{base}/", timeout=15000)
    expect(page.get_by_test_id("usermenu-name")).to_have_text("Rita", timeout=15000)


def test_forgot_password_for_an_unknown_address_reads_the_same_and_sends_nothing(
    live_server, page: Page, firebase_auth
):
    emulator_user("someone@example.com", PASSWORD)

    _ask_for_reset(page, live_server.url, "nobody@example.com")

    expect(page.get_by_role("heading", name="Check your email")).to_be_visible()
    expect(page.get_by_test_id("reset-sent")).to_contain_text("If there is a Kindly account for nobody@example.com")
    assert [c for c in _oob_codes(firebase_auth) if c["email"] == "nobody@example.com"] == []


def test_forgot_password_with_a_mistyped_address_says_so_at_the_field(live_server, page: Page, firebase_auth):
    _ask_for_reset(page, live_server.url, "rita.example.com")

    expect(page.get_by_test_id(re.compile(r".*-email-error$"))).to_have_text("Please enter a valid email address.")
    expect(page.get_by_label("Email")).to_have_attribute("aria-invalid", "true")
    expect(page.get_by_label("Email")).to_be_focused()
    expect(page.get_by_role("heading", name="Reset your password")).to_be_visible()
    assert [c for c in _oob_codes(firebase_auth) if "rita" in c["email"]] == []


def test_a_failed_sign_in_stays_in_the_card_until_the_person_types(live_server, page: Page, firebase_auth):
    emulator_user("sam@example.com", PASSWORD, "Sam Stone")
    page.goto(f"{live_server.url}/login")
    page.get_by_label("Email").fill("sam@example.com")
    page.get_by_label("Password").fill("not-the-password")
    page.get_by_role("button", name="Sign In", exact=True).click()

    alert = page.get_by_role("alert").filter(has_text="Sign in failed")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text("Incorrect email or password. Please try again.")
    expect(page.get_by_test_id("toast")).to_contain_text("Sign in failed")  # a toast may also appear
    assert_no_axe_violations(page)

    # The toast goes after 5 s; the message in the card stays.
    expect(page.get_by_test_id("toast")).to_have_count(0, timeout=10000)
    expect(alert).to_be_visible()
    expect(page.get_by_role("button", name="Sign In", exact=True)).to_be_enabled()

    page.get_by_label("Password").press_sequentially("x")
    expect(_login_error(page)).to_be_empty()
    expect(_login_error(page)).to_be_hidden()
    assert not User.objects.exists()


def test_an_empty_sign_up_shows_each_fields_message_and_calls_nobody(live_server, page: Page, firebase_auth):
    page.goto(f"{live_server.url}/login")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("First name").fill("   ")  # spaces only is no name
    page.get_by_label("Email").fill("not-an-email")
    page.get_by_label("Password").fill("short")
    page.get_by_role("button", name="Create Account").click()

    card = page.locator(".login-card")
    expect(card.locator(".field-error").filter(has_text="Please enter your first name.")).to_be_visible()
    expect(card.locator(".field-error").filter(has_text="Please enter your last name.")).to_be_visible()
    expect(card.locator(".field-error").filter(has_text="Please enter a valid email address.")).to_be_visible()
    expect(
        card.locator(".field-error").filter(has_text="Password should be at least 6 characters long.")
    ).to_be_visible()
    expect(page.get_by_label("First name")).to_be_focused()
    expect(page.get_by_label("First name")).to_have_attribute("aria-invalid", "true")
    assert_no_axe_violations(page)

    # Fixing a field clears its own message only.
    page.get_by_label("Last name").fill("Lopez")
    expect(card.locator(".field-error").filter(has_text="Please enter your last name.")).to_have_count(0)
    expect(card.locator(".field-error").filter(has_text="Please enter your first name.")).to_be_visible()
    accounts = requests.get(
        f"{firebase_auth.base_url}/emulator/v1/projects/{firebase_auth.project_id}/accounts", timeout=10
    )
    assert accounts.json().get("userInfo", []) == []


def test_a_server_refusal_after_sign_in_shows_its_message_in_the_card(live_server, page: Page, firebase_auth, settings):
    emulator_user("tia@example.com", PASSWORD, "Tia Lo")
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "sign_in": "0/min"}  # every sign-in is refused
    page.goto(f"{live_server.url}/login")
    page.get_by_label("Email").fill("tia@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()

    alert = page.get_by_role("alert").filter(has_text="Sign in failed")
    expect(alert).to_contain_text("Too many requests. Please wait 60 seconds and try again.")
    expect(alert).not_to_contain_text("429")
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "button, form_path, form_heading",
    [
        ("Request Service Now", "/request-service", "Request Support Service"),
        ("Become a Provider", "/provider-signup", "Become a Provider"),
    ],
)
def test_landing_buttons_open_sign_up_and_land_on_the_form_asked_for(
    live_server, page: Page, firebase_auth, button, form_path, form_heading
):
    base = live_server.url
    page.goto(f"{base}/")
    page.get_by_role("link", name=button).first.click()

    expect(page).to_have_url(re.compile(r"/login\?mode=signup&next=%2F"))
    expect(page.get_by_role("heading", name="Create Account")).to_be_visible()
    expect(page.get_by_test_id("login-next")).to_be_visible()
    page.get_by_label("First name").fill("Nora")
    page.get_by_label("Last name").fill("Nash")
    page.get_by_label("Email").fill("nora@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()

    expect(page.get_by_test_id("toast")).to_contain_text("Welcome to Kindly!")
    page.wait_for_url(f"{base}{form_path}", timeout=15000)
    expect(page.get_by_role("heading", name=form_heading, exact=True).first).to_be_visible()
    assert User.objects.get(email="nora@example.com").first_name == "Nora"


def test_an_existing_member_from_become_a_provider_signs_in_and_lands_on_the_application(
    live_server, page: Page, firebase_auth
):
    uid = emulator_user("olga@example.com", PASSWORD, "Olga Ortiz")
    UserFactory(id=uid, email="olga@example.com", first_name="Olga")
    base = live_server.url
    page.goto(f"{base}/")
    page.get_by_role("link", name="Become a Provider").first.click()
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Welcome Back")).to_be_focused()
    page.get_by_label("Email").fill("olga@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()

    page.wait_for_url(f"{base}/provider-signup", timeout=15000)


def test_a_next_that_leaves_the_site_lands_home_instead(live_server, page: Page, firebase_auth):
    uid = emulator_user("ivy@example.com", PASSWORD, "Ivy Ives")
    UserFactory(id=uid, email="ivy@example.com", first_name="Ivy")
    base = live_server.url
    page.goto(f"{base}/login?next=//evil.example/phish")
    page.get_by_label("Email").fill("ivy@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()

    page.wait_for_url(f"{base}/", timeout=15000)
