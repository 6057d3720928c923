"""core.geocoding: the US ZIP rule, the offline ZIP geocoder, the production geocoder (geopy's
Nominatim client against a fake service at the HTTP boundary), and the place tasks: the record
saved first, its coordinates filled after, outside any transaction; an address nobody can place
is kept and flagged."""

from __future__ import annotations

import pytest
from django.db import transaction

from circles import services as circle_services
from circles.models import CareRecipient
from circles.tasks import place_pending_recipients, place_recipient
from circles.tests.factories import CareRecipientFactory
from core.addresses import Address
from core.geo import Point
from core.geocoding import (
    ZIP_NOT_US,
    GeocoderUnavailable,
    GeopyGeocoder,
    PlaceStatus,
    ZipGeocoder,
    geocoder,
    place_record,
    zip_point,
    zip_problem,
)
from marketplace.testing.api import call, valid_application_body
from providers.models import Provider


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("62704", ""),
        (" 62704-1234 ", ""),
        ("00601", ""),  # Puerto Rico
        ("96910", ""),  # Guam
        ("", "Please enter your ZIP code."),
        ("6270", ZIP_NOT_US),
        ("SW1A 1AA", ZIP_NOT_US),
        ("H2X 1Y4", ZIP_NOT_US),
        ("09002", ZIP_NOT_US),  # APO Europe: overseas military mail
        ("96201", ZIP_NOT_US),  # APO Pacific
        ("00000", "We could not find the ZIP code 00000. Please check it."),
        ("99999", "We could not find the ZIP code 99999. Please check it."),
    ],
)
def test_zip_rule(text, problem):
    assert zip_problem(text) == problem


def test_an_optional_zip_may_be_left_out():
    assert zip_problem("  ", required=False) == ""


def test_the_offline_geocoder_places_an_address_at_its_zip_centre():
    point = ZipGeocoder().locate(Address(street="12 Elm Street", town="Springfield", state="IL", zip_code="62704"))
    assert point is not None
    assert (point.latitude, point.longitude) == pytest.approx((39.77, -89.69), abs=0.02)
    assert ZipGeocoder().locate(Address(street="12 Elm Street", town="Springfield")) is None
    assert zip_point("09002") is None and zip_point("00000") is None


def test_settings_choose_the_geocoder(settings):
    settings.GEOCODER = "zip"
    assert isinstance(geocoder(), ZipGeocoder)


def test_geopy_asks_the_service_for_the_street_then_falls_back_to_the_zip(geopy_backend):
    geopy_backend.places["12 Elm Street, Springfield, IL 62704, USA"] = (39.7702, -89.6801)
    geopy_backend.places["IL 62701, USA"] = (39.80, -89.65)
    found = geocoder()
    assert isinstance(found, GeopyGeocoder)
    address = Address(street="12 Elm Street", town="Springfield", state="IL", zip_code="62704")
    assert found.locate(address) == Point(39.7702, -89.6801)
    moved = Address(street="1 Nowhere Lane", town="Springfield", state="IL", zip_code="62701")
    assert found.locate(moved) == Point(39.80, -89.65)
    assert found.locate(Address(street="1 Nowhere Lane", town="Atlantis")) is None
    assert geopy_backend.queries == [
        "12 Elm Street, Springfield, IL 62704, USA",
        "1 Nowhere Lane, Springfield, IL 62701, USA",
        "IL 62701, USA",
        "1 Nowhere Lane, Atlantis, USA",
        "Atlantis, USA",
    ]


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("status", [503, 429])
def test_a_service_that_does_not_answer_is_unavailable_not_a_miss(geopy_backend, status):
    geopy_backend.fail_next = [status]
    with pytest.raises(GeocoderUnavailable):
        geocoder().locate(Address(zip_code="62704", state="IL"))


@pytest.mark.django_db(transaction=True)
def test_the_service_is_never_called_inside_a_transaction(geopy_backend):
    with transaction.atomic(), pytest.raises(RuntimeError, match="never called inside a database transaction"):
        geocoder().locate(Address(zip_code="62704"))
    assert geopy_backend.queries == []


# ---------------------------------------------------------------- the place tasks


@pytest.mark.django_db(transaction=True)
def test_a_recipient_is_saved_first_and_placed_after_the_commit_by_the_service(
    client, client_user, geopy_backend, places_in_process
):
    geopy_backend.places["12 Elm Street, Springfield, IL 62704, USA"] = (39.7702, -89.6801)
    client.force_login(client_user)
    body = {"firstName": "Mom", "street": "12 Elm Street", "town": "Springfield", "state": "IL", "zipCode": "62704"}
    response = call(client, "POST", "/api/care-recipients", body)
    assert response.status_code == 201, response.content
    mom = CareRecipient.objects.get(pk=response.json()["id"])
    assert (mom.place_status, mom.latitude, mom.longitude) == (PlaceStatus.LOCATED, 39.7702, -89.6801)
    # Asked once, after the commit: never while the new row's transaction was open.
    assert geopy_backend.queries == ["12 Elm Street, Springfield, IL 62704, USA"]
    assert geopy_backend.callers_in_transaction == [False]


@pytest.mark.django_db(transaction=True)
def test_an_address_that_does_not_geocode_is_kept_and_flagged(client, client_user, geopy_backend, places_in_process):
    client.force_login(client_user)
    body = {"firstName": "Mom", "street": "1 Nowhere Lane", "town": "Atlantis"}
    response = call(client, "POST", "/api/care-recipients", body)
    assert response.status_code == 201, response.content
    mom = CareRecipient.objects.get(pk=response.json()["id"])
    assert (mom.street, mom.town) == ("1 Nowhere Lane", "Atlantis")
    assert (mom.place_status, mom.latitude) == (PlaceStatus.NOT_FOUND, None)
    assert CareRecipient.objects.filter(place_status=PlaceStatus.NOT_FOUND).count() == 1  # the staff's filter


