"""Offers prefer a helper who speaks the language of the person cared for (CareRecipient.language):
a Spanish-speaking grandmother is offered to the Spanish speakers near her first, then the others;
an English speaker's ranking is what it was."""

from __future__ import annotations

from decimal import Decimal

import pytest

from circles.services import recipient_for_self
from providers.models import Provider
from providers.tests.factories import VerifiedProviderFactory
from requests_app import services
from requests_app.models import Offer, OfferedTo, ServiceRequest, Urgency
from requests_app.selectors import offer_candidates
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

HOME = (39.7817, -89.6501)
MILE = 1 / 69.0


def _helper(name: str, miles_north: float, languages: list[str]) -> Provider:
    return VerifiedProviderFactory(
        user__first_name=name,
        latitude=HOME[0] + miles_north * MILE,
        longitude=HOME[1],
        travel_miles=25,
        rating=Decimal("4.50"),
        languages=languages,
    )


def _family(client_user, language: str):
    recipient = recipient_for_self(user=client_user)
    recipient.street, recipient.town, recipient.state, recipient.zip_code = "1 Oak Lane", "Springfield", "IL", "62701"
    recipient.latitude, recipient.longitude = HOME
    recipient.place_status = "located"
    recipient.language = language
    recipient.save()
    return recipient


def _request(client_user, recipient) -> ServiceRequest:
    return ServiceRequestFactory(
        client=client_user, recipient=recipient, offered_to=OfferedTo.OFFERS, urgency=Urgency.NORMAL
    )


@pytest.mark.sqlite
def test_a_spanish_speaker_is_offered_to_helpers_who_speak_spanish_first(client_user):
    recipient = _family(client_user, "es")
    _helper("Near", 1, ["en"])
    _helper("Nearer", 0.5, ["en", "fr"])
    _helper("Lucia", 6, ["es", "en"])
    _helper("Rosa", 9, ["es"])
    _helper("Otto", 2, ["en"])
    request = _request(client_user, recipient)

    assert [p.user.first_name for p, _miles in offer_candidates(request, count=3)] == ["Lucia", "Rosa", "Nearer"]

    services.offers_send(service_request_id=request.pk)
    offered = Offer.objects.filter(service_request=request).order_by("rank")
    assert list(offered.values_list("provider__user__first_name", flat=True)) == ["Lucia", "Rosa", "Nearer"]


@pytest.mark.sqlite
def test_an_english_speakers_ranking_is_by_distance_as_before(client_user):
    recipient = _family(client_user, "en")
    _helper("Near", 1, ["en"])
    _helper("Lucia", 6, ["es", "en"])
    _helper("Rosa", 2, ["es"])
    request = _request(client_user, recipient)

    assert [p.user.first_name for p, _miles in offer_candidates(request, count=3)] == ["Near", "Lucia", "Rosa"]


def test_the_nearest_speakers_are_read_even_past_the_pool(client_user, settings, monkeypatch):
    """The pool read from the database puts the speakers first: a Spanish speaker farther than the
    pool's nearest helpers is still found."""
    monkeypatch.setattr("requests_app.selectors.offers.OFFER_POOL", 2)
    recipient = _family(client_user, "es")
    _helper("A", 1, ["en"])
    _helper("B", 1.5, ["en"])
    _helper("C", 2, ["en"])
    _helper("Lucia", 12, ["es"])
    request = _request(client_user, recipient)

    assert [p.user.first_name for p, _miles in offer_candidates(request, count=1)] == ["Lucia"]
