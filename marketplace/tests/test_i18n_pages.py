"""The server-rendered pages speak the reader's language (docs/i18n.md).

A person who chose Español (`User.language = "es"`) gets each page's own words in Spanish: its
title, headings and the sentences of its template, the words views hand to it (the calendar's month
and weekdays, the dashboard's subtitle), dates in Spanish; none of the template's English is left.
A person who chose English still reads every page in English. The markers are the pages' own
strong words (headings, leads), not the islands' (they render in the browser).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from html import unescape

import pytest
import time_machine
from django.conf import settings
from django.utils import translation

from accounts.models import User
from bookings.tests.factories import BookingFactory
from bookings.visit_export import visit_record_csv, visit_record_html
from circles.services import recipient_for_self
from circles.tests.factories import CareRecipientFactory

pytestmark = pytest.mark.django_db

ZONE = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
# Tuesday, March 10, 2026, mid-morning: the calendar's "today".
NOW = dt.datetime(2026, 3, 10, 10, 0, tzinfo=ZONE)

# page -> (Spanish that must be there, the template's English that must not, English that must be there)
CLIENT_PAGES = {
    "/dashboard": (
        ["Inicio - Kindly", "¡Qué gusto verle de nuevo, Clara!", "Su página de inicio para la ayuda en casa"],
        ["Dashboard - Kindly", "Welcome back", "Your trusted home support dashboard", "Loading your dashboard"],
        ["Dashboard - Kindly", "Welcome back, Clara!", "Your trusted home support dashboard"],
    ),
    "/request-service": (
        ["Pedir ayuda - Kindly", "<h1>Pedir ayuda</h1>", "Precios habituales", "Cómo funciona"],
        ["Request Support Service", "Typical Pricing", "How It Works", "Safety &amp; Trust", "Rates vary"],
        ["<h1>Request Support Service</h1>", "Typical Pricing", "How It Works"],
    ),
    "/messages": (
        ["Mensajes - Kindly", "Hable con las personas con quienes tiene reservas", "Cargando sus conversaciones"],
        ["Messages - Kindly", "Talk with the people", "Loading your conversations"],
        ["Messages - Kindly", "Talk with the people you have bookings with"],
    ),
    "/care-circle": (
        ["Círculo de cuidado - Kindly", "Las personas que usted cuida"],
        ["Care circle - Kindly", "The people you care for"],
        ["<h1>Care circle</h1>", "The people you care for"],
    ),
    "/providers": (
        ["Buscar ayudantes de confianza", "¿No encuentra lo que necesita?", "Ser ayudante"],
        ["Find Trusted Providers", "find what you need", "Become a Provider", "Loading providers"],
        ["<h1>Find Trusted Providers</h1>", "Can't find what you need?"],
    ),
    "/calendar": (
        [
            "Su calendario - Kindly",
            '<h2 id="calendar-title" data-testid="calendar-title">marzo de 2026</h2>',
            "<span>lunes</span>",
            "Mes anterior",
            "martes 10 de marzo",
            "Vea sus visitas en su propio calendario",
        ],
        ["Your calendar", "March", "Monday", "Previous month", "No visits", "See your visits"],
        ["March 2026", "<span>Monday</span>", "Previous month", "Tuesday, March 10"],
    ),
    "/privacy-policy": (
        ["Política de privacidad - Kindly", "La información que recogemos", "No vendemos su información personal"],
        ["Information We Collect", "We do not sell", "Data Retention", "Last updated"],
        ["Information We Collect", "We do not sell your personal information."],
    ),
    "/terms-of-service.html": (
        ["Condiciones del servicio - Kindly", "Uso permitido", "Los ayudantes son independientes"],
        ["Acceptable Use", "Providers are independent", "These terms govern"],
        ["Acceptable Use", "Providers are independent."],
    ),
    "/cancellation-policy": (
        ["Política de cancelación - Kindly", "Cuando no hay nadie en casa", "cargo por cancelación tardía"],
        ["When nobody is home", "Plans change", "late fee", "hours before the visit"],
        ["When nobody is home", "Plans change."],
    ),
    "/no-such-page": (
        ["Página no encontrada - Kindly", "404: no encontramos esta página", "Ir a la página principal"],
        ["Page Not Found", "Did you forget", "Go to the home page", "Looking for something"],
        ["404 Page Not Found", "Did you forget to add the page to the router?"],
    ),
}


@pytest.fixture(autouse=True)
def _back_to_the_site_language():
    """A request activates its reader's language in this thread and leaves it there: the tests
    that run next in this worker read English again."""
    yield
    translation.deactivate()


def _reader(user: User, language: str) -> User:
    user.language = language
    user.save(update_fields=["language"])
    return user


def _page(client, path: str) -> str:
    with time_machine.travel(NOW, tick=False):
        response = client.get(path)
    assert response.status_code in (200, 404), (path, response.status_code)
    return unescape(response.content.decode())


@pytest.fixture
def with_a_visit(client_user):
    """A visit in the calendar's month, so the page lists a day with it."""
    with time_machine.travel(NOW, tick=False):
        BookingFactory(
            service_request__client=client_user,
            service_request__recipient=recipient_for_self(user=client_user),
            scheduled_date=dt.date(2026, 3, 20),
        )
    return client_user


