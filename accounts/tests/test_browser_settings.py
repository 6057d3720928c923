"""Settings in Chromium: from the user menu, download the data, close the account through the dialog."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from firebase_admin import auth
from playwright.sync_api import Page, expect

from accounts.firebase import get_app
from accounts.models import User
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.firebase import emulator_user
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "browser-pass-1"


@pytest.fixture
def ann(firebase_auth):
    uid = emulator_user("ann@example.com", PASSWORD, "Ann Archer")
    return User.objects.create_user(id=uid, email="ann@example.com", first_name="Ann", last_name="Archer")


def test_download_the_data_then_close_the_account(live_server, page: Page, ann):
    request = ServiceRequestFactory(client=ann, title="Help with my phone")
    base = live_server.url
    sign_in_browser(page, base, ann)
    page.goto(f"{base}/dashboard")

    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Settings").click()
    expect(page).to_have_url(f"{base}/settings")
    expect(page.get_by_role("heading", name="Settings", level=1)).to_be_visible()

    with page.expect_download() as info:
        page.get_by_role("link", name="Download my data").click()
    download = info.value
    assert download.suggested_filename.startswith("kindly-data-")
    data = json.loads(Path(download.path()).read_text())
    assert data["profile"]["email"] == "ann@example.com"
    assert [r["title"] for r in data["serviceRequests"]] == ["Help with my phone"]

    page.get_by_role("button", name="Close my account").click()
    dialog = page.get_by_role("dialog", name="Close your account?")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Type CLOSE to confirm").fill("clos")  # any case is fine, a wrong word is not
    dialog.get_by_role("button", name="Close account").click()
    expect(dialog.get_by_test_id("close-confirm-error")).to_have_text(
        "Type CLOSE to confirm that you want to close your account."
    )
    assert User.objects.get(pk=ann.pk).closed_at is None

    dialog.get_by_label("Type CLOSE to confirm").fill("CLOSE")
    dialog.get_by_role("button", name="Close account").click()

    expect(page).to_have_url(f"{base}/")
    expect(page.get_by_test_id("toast")).to_contain_text("Account closed")
    expect(page.get_by_role("link", name="Sign In")).to_be_visible()
    expect(page.get_by_test_id("usermenu-trigger")).to_have_count(0)
    assert User.objects.get(pk=ann.pk).closed_at is not None
    assert ServiceRequest.objects.get(pk=request.pk).status == RequestStatus.CANCELLED
    assert auth.get_user(ann.pk, app=get_app()).disabled
    page.goto(f"{base}/settings")
    expect(page).to_have_url(f"{base}/login?next=%2Fsettings")
    # Signing in again is refused.
    page.get_by_label("Email").fill("ann@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign In", exact=True).click()
    expect(page.get_by_test_id("toast")).to_contain_text("This account has been disabled")
    expect(page).to_have_url(f"{base}/login?next=%2Fsettings")


def test_settings_page_and_its_dialog_pass_axe(live_server, page: Page, ann):
    sign_in_browser(page, live_server.url, ann)
    page.goto(f"{live_server.url}/settings")
    expect(page.get_by_role("button", name="Close my account")).to_be_visible()

    assert_no_axe_violations(page, context="/settings")
    page.get_by_role("button", name="Close my account").click()
    expect(page.get_by_role("dialog", name="Close your account?")).to_be_visible()
    assert_no_axe_violations(page, context="/settings with the close dialog open")