@pytest.mark.django_db(transaction=True)
def test_a_service_that_stays_down_leaves_the_address_pending_for_the_sweep(
    settings, client, client_user, geopy_backend, places_in_process
):
    settings.GEOCODER_MAX_RETRIES = 2
    geopy_backend.fail_next = [503] * 3
    client.force_login(client_user)
    response = call(client, "POST", "/api/care-recipients", {"firstName": "Mom", "zipCode": "62704"})
    mom = CareRecipient.objects.get(pk=response.json()["id"])
    assert mom.place_status == PlaceStatus.PENDING and len(geopy_backend.queries) == 3  # a try and 2 retries
    geopy_backend.places["IL 62704, USA"] = (39.77, -89.69)
    geopy_backend.places["62704, USA"] = (39.77, -89.69)
    CareRecipient.objects.filter(pk=mom.pk).update(updated_at=mom.updated_at.replace(year=2020))
    assert place_pending_recipients() == 1
    mom.refresh_from_db()
    assert (mom.place_status, mom.latitude) == (PlaceStatus.LOCATED, 39.77)


@pytest.mark.django_db
def test_an_address_changed_while_the_service_answered_is_not_overwritten(client_user):
    mom = CareRecipientFactory(zip_code="62704", place_status=PlaceStatus.PENDING)

    def locate_then_move(address):
        # The family changes the address while the (slow) service answers about the old one.
        CareRecipient.objects.filter(pk=mom.pk).update(zip_code="62701")
        return Point(39.77, -89.69)

    outcome = place_record(CareRecipient, mom.pk, address_of=lambda r: r.address_parts, locate=locate_then_move)
    mom.refresh_from_db()
    assert outcome.outcome == "changed"
    assert (mom.zip_code, mom.place_status, mom.latitude) == ("62701", PlaceStatus.PENDING, None)


@pytest.mark.django_db
def test_changing_the_address_forgets_the_old_place_and_asks_again(
    client_user, django_capture_on_commit_callbacks, places_in_process
):
    with django_capture_on_commit_callbacks(execute=True):
        mom = circle_services.recipient_create(actor=client_user, first_name="Mom", zip_code="62704")
    mom.refresh_from_db()
    assert mom.place_status == PlaceStatus.LOCATED and mom.latitude == pytest.approx(39.77, abs=0.02)
    with django_capture_on_commit_callbacks(execute=False) as after_commit:
        circle_services.recipient_update(actor=client_user, recipient_id=mom.pk, zip_code="60614")
    mom.refresh_from_db()
    assert (mom.place_status, mom.latitude) == (PlaceStatus.PENDING, None)
    for callback in after_commit:
        callback()
    mom.refresh_from_db()
    assert mom.latitude == pytest.approx(41.92, abs=0.05)  # Chicago, Lincoln Park
    assert places_in_process == [("circles.tasks.place_recipient", (mom.pk,))] * 2


@pytest.mark.django_db
def test_a_new_name_alone_keeps_the_place(client_user, django_capture_on_commit_callbacks, places_in_process):
    with django_capture_on_commit_callbacks(execute=True):
        mom = circle_services.recipient_create(actor=client_user, first_name="Mom", zip_code="62704")
        circle_services.recipient_update(actor=client_user, recipient_id=mom.pk, first_name="Martha")
    mom.refresh_from_db()
    assert (mom.first_name, mom.place_status) == ("Martha", PlaceStatus.LOCATED)
    assert len(places_in_process) == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("zip_code", "message"),
    [("SW1A 1AA", ZIP_NOT_US), ("00000", "We could not find the ZIP code 00000. Please check it.")],
)
def test_a_recipient_with_a_foreign_or_unknown_zip_is_refused(client, client_user, zip_code, message):
    client.force_login(client_user)
    response = call(client, "POST", "/api/care-recipients", {"firstName": "Mom", "zipCode": zip_code})
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {"zipCode": [message]}}
    assert not CareRecipient.objects.exists()


@pytest.mark.django_db
def test_a_helper_applies_and_her_home_zip_is_placed_after_the_commit(
    client, client_user, django_capture_on_commit_callbacks, places_in_process
):
    client.force_login(client_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = call(
            client, "POST", "/api/provider/profile", valid_application_body(homeZip="62704", travelMiles=25)
        )
    assert response.status_code == 201, response.content
    assert response.json()["placeStatus"] == "pending"  # saved first: the answer does not wait for it
    provider = Provider.objects.get(user=client_user)
    assert (provider.home_zip, provider.travel_miles, provider.place_status) == ("62704", 25, PlaceStatus.LOCATED)
    assert (provider.latitude, provider.longitude) == pytest.approx((39.77, -89.69), abs=0.02)


@pytest.mark.django_db
def test_the_place_task_of_a_record_gone_does_nothing(places_in_process):
    assert place_recipient.apply(args=[987654]).get() == "gone"


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_real_worker_places_a_new_recipient_after_the_commit(client_user, celery_worker):
    from marketplace.testing.celery import wait_until

    mom = circle_services.recipient_create(actor=client_user, first_name="Mom", zip_code="62704")
    assert CareRecipient.objects.get(pk=mom.pk).place_status == PlaceStatus.PENDING  # saved first
    wait_until(lambda: CareRecipient.objects.get(pk=mom.pk).place_status == PlaceStatus.LOCATED)
    mom.refresh_from_db()
    assert (mom.latitude, mom.longitude) == pytest.approx((39.77, -89.69), abs=0.02)