@pytest.mark.parametrize("path", CLIENT_PAGES)
def test_a_spanish_reader_reads_the_page_in_spanish(client, with_a_visit, path):
    client.force_login(_reader(with_a_visit, "es"))
    page = _page(client, path)
    spanish, english, _ = CLIENT_PAGES[path]
    assert '<html lang="es">' in page
    for words in spanish:
        assert unescape(words) in page, f"{path}: {words!r} missing"
    for words in english:
        assert unescape(words) not in page, f"{path}: English left: {words!r}"


@pytest.mark.parametrize("path", CLIENT_PAGES)
def test_an_english_reader_still_reads_english(client, with_a_visit, path):
    client.force_login(_reader(with_a_visit, "en"))
    page = _page(client, path)
    assert '<html lang="en">' in page
    for words in CLIENT_PAGES[path][2]:
        assert unescape(words) in page, f"{path}: {words!r} missing"


def test_checkout_speaks_spanish(client, client_user):
    booking = BookingFactory(service_request__client=client_user)
    client.force_login(_reader(client_user, "es"))
    page = _page(client, f"/checkout/{booking.pk}")
    assert "<title>Pago - Kindly</title>" in page and "Cargando la página de pago…" in page
    assert "Payment - Kindly" not in page and "Loading the payment page" not in page


def test_earnings_speak_spanish_with_us_money(client, verified_provider):
    client.force_login(_reader(verified_provider.user, "es"))
    page = _page(client, "/earnings")
    assert "<h1>Sus ganancias</h1>" in page and "Totales" in page
    assert "Todavía no tiene ganancias" in page and "Configurar los pagos" in page
    for english in ("Your earnings", "Totals", "No earnings yet", "Set up payouts", "What each paid visit"):
        assert english not in page, english


def test_a_signed_out_browser_in_spanish_gets_the_policies_in_spanish(client):
    page = unescape(client.get("/privacy-policy", HTTP_ACCEPT_LANGUAGE="es-US,es;q=0.9").content.decode())
    assert "La información que recogemos" in page and "Information We Collect" not in page


def test_the_printed_visit_record_is_in_the_readers_language(client_user):
    recipient = CareRecipientFactory(first_name="Walter", last_name="Stone")
    with translation.override("es"):
        html = visit_record_html(recipient, dt.date(2026, 11, 1), [])
    assert "Registro de visitas de noviembre de 2026" in html
    assert "No hay visitas registradas en noviembre de 2026." in html
    assert '<html lang="es">' in html and "Visit record" not in html and "November" not in html
    with translation.override("en"):
        assert "No visits are recorded for November 2026." in visit_record_html(recipient, dt.date(2026, 11, 1), [])


def test_the_visit_records_columns_are_in_the_readers_language():
    with translation.override("es"):
        assert visit_record_csv([]).splitlines()[0].startswith("Fecha,Servicio,Persona cuidada,Ayudante,Llegada")
    with translation.override("en"):
        assert visit_record_csv([]).splitlines()[0].startswith("Date,Service,Person cared for,Helper,Check-in")
