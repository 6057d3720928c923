"""The "Emails and text messages" part of /settings in Chromium: a choice is saved at once, a bad
phone number is explained under its field, and the section passes axe."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.firebase import emulator_user
from notifications.models import Contact, Preference

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "browser-pass-1"


@pytest.fixture
def nell(firebase_auth):
    uid = emulator_user("nell@example.com", PASSWORD, "Nell North")
    return User.objects.create_user(id=uid, email="nell@example.com", first_name="Nell", last_name="North")


def test_choices_are_saved_at_once_and_the_section_passes_axe(live_server, page: Page, nell, fake_twilio):
    sign_in_browser(page, live_server.url, nell)
    page.goto(f"{live_server.url}/settings#notifications")
    section = page.get_by_test_id("notification-settings")
    expect(section).to_be_visible()
    assert_no_axe_violations(page, context="/settings notifications")

    reminders = section.get_by_role("group", name="Visit reminders, 24 hours before")
    reminders.get_by_role("checkbox", name="Email").uncheck()
    expect(page.get_by_test_id("toast").last).to_contain_text(
        'Emails about "Visit reminders, 24 hours before" are now off.'
    )
    assert Preference.objects.get(user=nell, kind="visit_reminder", channel="email").enabled is False

    # Texts need a number first; a bad one is explained and nothing is stored.
    expect(reminders.get_by_role("checkbox", name="Text message")).to_be_disabled()
    page.get_by_label("Mobile number for text messages").fill("12")
    page.get_by_role("button", name="Save number").click()
    expect(page.get_by_test_id("notification-phone-error")).to_contain_text("Enter a mobile number")
    assert not Contact.objects.filter(user=nell).exclude(phone="").exists()

    page.get_by_label("Mobile number for text messages").fill("555 123 4567")
    page.get_by_role("button", name="Save number").click()
    expect(page.get_by_label("Mobile number for text messages")).to_have_value("+15551234567")
    reminders.get_by_role("checkbox", name="Text message").check()
    expect(page.get_by_test_id("toast").last).to_contain_text(
        'Text messages about "Visit reminders, 24 hours before" are now on.'
    )
    assert Preference.objects.get(user=nell, kind="visit_reminder", channel="sms").enabled is True
    assert_no_axe_violations(page, context="/settings notifications with a phone number")
