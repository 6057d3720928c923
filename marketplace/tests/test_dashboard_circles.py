"""The dashboard for families: the circle's requests and bookings with whom each is
for, and a switcher between the recipients of a user in two or more circles (?recipient=)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from marketplace.testing.pages import island_props
from requests_app.tests.factories import ServiceRequestFactory


@pytest.fixture
def family(client_user, verified_provider):
    """client_user organizes Harold's circle and is a member of Rose's (organized by her son)."""
    harold = CareRecipient.objects.create(first_name="Harold", last_name="Smith")
    rose = CareRecipient.objects.create(first_name="Rose", last_name="Jones")
    son = UserFactory()
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=rose, user=son, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=rose, user=client_user, role=CircleRole.MEMBER)
    day = timezone.localdate() + dt.timedelta(days=10)
    return {
        "harold": harold,
        "rose": rose,
        "harold_booking": BookingFactory(
            service_request__client=client_user,
            service_request__recipient=harold,
            service_request__preferred_date=day,
            provider=verified_provider,
        ),
        "rose_booking": BookingFactory(
            service_request__client=son,
            service_request__recipient=rose,
            service_request__preferred_date=day + dt.timedelta(days=1),
            provider=verified_provider,
        ),
        "rose_request": ServiceRequestFactory(client=son, recipient=rose),
    }


def _ids(items) -> set[int]:
    return {item["id"] for item in items}


def test_the_dashboard_shows_every_circle_and_offers_the_switcher(client, client_user, family):
    client.force_login(client_user)
    data = client.get("/api/dashboard").json()
    assert _ids(data["bookings"]) == {family["harold_booking"].pk, family["rose_booking"].pk}
    assert family["rose_request"].pk in _ids(data["requests"])
    assert [r["firstName"] for r in data["recipients"]] == ["Harold", "Rose"]
    assert data["recipientId"] is None
    roles = {b["recipient"]["firstName"]: b["circleRole"] for b in data["bookings"]}
    assert roles == {"Harold": "organizer", "Rose": "member"}

    page = client.get("/dashboard")
    props = island_props(page, "dashboard-props")
    assert _ids(props["initial"]["bookings"]) == _ids(data["bookings"])
    assert len(props["initial"]["recipients"]) == 2


def test_the_switcher_narrows_the_lists_to_one_recipient(client, client_user, family):
    client.force_login(client_user)
    rose = family["rose"].pk
    data = client.get(f"/api/dashboard?recipient={rose}").json()
    assert _ids(data["bookings"]) == {family["rose_booking"].pk}
    assert {r["recipient"]["id"] for r in data["requests"]} == {rose}
    assert data["recipientId"] == rose
    # The page with the same choice (the switcher's links), and "Everyone" again after it (the
    # cached lists are kept per choice).
    props = island_props(client.get(f"/dashboard?recipient={rose}"), "dashboard-props")
    assert _ids(props["initial"]["bookings"]) == {family["rose_booking"].pk}
    assert len(client.get("/api/dashboard").json()["bookings"]) == 2


@pytest.mark.parametrize("value", ["abc", "-1", "0", "1e3", "", "99999999999"])
def test_a_malformed_choice_is_a_400_from_the_api_and_everyone_on_the_page(client, client_user, family, value):
    client.force_login(client_user)
    response = client.get(f"/api/dashboard?recipient={value}")
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"recipient"}
    props = island_props(client.get(f"/dashboard?recipient={value}"), "dashboard-props")
    assert props["initial"]["recipientId"] is None
    assert len(props["initial"]["bookings"]) == 2


def test_another_familys_recipient_narrows_to_nothing(client, client_user, family):
    stranger = CareRecipient.objects.create(first_name="Someone", last_name="Else")
    BookingFactory(service_request__recipient=stranger)
    client.force_login(client_user)
    data = client.get(f"/api/dashboard?recipient={stranger.pk}").json()
    assert data["bookings"] == [] and data["requests"] == []


def test_a_user_in_one_circle_gets_no_switcher_choices_beyond_it(client, client_user):
    client.force_login(client_user)
    BookingFactory(service_request__client=client_user)  # their own recipient, made by the factory
    data = client.get("/api/dashboard").json()
    assert len(data["recipients"]) == 1
