"""The private calendar feed speaks its owner's language (User.language): a calendar app fetches it
with no session and no Accept-Language that means anything, so the owner's choice decides."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from icalendar import Calendar

from bookings.models import BookingStatus
from bookings.services import calendar_feed_token
from bookings.tests.factories import BookingFactory
from providers.models import TimeOff

pytestmark = pytest.mark.django_db

DAY = timezone.localdate() + dt.timedelta(days=10)


def _feed(client, user) -> Calendar:
    response = client.get(f"/calendar/{calendar_feed_token(user=user)}.ics", HTTP_ACCEPT_LANGUAGE="en-US")
    assert response.status_code == 200
    return Calendar.from_ical(response.content)


def _visit(client_user, provider, **kwargs):
    return BookingFactory(
        client=client_user,
        service_request__client=client_user,
        service_request__title="Ayuda con la tableta",
        provider=provider,
        scheduled_date=DAY,
        scheduled_time="afternoon",
        **kwargs,
    )


def test_a_spanish_owners_feed_has_spanish_titles_and_descriptions(client, client_user, verified_provider):
    client_user.language = "es"
    client_user.save(update_fields=["language"])
    booking = _visit(client_user, verified_provider)
    cancelled = _visit(client_user, verified_provider, status=BookingStatus.CANCELLED)

    calendar = _feed(client, client_user)
    events = {str(e["uid"]): e for e in calendar.walk("VEVENT")}
    who, helper = booking.recipient.full_name, verified_provider.user.full_name

    assert str(calendar["x-wr-calname"]) == "Visitas de Kindly"
    event = events[f"booking-{booking.pk}@kindly"]
    assert str(event["summary"]) == f"Kindly: Ayuda con la tableta para {who} con {helper}"
    description = str(event["description"])
    assert f"Para {who}, con {helper}." in description and "Detalles: http" in description
    gone = events[f"booking-{cancelled.pk}@kindly"]
    assert str(gone["summary"]).startswith("Cancelada: Kindly: ")
    assert "Esta visita está cancelada." in str(gone["description"])


def test_the_same_visit_reads_in_english_in_an_english_owners_feed(client, client_user, verified_provider):
    booking = _visit(client_user, verified_provider)
    helper_user = verified_provider.user
    helper_user.language = "es"
    helper_user.save(update_fields=["language"])

    family = {str(e["uid"]): e for e in _feed(client, client_user).walk("VEVENT")}
    helper = {str(e["uid"]): e for e in _feed(client, helper_user).walk("VEVENT")}

    uid = f"booking-{booking.pk}@kindly"
    assert str(family[uid]["summary"]).startswith("Kindly: Ayuda con la tableta for ")
    assert str(helper[uid]["summary"]) == f"Kindly: Ayuda con la tableta para {booking.recipient.full_name}"


def test_a_spanish_helpers_time_off_is_in_spanish(client, verified_provider):
    user = verified_provider.user
    user.language = "es"
    user.save(update_fields=["language"])
    TimeOff.objects.create(provider=verified_provider, first_day=DAY, last_day=DAY)

    [event] = _feed(client, user).walk("VEVENT")
    assert str(event["summary"]) == "Kindly: días libres"
    assert str(event["description"]) == "Usted no está disponible: no se le ofrecen visitas."
