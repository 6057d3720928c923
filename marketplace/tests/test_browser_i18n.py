"""Kindly in Spanish, the islands (docs/i18n.md): a person whose language is Español sees /login and
/settings, their islands' words, a toast and a form's message in Spanish, on a 390 px phone, axe
clean and with no text cut off. English stays the default for everyone else."""

from __future__ import annotations

import pytest
from django.conf import settings
from playwright.sync_api import Page, expect

from accounts.models import User
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.firebase import emulator_user

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "browser-pass-1"
PHONE = {"width": 390, "height": 844}

# Text that does not fit its box (a button's label wider than the button, a heading running off the
# screen), and a page wider than the phone. Visually hidden text is clipped by design.
_CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const out = [];
  if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
  const selector = "main h1, main h2, main p, main label, main legend, main button, main a, [role=dialog] *, " +
    "[data-testid=toast] *, .field-error";
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || el.closest(".visually-hidden, [aria-hidden=true]")) continue;
    if (el.scrollWidth > el.clientWidth + 1 || r.right > width + 1) {
      out.push(`${el.tagName.toLowerCase()} "${(el.textContent || "").trim().slice(0, 40)}" ` +
               `${el.scrollWidth}/${el.clientWidth} ends at ${Math.round(r.right)} of ${width}`);
    }
  }
  return out;
}"""


def _nothing_cut_off(page: Page) -> None:
    assert page.evaluate(_CUT_OFF) == []


@pytest.fixture
def ana(firebase_auth):
    uid = emulator_user("ana@example.com", PASSWORD, "Ana Alvarez")
    return User.objects.create_user(
        id=uid, email="ana@example.com", first_name="Ana", last_name="Alvarez", language="es"
    )


def test_login_in_spanish_says_its_problems_and_toasts_in_spanish(live_server, page: Page, ana):
    page.set_viewport_size(PHONE)
    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": "es", "url": live_server.url}])
    page.goto(f"{live_server.url}/login")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Le damos la bienvenida", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Continuar con Google")).to_be_visible()
    assert_no_axe_violations(page, context="/login in Spanish")
    _nothing_cut_off(page)

    # A form's own messages (the island's schema), each under its field.
    page.get_by_role("button", name="Entrar", exact=True).click()
    expect(page.get_by_text("Por favor, escriba su correo electrónico.")).to_be_visible()
    expect(page.get_by_text("Por favor, escriba su contraseña.")).to_be_visible()
    assert_no_axe_violations(page, context="/login in Spanish, with its messages")
    _nothing_cut_off(page)

    # Firebase refuses: the card and the toast say why, in Spanish.
    page.get_by_label("Correo electrónico").fill("ana@example.com")
    page.get_by_label("Contraseña").fill("not-her-password")
    page.get_by_role("button", name="Entrar", exact=True).click()
    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("No se pudo entrar")
    expect(toast).to_contain_text("El correo o la contraseña no son correctos.")
    expect(page.get_by_role("button", name="Cerrar el aviso")).to_be_visible()
    expect(page.get_by_test_id("login-error")).to_contain_text("El correo o la contraseña no son correctos.")
    assert_no_axe_violations(page, context="/login in Spanish, with its toast")
    _nothing_cut_off(page)

    # The sign-up card, with its language picker.
    page.get_by_role("button", name="Crear una cuenta").click()
    expect(page.get_by_role("heading", name="Crear una cuenta", level=1)).to_be_visible()
    expect(page.get_by_label("Nombre", exact=True)).to_be_visible()
    _nothing_cut_off(page)


def test_settings_in_spanish_for_a_person_who_chose_espanol(live_server, page: Page, ana):
    page.set_viewport_size(PHONE)
    sign_in_browser(page, live_server.url, ana)
    page.goto(f"{live_server.url}/settings")
    expect(page.locator("html")).to_have_attribute("lang", "es")
    expect(page.get_by_role("heading", name="Ajustes", level=1)).to_be_visible()
    # The notices' island and the account's island, each in Spanish.
    notices = page.get_by_test_id("notification-settings")
    expect(notices.get_by_role("checkbox", name="Correo electrónico").first).to_be_visible()
    close = page.get_by_role("button", name="Cerrar mi cuenta")
    expect(close).to_be_visible()
    expect(page.get_by_test_id("usermenu-badge")).to_have_text("Cliente")
    assert_no_axe_violations(page, context="/settings in Spanish")
    _nothing_cut_off(page)

    # A choice saved: the toast says it in Spanish.
    first = notices.get_by_role("checkbox", name="Correo electrónico").first
    was_on = first.is_checked()
    first.click()
    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Guardado")
    expect(toast).to_contain_text("ahora están desactivados" if was_on else "ahora están activados")
    _nothing_cut_off(page)

    # The dialog, in Spanish; a word other than CLOSE is refused under the field.
    close.click()
    dialog = page.get_by_role("dialog", name="¿Cerrar su cuenta?")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Mantener mi cuenta")).to_be_visible()
    dialog.get_by_label("Escriba CLOSE para confirmar").fill("clos")
    dialog.get_by_role("button", name="Cerrar la cuenta").click()
    # The server's own message (export_rules), in the page's language.
    expect(dialog.get_by_test_id("close-confirm-error")).to_have_text(
        "Escriba CLOSE para confirmar que quiere cerrar su cuenta."
    )
    assert_no_axe_violations(page, context="/settings in Spanish, the dialog")
    _nothing_cut_off(page)
    assert User.objects.get(pk=ana.pk).closed_at is None


def test_a_person_who_chose_english_keeps_english_islands(live_server, page: Page, ana):
    User.objects.filter(pk=ana.pk).update(language="en")
    sign_in_browser(page, live_server.url, ana)
    page.goto(f"{live_server.url}/settings")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.get_by_role("button", name="Close my account")).to_be_visible()
    expect(page.get_by_test_id("notification-settings").get_by_role("checkbox", name="Email").first).to_be_visible()
