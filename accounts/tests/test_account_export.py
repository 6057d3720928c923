"""GET /api/account/export: the caller's data, and of other people nothing but their names."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from accounts.tests.factories import EmergencyContactFactory, UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory, ReviewFactory
from messaging.tests.factories import MessageFactory, SystemMessageFactory
from providers.tests.factories import VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db
URL = "/api/account/export"


def api_as(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def world():
    """Ann (client) and Bob (provider) share a booking and a conversation; Cy shares nothing with Ann."""
    ann = UserFactory(first_name="Ann", last_name="Archer", email="ann@example.com")
    bob = VerifiedProviderFactory(
        user__first_name="Bob", user__last_name="Baker", user__email="bob@example.com", phone="555-777-0001"
    )
    cy = UserFactory(first_name="Cy", last_name="Cole", email="cy@example.com")
    ann_request = ServiceRequestFactory(client=ann, title="Ann's tablet", location="1 Ann Street")
    ann_open = ServiceRequestFactory(client=ann, title="Ann's open request", location="1 Ann Street")
    shared = BookingFactory(
        service_request=ann_request, provider=bob, status=BookingStatus.COMPLETED, service_request__status="completed"
    )
    cy_booking = BookingFactory(
        service_request__client=cy,
        service_request__title="Cy's errand",
        service_request__location="9 Cy Road",
        provider=bob,
    )
    ReviewFactory(booking=shared, comment="Bob was patient.")
    MessageFactory(sender=ann, receiver=bob.user, content="Hello Bob, see you Monday")
    MessageFactory(sender=bob.user, receiver=ann, content="Hello Ann, Monday it is")
    MessageFactory(sender=bob.user, receiver=cy, content="Cy, I am on my way")
    SystemMessageFactory(receiver=ann, content="Your visit is booked.")
    EmergencyContactFactory(user=ann, name="Dora Archer", phone="555-010-1234", email="dora@example.com")
    EmergencyContactFactory(user=cy, name="Eve Cole", phone="555-010-9999", email="eve@example.com")
    return {"ann": ann, "bob": bob, "cy": cy, "shared": shared, "ann_open": ann_open, "cy_booking": cy_booking}


def test_export_is_a_json_attachment_with_the_callers_data(world):
    ann = world["ann"]

    response = api_as(ann).get(URL)

    assert response.status_code == 200
    assert response["Content-Disposition"].startswith('attachment; filename="kindly-data-')
    assert response["Cache-Control"] == "no-store"
    data = json.loads(response.content)
    assert data["profile"]["email"] == "ann@example.com"
    assert data["profile"]["firstName"] == "Ann"
    assert {r["title"] for r in data["serviceRequests"]} == {"Ann's tablet", "Ann's open request"}
    assert data["serviceRequests"][0]["location"] == "1 Ann Street"
    [booking] = data["bookings"]["asClient"]
    assert booking["id"] == world["shared"].pk
    assert booking["totalAmount"] == "30.00"
    assert booking["provider"] == {"name": "Bob Baker"}
    assert data["bookings"]["asProvider"] == []
    contents = {(m["direction"], m["content"], m["with"]["name"]) for m in data["messages"]}
    assert contents == {
        ("sent", "Hello Bob, see you Monday", "Bob Baker"),
        ("received", "Hello Ann, Monday it is", "Bob Baker"),
        ("received", "Your visit is booked.", "Kindly"),
    }
    assert [(r["rating"], r["comment"], r["about"]) for r in data["reviews"]["given"]] == [
        (5, "Bob was patient.", {"name": "Bob Baker"})
    ]
    assert data["reviews"]["received"] == []
    assert [(c["name"], c["phone"]) for c in data["emergencyContacts"]] == [("Dora Archer", "555-010-1234")]
    assert data["providerProfile"] is None


def test_export_holds_nothing_private_of_anyone_else(world):
    raw = api_as(world["ann"]).get(URL).content.decode()

    # Bob appears by name only; Cy not at all.
    assert "Bob Baker" in raw
    for private in ("bob@example.com", "555-777-0001", world["bob"].user_id):
        assert private not in raw
    for other in ("Cy", "cy@example.com", "Cy's errand", "9 Cy Road", "I am on my way", "Eve Cole", "555-010-9999"):
        assert other not in raw


def test_a_providers_export_has_their_profile_and_bookings_without_the_clients_address(world):
    bob = world["bob"]

    data = api_as(bob.user).get(URL).json()

    assert data["providerProfile"]["phone"] == "555-777-0001"
    assert data["providerProfile"]["verificationStatus"] == "verified"
    assert {b["id"] for b in data["bookings"]["asProvider"]} == {world["shared"].pk, world["cy_booking"].pk}
    assert {b["client"]["name"] for b in data["bookings"]["asProvider"]} == {"Ann Archer", "Cy Cole"}
    raw = json.dumps(data)
    private_of_clients = ("1 Ann Street", "9 Cy Road", "ann@example.com", "cy@example.com", "Dora Archer")
    for private in (*private_of_clients, "Ann's open request"):
        assert private not in raw
    assert [(r["rating"], r["from"]) for r in data["reviews"]["received"]] == [(5, {"name": "Ann Archer"})]
    assert data["serviceRequests"] == []


def test_export_needs_a_signed_in_user():
    response = api_as(None).get(URL)

    assert response.status_code in (401, 403)
    assert "profile" not in response.json()


def test_export_runs_a_fixed_number_of_queries(world, django_assert_max_num_queries):
    ann = world["ann"]
    for n in range(5):
        booking = BookingFactory(service_request__client=ann, provider=world["bob"])
        MessageFactory(sender=ann, receiver=world["bob"].user, booking=booking, content=f"note {n}")
    client = api_as(ann)

    with django_assert_max_num_queries(12):
        response = client.get(URL)

    assert len(response.json()["bookings"]["asClient"]) == 6
