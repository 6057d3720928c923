"""The sign-up form refuses names made only of spaces, before any account is made."""

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from marketplace.testing.firebase import emulator_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(
    ("first", "last", "message"),
    [("   ", "Parks", "Please enter your first name."), ("Rosa", "  ", "Please enter your last name.")],
)
def test_sign_up_refuses_names_of_spaces(live_server, page: Page, firebase_auth, first, last, message):
    page.goto(f"{live_server.url}/login")
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("First name").fill(first)
    page.get_by_label("Last name").fill(last)
    page.get_by_label("Email").fill("blank@example.com")
    page.get_by_label("Password").fill("browser-pass-1")
    page.get_by_role("button", name="Create Account").click()

    expect(page.get_by_text(message).first).to_be_visible()
    expect(page.get_by_role("button", name="Create Account")).to_be_enabled()
    assert page.url.startswith(f"{live_server.url}/login")
    assert not User.objects.exists()
    emulator_user("blank@example.com", "browser-pass-1")  # the address is still free: no account was made
