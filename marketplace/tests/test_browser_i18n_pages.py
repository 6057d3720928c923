"""The server-rendered pages in Spanish, in Chromium: each is axe clean (WCAG 2.x A/AA, the page's
`lang` is "es"), fits a 320 px wide screen without sideways scrolling (Spanish runs about a fifth
longer than English), and shows its Spanish heading."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# path -> its level-1 heading in Spanish
CLIENT_PAGES = {
    "/dashboard": "¡Qué gusto verle de nuevo, Clara!",
    "/request-service": "Pedir ayuda",
    "/providers": "Buscar ayudantes de confianza",
    "/messages": "Mensajes",
    "/care-circle": "Círculo de cuidado",
    "/calendar": "Su calendario",
    "/privacy-policy": "Política de privacidad",
    "/terms-of-service.html": "Condiciones del servicio",
    "/cancellation-policy": "Política de cancelación",
    "/no-such-page": "404: no encontramos esta página",
}


def _overflow(page: Page) -> int:
    """How many pixels the page is wider than the screen (0: nothing to scroll sideways)."""
    return page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")


def test_a_spanish_reader_pages_are_accessible_and_fit_320_px(live_server, page: Page, client_user, verified_provider):
    client_user.language = "es"
    client_user.save(update_fields=["language"])
    BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Visita de bienestar"),
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=3),
        status=BookingStatus.CONFIRMED,
    )
    page.set_viewport_size({"width": 320, "height": 800})
    sign_in_browser(page, live_server.url, client_user)
    problems = []
    for path, heading in CLIENT_PAGES.items():
        page.goto(live_server.url + path, wait_until="networkidle")
        expect(page.locator("html")).to_have_attribute("lang", "es")
        expect(page.get_by_role("heading", level=1).first).to_have_text(heading)
        violations = axe_violations(page)
        if violations:
            problems.append(f"{path}:\n{format_violations(violations)}")
        if (wider := _overflow(page)) > 0:
            problems.append(f"{path}: {wider} px wider than a 320 px screen")
    assert problems == [], "\n\n".join(problems)


def test_a_spanish_helper_reads_her_earnings_in_spanish(live_server, page: Page, verified_provider):
    helper = verified_provider.user
    helper.language = "es"
    helper.save(update_fields=["language"])
    page.set_viewport_size({"width": 320, "height": 800})
    sign_in_browser(page, live_server.url, helper)
    page.goto(live_server.url + "/earnings", wait_until="networkidle")
    expect(page.get_by_role("heading", name="Sus ganancias", level=1)).to_be_visible()
    expect(page.get_by_role("button", name="Configurar los pagos")).to_be_visible()
    violations = axe_violations(page)
    assert violations == [], format_violations(violations)
    assert _overflow(page) <= 0
