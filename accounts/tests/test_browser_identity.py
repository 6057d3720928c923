"""Sign-in in Chromium against a live server and the Firebase Auth emulator."""

import re

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User, UserType
from accounts.tests.factories import UserFactory
from marketplace.testing.firebase import emulator_user, serve_gapi_shim

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "browser-pass-1"


def _toast(page: Page):
    return page.get_by_test_id("toast")


def _sign_in_form(page: Page, base: str, email: str, password: str) -> None:
    page.goto(f"{base}/login")
    expect(page.get_by_role("heading", name="Welcome Back")).to_be_visible()
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name="Sign In", exact=True).click()


def _same_site_as_emulator(url: str) -> str:
    """The live server under 127.0.0.1, the emulator's host: its helper iframe then counts as
    first-party (Chromium denies storage to third-party frames, which breaks the popup relay)."""
    return url.replace("://localhost:", "://127.0.0.1:")


def _signed_in_as(page: Page, first_name: str) -> None:
    expect(page.get_by_test_id("usermenu-name")).to_have_text(first_name, timeout=15000)


def test_sign_up_sign_out_reload_and_sign_in_again(live_server, page: Page, firebase_auth):
    base = live_server.url
    page.goto(f"{base}/login")
    page.get_by_role("button", name="Sign up").click()
    expect(page.get_by_role("heading", name="Create Account")).to_be_visible()
    expect(page.get_by_text("Already have an account?")).to_be_visible()
    page.get_by_label("First name").fill("Rosa")
    page.get_by_label("Last name").fill("Parks")
    page.get_by_label("Email").fill("rosa@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()

    expect(_toast(page)).to_contain_text("Welcome to Kindly!")
    page.wait_for_url(f"{base}/", timeout=15000)
    _signed_in_as(page, "Rosa")
    expect(page.get_by_test_id("usermenu-trigger")).to_contain_text("Client")
    user = User.objects.get(email="rosa@example.com")
    assert (user.first_name, user.last_name, user.user_type) == ("Rosa", "Parks", UserType.CLIENT)

    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Sign Out").click()
    page.wait_for_url(f"{base}/")
    expect(page.get_by_role("link", name="Sign In")).to_be_visible()
    page.reload()
    expect(page.get_by_role("link", name="Sign In")).to_be_visible()
    expect(page.get_by_test_id("usermenu-trigger")).to_have_count(0)

    _sign_in_form(page, base, "rosa@example.com", PASSWORD)
    expect(_toast(page)).to_contain_text("Welcome back!")
    page.wait_for_url(f"{base}/", timeout=15000)
    _signed_in_as(page, "Rosa")


def test_wrong_password_shows_sign_in_failed(live_server, page: Page, firebase_auth):
    emulator_user("sam@example.com", PASSWORD, "Sam Stone")
    _sign_in_form(page, live_server.url, "sam@example.com", "not-the-password")

    expect(_toast(page)).to_contain_text("Sign in failed")
    expect(_toast(page)).to_contain_text("Incorrect email or password. Please try again.")
    expect(page).to_have_url(f"{live_server.url}/login")
    assert not User.objects.exists()


def test_sign_up_with_a_registered_email_shows_the_spec_text(live_server, page: Page, firebase_auth):
    emulator_user("taken@example.com", PASSWORD)
    page.goto(f"{live_server.url}/login")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("First name").fill("Tia")
    page.get_by_label("Last name").fill("Lo")
    page.get_by_label("Email").fill("taken@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()

    expect(_toast(page)).to_contain_text("Sign up failed")
    expect(_toast(page)).to_contain_text("This email is already registered. Try signing in instead.")


def test_sign_in_returns_to_the_protected_page_asked_for(live_server, page: Page, firebase_auth):
    uid = emulator_user("una@example.com", PASSWORD, "Una May")
    UserFactory(id=uid, email="una@example.com", first_name="Una")
    page.goto(f"{live_server.url}/messages")
    page.get_by_label("Email").fill("una@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()
    page.wait_for_url(f"{live_server.url}/messages", timeout=15000)
    _signed_in_as(page, "Una")


def test_client_on_admin_lands_home_with_the_unauthorized_toast(live_server, page: Page, firebase_auth):
    uid = emulator_user("cleo@example.com", PASSWORD, "Cleo Client")
    UserFactory(id=uid, email="cleo@example.com", first_name="Cleo", user_type=UserType.CLIENT)
    _sign_in_form(page, live_server.url, "cleo@example.com", PASSWORD)
    page.wait_for_url(f"{live_server.url}/", timeout=15000)

    page.goto(f"{live_server.url}/admin")

    expect(page).to_have_url(f"{live_server.url}/")
    expect(_toast(page)).to_contain_text("Unauthorized")
    expect(_toast(page)).to_contain_text("Admin access required")
    page.reload()  # shown once only
    expect(_toast(page)).to_have_count(0)


def test_signed_in_user_on_login_goes_home(live_server, page: Page, firebase_auth):
    uid = emulator_user("vic@example.com", PASSWORD, "Vic Vale")
    UserFactory(id=uid, email="vic@example.com", first_name="Vic")
    _sign_in_form(page, live_server.url, "vic@example.com", PASSWORD)
    page.wait_for_url(f"{live_server.url}/", timeout=15000)
    page.goto(f"{live_server.url}/login")
    expect(page).to_have_url(f"{live_server.url}/")


def test_switch_user_type_from_the_menu_reloads_with_the_new_badge(live_server, page: Page, firebase_auth):
    uid = emulator_user("wes@example.com", PASSWORD, "Wes West")
    UserFactory(id=uid, email="wes@example.com", first_name="Wes", user_type=UserType.CLIENT)
    _sign_in_form(page, live_server.url, "wes@example.com", PASSWORD)
    _signed_in_as(page, "Wes")

    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Switch to Provider").click()

    expect(_toast(page)).to_contain_text("User Type Updated")
    expect(_toast(page)).to_contain_text("Your account type has been switched successfully.")
    expect(page.get_by_test_id("usermenu-trigger")).to_contain_text("Provider", timeout=10000)
    assert User.objects.get(pk=uid).user_type == UserType.PROVIDER


def test_admin_menu_has_no_switch_item(live_server, page: Page, firebase_auth):
    uid = emulator_user("ada2@example.com", PASSWORD, "Ada Admin")
    UserFactory(id=uid, email="ada2@example.com", first_name="Ada", user_type=UserType.ADMIN)
    _sign_in_form(page, live_server.url, "ada2@example.com", PASSWORD)
    _signed_in_as(page, "Ada")

    page.get_by_test_id("usermenu-trigger").click()
    expect(page.get_by_role("menuitem", name="Sign Out")).to_be_visible()
    expect(page.get_by_role("menuitem", name="Dashboard")).to_be_visible()
    expect(page.get_by_role("menuitem", name="Settings")).to_be_visible()
    expect(page.get_by_role("menuitem", name=re.compile("Switch to"))).to_have_count(0)
    expect(page.get_by_role("link", name="Admin", exact=True)).to_be_visible()


def test_mobile_drawer_repeats_the_menu(live_server, page: Page, firebase_auth):
    uid = emulator_user("xia@example.com", PASSWORD, "Xia Xu")
    UserFactory(id=uid, email="xia@example.com", first_name="Xia", user_type=UserType.PROVIDER)
    page.set_viewport_size({"width": 390, "height": 800})
    _sign_in_form(page, live_server.url, "xia@example.com", PASSWORD)
    page.wait_for_url(f"{live_server.url}/", timeout=15000)

    expect(page.get_by_test_id("usermenu-trigger")).to_be_hidden()
    page.get_by_test_id("usermenu-drawer-trigger").click()
    drawer = page.get_by_role("dialog", name="Menu")
    expect(drawer).to_be_visible()
    expect(drawer).to_contain_text("Xia")
    expect(drawer).to_contain_text("Provider")
    # A helper's bar: her work, not "Request Service".
    for name in ("Dashboard", "Schedule", "Calendar", "Earnings", "Messages"):
        expect(drawer.get_by_role("link", name=name)).to_be_visible()
    expect(drawer.get_by_role("link", name="Request Service")).to_have_count(0)
    expect(drawer.get_by_role("button", name="Switch to Client")).to_be_visible()
    drawer.get_by_role("button", name="Sign Out").click()
    page.wait_for_url(f"{live_server.url}/")
    expect(page.get_by_test_id("usermenu-drawer-trigger")).to_have_count(0)


def test_google_sign_in_through_the_emulator_popup(live_server, page: Page, firebase_auth):
    serve_gapi_shim(page.context)
    base = _same_site_as_emulator(live_server.url)
    page.goto(f"{base}/login")
    with page.expect_popup() as popup_info:
        page.get_by_role("button", name="Continue with Google").click()
    popup = popup_info.value
    popup.wait_for_selector("#add-account-button")
    popup.locator("#add-account-button button").click()
    popup.locator("#email-input").fill("gina@example.com")
    popup.locator("#display-name-input").fill("Gina Green")
    popup.locator("#sign-in").click()

    expect(_toast(page)).to_contain_text("Welcome back!", timeout=15000)
    page.wait_for_url(f"{base}/", timeout=15000)
    _signed_in_as(page, "Gina")
    user = User.objects.get(email="gina@example.com")
    assert (user.first_name, user.last_name) == ("Gina", "Green")


def test_closing_the_google_popup_shows_the_cancelled_text(live_server, page: Page, firebase_auth):
    serve_gapi_shim(page.context)
    base = _same_site_as_emulator(live_server.url)
    page.goto(f"{base}/login")
    page.get_by_role("button", name="Sign up").click()
    with page.expect_popup() as popup_info:
        page.get_by_role("button", name="Continue with Google").click()
    popup_info.value.close()

    expect(_toast(page)).to_contain_text("Google sign up failed", timeout=15000)
    expect(_toast(page)).to_contain_text("Sign-up was cancelled.")


def test_missing_firebase_config_is_logged_listing_the_items(live_server, page: Page, settings):
    settings.FIREBASE_API_KEY = ""
    settings.FIREBASE_APP_ID = ""
    messages = []
    page.on("console", lambda m: messages.append(m.text) if m.type == "error" else None)
    page.goto(f"{live_server.url}/login")
    expect(page.get_by_role("heading", name="Welcome Back")).to_be_visible()
    expect(page.get_by_role("alert").filter(has_text="Sign-in is unavailable right now")).to_be_visible()
    expect(page.get_by_role("button", name="Sign In", exact=True)).to_be_disabled()
    assert "Firebase configuration is missing: API key, app id" in messages


def test_failed_sign_out_is_logged_and_still_goes_home(live_server, page: Page, firebase_auth):
    uid = emulator_user("yan@example.com", PASSWORD, "Yan Yu")
    UserFactory(id=uid, email="yan@example.com", first_name="Yan")
    _sign_in_form(page, live_server.url, "yan@example.com", PASSWORD)
    _signed_in_as(page, "Yan")
    page.goto(f"{live_server.url}/messages")
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.route("**/api/auth/logout", lambda route: route.fulfill(status=500, body="boom"))

    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Sign Out").click()

    page.wait_for_url(f"{live_server.url}/")
    assert any(e.startswith("Sign out failed") for e in errors), errors
