"""A senior's street address, phone and notes for helpers go to the booked helper only, and only
while the booking is on (plus ADDRESS_KEPT_AFTER_VISIT after check-out for the visit report): a
dropped helper (cancelled, reassigned away, long completed) reads none of it, fresh or stale, in the
API, her calendar feed or the pages. Staff read the town and ZIP, in the admin API and the Django
admin alike (core.addresses.STAFF_SEES)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone
from icalendar import Calendar

from bookings.models import BookingStatus, PaymentStatus
from bookings.services import booking_cancel_by_client, booking_reassign, calendar_feed_token
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from circles.services import recipient_update
from marketplace.testing.api import call, valid_request_body
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import ADDRESS_KEPT_AFTER_VISIT, ServiceRequest
from requests_app.services import PLACE_WAIT, offers_send

pytestmark = pytest.mark.django_db

STREET = "45 Oak Avenue"
DOOR_CODE = "Door code 4321"


@pytest.fixture
def harold(client_user):
    recipient = CareRecipient.objects.create(
        first_name="Harold",
        last_name="Smith",
        street=STREET,
        unit="Apt 2",
        town="Springfield",
        state="IL",
        zip_code="62704",
        phone="555-0100",
        notes_for_helpers="Ring twice",
    )
    CircleMember.objects.create(recipient=recipient, user=client_user, role=CircleRole.ORGANIZER)
    return recipient


def _booking(client_user, harold, provider, **kwargs):
    return BookingFactory(
        service_request__client=client_user,
        service_request__recipient=harold,
        service_request__street=STREET,
        service_request__unit="Apt 2",
        service_request__town="Springfield",
        service_request__state="IL",
        service_request__zip_code="62704",
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=10),
        provider=provider,
        **kwargs,
    )


def _reads(client, user, booking) -> dict[str, str]:
    """What `user` gets of the booking and its request: the raw text of both answers."""
    client.force_login(user)
    texts = {}
    for name, url in (
        ("booking", f"/api/bookings/{booking.pk}"),
        ("request", f"/api/service-requests/{booking.service_request_id}"),
    ):
        response = call(client, "GET", url)
        assert response.status_code in (200, 404)
        texts[name] = response.content.decode()
    return texts


def test_a_helper_dropped_by_a_cancel_reads_no_address_phone_or_notes_even_added_later(
    client, client_user, harold, verified_provider
):
    booking = _booking(client_user, harold, verified_provider, status=BookingStatus.CONFIRMED)
    before = _reads(client, verified_provider.user, booking)
    assert STREET in before["booking"] and "Ring twice" in before["booking"]
    assert "555-0100" not in before["booking"]  # never her phone: the booking's Kindly line instead
    assert '"careDetails":{' in before["request"].replace(" ", "")

    booking_cancel_by_client(booking_id=booking.pk, actor=client_user, reason="Plans changed")
    # The family adds a door code after dropping her: it must not reach her.
    recipient_update(actor=client_user, recipient_id=harold.pk, notes_for_helpers=DOOR_CODE)

    after = _reads(client, verified_provider.user, booking)
    for text in after.values():
        assert STREET not in text
        assert "555-0100" not in text
        assert "4321" not in text
    client.force_login(verified_provider.user)
    detail = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert detail["careDetails"] is None
    assert detail["serviceRequest"]["location"] == "Springfield, IL 62704"


def test_a_reassigned_away_helper_reads_nothing_and_the_new_one_reads_it_all(
    client, client_user, harold, verified_provider, admin_user
):
    booking = _booking(client_user, harold, verified_provider, status=BookingStatus.CONFIRMED)
    second = VerifiedProviderFactory()
    booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=second.pk, reason="Unwell")

    for text in _reads(client, verified_provider.user, booking).values():
        assert STREET not in text and "Ring twice" not in text
    client.force_login(second.user)
    detail = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert detail["careDetails"]["notesForHelpers"] == "Ring twice"
    assert detail["serviceRequest"]["location"] == "45 Oak Avenue, Apt 2, Springfield, IL 62704"


@pytest.mark.parametrize(
    ("checked_out_ago", "holds"),
    [
        (ADDRESS_KEPT_AFTER_VISIT - dt.timedelta(minutes=5), True),
        (ADDRESS_KEPT_AFTER_VISIT + dt.timedelta(minutes=5), False),
    ],
    ids=["within-the-report-window", "after-it"],
)
def test_the_booked_helper_keeps_the_address_only_for_the_report_window_after_check_out(
    client, client_user, harold, verified_provider, checked_out_ago, holds
):
    booking = _booking(client_user, harold, verified_provider, status=BookingStatus.CONFIRMED)
    BookingFactory._meta.model.objects.filter(pk=booking.pk).update(
        status=BookingStatus.COMPLETED,
        payment_status=PaymentStatus.PAID,
        checked_out_at=timezone.now() - checked_out_ago,
    )
    client.force_login(verified_provider.user)

    detail = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    request = call(client, "GET", f"/api/service-requests/{booking.service_request_id}").json()

    assert (detail["careDetails"] is not None) is holds
    assert (request["careDetails"] is not None) is holds
    assert (STREET in detail["serviceRequest"]["location"]) is holds
    assert (request["address"]["street"] == STREET) is holds


def test_the_calendar_feed_drops_the_street_line_when_the_booking_ends(client, client_user, harold, verified_provider):
    booking = _booking(client_user, harold, verified_provider, status=BookingStatus.CONFIRMED)

    def location() -> str:
        response = client.get(f"/calendar/{calendar_feed_token(user=verified_provider.user)}.ics")
        assert response.status_code == 200
        (event,) = Calendar.from_ical(response.content).walk("VEVENT")
        return str(event.get("location", ""))

    assert location() == "45 Oak Avenue, Apt 2, Springfield, IL 62704"
    booking_cancel_by_client(booking_id=booking.pk, actor=client_user)
    assert location() == "Springfield, IL 62704"


def test_an_open_request_shows_helpers_the_town_and_zip_never_the_street(
    client, client_user, harold, verified_provider
):
    client.force_login(client_user)
    body = valid_request_body(recipientId=harold.pk, location="", specialRequirements="I use a walker.")
    created = call(client, "POST", "/api/service-requests", body)
    assert created.status_code == 201, created.content
    # A blank location takes the recipient's address, in parts.
    assert created.json()["address"] == {
        "street": STREET,
        "unit": "Apt 2",
        "town": "Springfield",
        "state": "IL",
        "zipCode": "62704",
    }

    # Offered to her (by town: Harold is not placed in time).
    offers_send(service_request_id=created.json()["id"], now=timezone.now() + PLACE_WAIT)
    client.force_login(verified_provider.user)
    response = call(client, "GET", f"/api/service-requests/{created.json()['id']}")
    assert response.json()["location"] == "Springfield, IL 62704"
    assert response.json()["specialRequirements"] == "I use a walker."
    assert STREET not in response.content.decode()
    assert response.json()["careDetails"] is None


def test_a_request_posted_in_parts_keeps_them_and_composes_the_location(client, client_user):
    client.force_login(client_user)
    body = valid_request_body(location="", street="7 Birch Road", unit="", town="Shelbyville", state="IL")
    body["zipCode"] = "62565"
    created = call(client, "POST", "/api/service-requests", body)
    assert created.status_code == 201, created.content
    stored = ServiceRequest.objects.get(pk=created.json()["id"])
    assert (stored.street, stored.town, stored.state, stored.zip_code) == ("7 Birch Road", "Shelbyville", "IL", "62565")
    assert created.json()["location"] == "7 Birch Road, Shelbyville, IL 62565"


def test_the_one_line_location_still_works_and_is_read_into_parts(client, client_user):
    client.force_login(client_user)
    created = call(client, "POST", "/api/service-requests", valid_request_body(location="45 Oak Avenue, Springfield"))
    assert created.status_code == 201, created.content
    stored = ServiceRequest.objects.get(pk=created.json()["id"])
    assert (stored.street, stored.town) == ("45 Oak Avenue", "Springfield")
    edited = call(
        client,
        "PUT",
        f"/api/service-requests/{stored.pk}",
        valid_request_body(location="", street="9 Elm Court", town="Springfield", zipCode="62704"),
    )
    assert edited.status_code == 200, edited.content
    assert edited.json()["location"] == "9 Elm Court, Springfield 62704"
    blank = call(client, "PUT", f"/api/service-requests/{stored.pk}", valid_request_body(location=""))
    assert blank.status_code == 400
    assert blank.json()["errors"] == {"location": ["Location is required"]}


# ---------------------------------------------------------------- staff: one rule in the Django admin


def test_staff_see_the_town_and_zip_in_the_django_admin_never_the_street_phone_or_notes(
    client, client_user, harold, verified_provider, admin_user
):
    booking = _booking(client_user, harold, verified_provider, status=BookingStatus.CONFIRMED)
    client.force_login(admin_user)
    pages = [
        f"/django-admin/requests_app/servicerequest/{booking.service_request_id}/change/",
        f"/django-admin/circles/carerecipient/{harold.pk}/change/",
        "/django-admin/circles/carerecipient/",
        "/django-admin/requests_app/servicerequest/",
    ]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "62704" in html, url
        for private in (STREET, "555-0100", "Ring twice"):
            assert private not in html, (url, private)

    # Search finds by town or ZIP, never by the street line (a hit would confirm a guessed address).
    found = client.get("/django-admin/requests_app/servicerequest/", {"q": "62704"}).content.decode()
    assert f"/{booking.service_request_id}/change/" in found
    missed = client.get("/django-admin/requests_app/servicerequest/", {"q": "Oak Avenue"}).content.decode()
    assert f"/{booking.service_request_id}/change/" not in missed


def test_staff_see_whether_an_address_could_be_placed_never_its_coordinates(client, harold, admin_user):
    from core.geocoding import PlaceStatus

    harold.latitude, harold.longitude, harold.place_status = 39.7702913, -89.6801234, PlaceStatus.LOCATED
    harold.save()
    client.force_login(admin_user)
    for url in (f"/django-admin/circles/carerecipient/{harold.pk}/change/", "/django-admin/circles/carerecipient/"):
        html = client.get(url).content.decode()
        assert "Placed" in html, url
        assert "39.77" not in html and "-89.68" not in html, url
    flagged = client.get("/django-admin/circles/carerecipient/", {"place_status__exact": "not_found"}).content.decode()
    assert f"/{harold.pk}/change/" not in flagged
