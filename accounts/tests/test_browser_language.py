"""Choosing Español in Chromium: the sign-up card starts at the browser's language and makes the
account's; /settings changes it with the keyboard and the page answers in the new language."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from accounts.tests.factories import UserFactory
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_spanish_browser_signs_up_in_spanish(live_server, browser: Browser, firebase_auth):
    context = browser.new_context(locale="es-US")
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/login?mode=signup")
        language = page.get_by_label("Language / Idioma")
        expect(language).to_have_value("es")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        # The sign-up form is in Spanish from its first word.
        page.get_by_label("Nombre", exact=True).fill("Rosa")
        page.get_by_label("Apellido").fill("Parks")
        page.get_by_label("Correo electrónico").fill("rosa@example.com")
        page.get_by_label("Contraseña", exact=True).fill("browser-pass-1")
        page.get_by_role("button", name="Crear una cuenta").click()

        # Signed up: the home page, in Spanish (the header's "Inicio" is on the sign-up page too).
        page.wait_for_url(f"{live_server.url}/", timeout=15_000)
        expect(page.get_by_role("link", name="Inicio").first).to_be_visible()
        assert User.objects.get(email="rosa@example.com").language == "es"
    finally:
        context.close()


def test_the_settings_language_form_works_by_keyboard(live_server, page: Page):
    user = UserFactory(first_name="Ann", language="en")
    sign_in_browser(page, live_server.url, user)
    page.goto(f"{live_server.url}/settings")
    expect(page.get_by_role("heading", name="Language", level=2)).to_be_visible()

    select = page.get_by_label("Your language")
    select.focus()
    select.select_option("es")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Save language")).to_be_focused()
    page.keyboard.press("Enter")

    expect(page.get_by_role("heading", name="Ajustes", level=1)).to_be_visible()
    expect(page.get_by_role("status").or_(page.get_by_text("Idioma guardado")).first).to_be_visible()
    expect(page.get_by_label("Su idioma")).to_have_value("es")
    assert User.objects.get(pk=user.pk).language == "es"
    assert_no_axe_violations(page, context="/settings in Spanish")
    # The save button is a full-size target.
    box = page.get_by_role("button", name="Guardar idioma").bounding_box()
    assert box is not None and box["height"] >= 44
