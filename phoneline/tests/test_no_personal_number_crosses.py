"""No personal phone number reaches the other side of a booking: the helper never reads the care
recipient's or the family's number, the family never reads the helper's, in any page, API answer,
email, text message or calendar feed. They reach each other through the booking's Kindly line.

Every GET route of the site (pages and API, each id of this world tried in its place) is read as
each party, after a booking's life (posted, accepted, messaged, reminded, a Kindly number bound
for each side, a second visit cancelled), and every email and text the notices made is rendered.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from django.utils import timezone

from bookings.models import Booking, CalendarFeed
from circles.models import CareRecipient, CircleMember, CircleRole
from marketplace.testing.api import call, valid_request_body
from notifications.channels import email_message, sms_body
from notifications.models import Contact, Delivery
from notifications.services import visit_reminder_send
from providers.tests.factories import VerifiedProviderFactory
from requests_app.services import PLACE_WAIT, offers_send

# Each party's own numbers, as they typed them.
HAROLD = "555-201-3344"  # the care recipient
OLIVIA = "555-777-8888"  # the organizer (texts)
VERA = "555-020-4321"  # the helper
EMERGENCY = "555-909-1212"  # the circle's emergency contact


def spellings(number: str) -> list[str]:
    """A number as any page might print it: 555-201-3344, (555) 201-3344, 5552013344, +15552013344..."""
    digits = re.sub(r"\D", "", number)
    area, mid, last = digits[:3], digits[3:6], digits[6:]
    return [
        digits,
        f"{area}-{mid}-{last}",
        f"({area}) {mid}-{last}",
        f"{area} {mid} {last}",
        f"{area}.{mid}.{last}",
        f"+1{digits}",
        f"{mid}-{last}",
    ]


def leaked(text: str, numbers: list[str]) -> list[str]:
    return [s for number in numbers for s in spellings(number) if s in text]


@pytest.fixture
def world(db, client_user, phone_lines, settings):
    settings.PAYMENTS_BACKEND = "test"
    olivia = client_user
    Contact.objects.create(user=olivia, phone="+1" + re.sub(r"\D", "", OLIVIA))
    harold = CareRecipient.objects.create(
        first_name="Harold",
        last_name="Smith",
        street="12 Oak Lane",
        town="Springfield",
        state="IL",
        zip_code="62704",
        phone=HAROLD,
        notes_for_helpers="Ring twice",
    )
    CircleMember.objects.create(recipient=harold, user=olivia, role=CircleRole.ORGANIZER)
    vera = VerifiedProviderFactory(user__first_name="Vera", phone=VERA)
    Contact.objects.create(user=vera.user, phone="+1" + re.sub(r"\D", "", VERA))
    web = {"olivia": Client(), "vera": Client()}
    web["olivia"].force_login(olivia)
    web["vera"].force_login(vera.user)
    call(
        web["olivia"], "POST", "/api/emergency-contacts", {"name": "Nell", "phone": EMERGENCY, "recipientId": harold.pk}
    )

    tomorrow = (timezone.localdate() + dt.timedelta(days=1)).isoformat()
    later = (timezone.localdate() + dt.timedelta(days=9)).isoformat()
    ids = []
    for day in (tomorrow, later):
        posted = call(
            web["olivia"], "POST", "/api/service-requests", valid_request_body(recipientId=harold.pk, preferredDate=day)
        )
        assert posted.status_code == 201, posted.content
        # The post is offered (matching): nobody near takes it, so it opens to every helper.
        offers_send(service_request_id=posted.json()["id"], now=timezone.now() + PLACE_WAIT)
        accepted = call(web["vera"], "POST", f"/api/service-requests/{posted.json()['id']}/accept")
        assert accepted.status_code == 201, accepted.content
        ids.append((posted.json()["id"], accepted.json()["id"]))
    (request_id, booking_id), (_, later_booking) = ids
    message = {"receiverId": olivia.pk, "content": "Is the side door open?", "bookingId": booking_id}
    assert call(web["vera"], "POST", "/api/messages", message).status_code == 201
    for party in web.values():
        assert call(party, "POST", f"/api/bookings/{booking_id}/phone-line").status_code == 200
    assert (
        call(web["olivia"], "POST", f"/api/bookings/{later_booking}/cancel", {"reason": "Plans changed"}).status_code
        == 200
    )
    booking = Booking.objects.get(pk=booking_id)
    visit_reminder_send(booking_id=booking.pk, now=booking.starts_at - dt.timedelta(hours=20))
    return {
        "web": web,
        "olivia": olivia,
        "vera": vera,
        "harold": harold,
        "ids": {booking_id, later_booking, request_id, harold.pk, vera.pk, later_booking - 1},
        "booking": booking,
    }


def _get_routes(resolver: URLResolver | None = None, prefix: str = ""):
    """Every route of the site as a template ("api/bookings/<int:pk>"), nested includes flattened."""
    for entry in (resolver or get_resolver()).url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _get_routes(entry, route)
        elif isinstance(entry, URLPattern):
            yield route


def _paths(route: str, ids: set[int], recipient_id: int) -> list[str]:
    if route.startswith(("django-admin", "^", "api/schema", "api/docs")) or "(?P" in route:
        return []
    if "<str:" in route or "<slug:" in route or "<path:" in route:
        return []
    if "<int:" not in route:
        # Lists that take a care recipient (?recipientId=) are read for Harold too.
        return ["/" + route, f"/{route}?recipientId={recipient_id}"]
    return ["/" + re.sub(r"<int:\w+>", str(pk), route) for pk in sorted(ids)]


def _read_everything(client: Client, ids: set[int], recipient_id: int) -> dict[str, str]:
    seen = {}
    for route in _get_routes():
        for path in _paths(route, ids, recipient_id):
            response = client.get(path)
            if response.status_code == 200 and not response.streaming:
                seen[path] = response.content.decode(errors="replace")
    return seen


def test_no_personal_number_reaches_the_other_side(world):
    helper_must_not_read = [HAROLD, OLIVIA, EMERGENCY]
    family_must_not_read = [VERA]

    harold_id = world["harold"].pk
    vera_reads = _read_everything(world["web"]["vera"], world["ids"], harold_id)
    olivia_reads = _read_everything(world["web"]["olivia"], world["ids"], harold_id)
    # The scan reads what matters: the booking, its request, the dashboard, the messages.
    booking_id = world["booking"].pk
    for reads in (vera_reads, olivia_reads):
        assert f"/api/bookings/{booking_id}" in reads
        assert f"/api/bookings/{booking_id}/phone-line" in reads
        assert "/api/dashboard" in reads and "/dashboard" in reads
    assert '"careDetails":{' in vera_reads[f"/api/bookings/{booking_id}"].replace(" ", "")
    # The circle still reads its own numbers (the scan would see a leak).
    assert leaked(olivia_reads["/api/care-circle"], [HAROLD])
    assert leaked(olivia_reads[f"/api/emergency-contacts?recipientId={harold_id}"], [EMERGENCY])

    for path, text in vera_reads.items():
        assert not leaked(text, helper_must_not_read), (path, leaked(text, helper_must_not_read))
    for path, text in olivia_reads.items():
        assert not leaked(text, family_must_not_read), (path, leaked(text, family_must_not_read))

    feed = CalendarFeed.objects.filter(user=world["vera"].user).first()
    if feed is not None:
        ics = world["web"]["vera"].get(f"/calendar/{feed.token}.ics").content.decode()
        assert not leaked(ics, helper_must_not_read)

    deliveries = list(Delivery.objects.select_related("event", "recipient"))
    assert {d.recipient_id for d in deliveries} >= {world["olivia"].pk, world["vera"].user.pk}
    for delivery in deliveries:
        email = email_message(delivery)
        words = [email.subject, email.body, *(part for part, _type in email.alternatives), sms_body(delivery)]
        must_not = helper_must_not_read if delivery.recipient_id == world["vera"].user.pk else family_must_not_read
        for text in words:
            assert not leaked(text, must_not), (delivery.event.kind, leaked(text, must_not))
