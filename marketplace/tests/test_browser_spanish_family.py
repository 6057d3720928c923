"""A Spanish-speaking family member (User.language = "es") on her path at 390 px: the dashboard,
the request form and the messages page say Spanish, no button's words are cut off (its scrollWidth
fits its clientWidth), and axe finds nothing (issue 34, part D)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Buttons and button-like links whose words do not fit: the text runs past the box.
_CUT_BUTTONS = """() => {
  const out = [];
  for (const el of document.querySelectorAll("main button, main a.button, main .button")) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1 || el.closest(".visually-hidden")) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.push(`"${(el.textContent || "").trim()}" ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  return out;
}"""


@pytest.fixture
def spanish_client(client_user):
    client_user.language = "es"
    client_user.save(update_fields=["language"])
    ServiceRequestFactory(client=client_user, title="Ayuda con la compra")
    return client_user


def _check(page: Page, problems: dict[str, object]) -> None:
    path = page.url
    expect(page.locator("html")).to_have_attribute("lang", "es")
    cut = page.evaluate(_CUT_BUTTONS)
    if cut:
        problems[f"{path} cut"] = cut
    found = axe_violations(page)
    if found:
        problems[f"{path} axe"] = format_violations(found)


def test_a_spanish_family_member_reads_her_path_in_spanish_at_390px(live_server, page: Page, spanish_client):
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in_browser(page, live_server.url, spanish_client)
    problems: dict[str, object] = {}

    page.goto(f"{live_server.url}/dashboard", wait_until="networkidle")
    expect(page.get_by_role("heading", name="Sus solicitudes")).to_be_visible()
    expect(page.get_by_role("heading", name="Sus reservas")).to_be_visible()
    expect(page.locator(".tile-label", has_text="Pedir ayuda")).to_be_visible()
    expect(page.get_by_role("heading", name="Your Requests")).to_have_count(0)
    _check(page, problems)

    page.goto(f"{live_server.url}/request-service", wait_until="networkidle")
    expect(page.get_by_role("button", name="Enviar la solicitud")).to_be_visible()
    expect(page.get_by_label("¿Para quién es?")).to_be_visible()
    _check(page, problems)

    page.goto(f"{live_server.url}/messages", wait_until="networkidle")
    expect(page.get_by_role("link", name="Ir al contenido principal")).to_be_attached()
    expect(page.get_by_role("heading", name="¿Necesita ayuda?")).to_be_visible()
    expect(page.get_by_role("heading", name="Elija una conversación")).to_be_visible()
    _check(page, problems)

    assert problems == {}, problems
