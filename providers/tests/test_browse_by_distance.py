"""Browse by distance (GET /api/providers?near=&within=): only the helpers whose own travel
distance covers the care recipient's home, nearest first, "3.2 miles away" rounded; the family's
distance filter; another family's recipient is a 404, one not placed yet a 409; bad input 400.
The same query on SQLite and PostgreSQL (marked sqlite), the date line included."""

from __future__ import annotations

import math

import pytest

from circles.models import CircleRole
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory
from core.geo import EARTH_RADIUS_MILES, Point, miles_between
from core.geocoding import PlaceStatus
from marketplace.testing.api import call
from providers.selectors import provider_list_public
from providers.tests.factories import VerifiedProviderFactory

pytestmark = [pytest.mark.django_db, pytest.mark.sqlite]

MOM = Point(39.7817, -89.6501)  # Springfield, IL


def east_of(point: Point, miles: float) -> Point:
    """The place `miles` due east of `point` along its parallel's great circle bearing 90 degrees."""
    angle = miles / EARTH_RADIUS_MILES
    lat1, lng1 = math.radians(point.latitude), math.radians(point.longitude)
    lat2 = math.asin(math.sin(lat1) * math.cos(angle))
    lng2 = lng1 + math.atan2(math.sin(angle) * math.cos(lat1), math.cos(angle) - math.sin(lat1) * math.sin(lat2))
    return Point(math.degrees(lat2), (math.degrees(lng2) + 540) % 360 - 180)


def helper(name: str, at: Point, travel: int, **fields):
    return VerifiedProviderFactory(
        user__first_name=name,
        home_zip="62704",
        travel_miles=travel,
        latitude=at.latitude,
        longitude=at.longitude,
        place_status=PlaceStatus.LOCATED,
        **fields,
    )


def recipient_of(user, at: Point | None = MOM, **fields):
    recipient = CareRecipientFactory(
        zip_code="62704",
        latitude=at.latitude if at else None,
        longitude=at.longitude if at else None,
        place_status=PlaceStatus.LOCATED if at else PlaceStatus.PENDING,
        **fields,
    )
    CircleMemberFactory(recipient=recipient, user=user, role=CircleRole.ORGANIZER)
    return recipient


@pytest.fixture
def neighbourhood(db):
    return {
        "ann": helper("Ann", east_of(MOM, 3.2), travel=5),  # close, travels just far enough
        "bea": helper("Bea", east_of(MOM, 12.0), travel=25),
        "cat": helper("Cat", east_of(MOM, 12.0), travel=10),  # as close as Bea, but won't come that far
        "dot": helper("Dot", east_of(MOM, 45.0), travel=50),
        "eve": helper("Eve", east_of(MOM, 99.9), travel=100),  # the far edge of the farthest travel
        "fay": helper("Fay", east_of(MOM, 150.0), travel=100),
        "gus": VerifiedProviderFactory(user__first_name="Gus"),  # no home ZIP yet: never "near"
    }


def _browse(client, query: str):
    response = call(client, "GET", f"/api/providers?verified=true{query}")
    assert response.status_code == 200, response.content
    return response


def _names(response) -> list[str]:
    return [p["user"]["firstName"] for p in response.json()]


def test_only_helpers_whose_travel_covers_the_recipient_nearest_first(client, client_user, neighbourhood):
    mom = recipient_of(client_user)
    client.force_login(client_user)
    response = _browse(client, f"&near={mom.pk}")
    assert _names(response) == ["Ann", "Bea", "Dot", "Eve"]
    assert [p["distanceMiles"] for p in response.json()] == [3.2, 12.0, 45.0, 100.0]
    assert response["X-Total-Count"] == "4"


def test_the_distance_filter_keeps_the_nearer_ones(client, client_user, neighbourhood):
    mom = recipient_of(client_user)
    client.force_login(client_user)
    assert _names(_browse(client, f"&near={mom.pk}&within=10")) == ["Ann"]
    assert _names(_browse(client, f"&near={mom.pk}&within=50")) == ["Ann", "Bea", "Dot"]
    assert _names(_browse(client, f"&near={mom.pk}&within=100")) == ["Ann", "Bea", "Dot", "Eve"]


def test_near_combines_with_the_other_filters_and_sorts(client, client_user, neighbourhood):
    from decimal import Decimal

    neighbourhood["dot"].rating = Decimal("4.9")
    neighbourhood["dot"].specialties = ["wellness-checks"]
    neighbourhood["dot"].save()
    mom = recipient_of(client_user)
    client.force_login(client_user)
    assert _names(_browse(client, f"&near={mom.pk}&sort=rating"))[0] == "Dot"
    assert _names(_browse(client, f"&near={mom.pk}&specialty=wellness-checks")) == ["Dot"]


def test_without_near_nobody_is_left_out_and_no_distance_is_told(client, client_user, neighbourhood):
    client.force_login(client_user)
    response = _browse(client, "")
    assert len(response.json()) == 7
    assert {p["distanceMiles"] for p in response.json()} == {None}


def test_a_helper_home_is_never_in_the_public_shape(client, client_user, neighbourhood):
    mom = recipient_of(client_user)
    client.force_login(client_user)
    card = _browse(client, f"&near={mom.pk}").json()[0]
    assert not {"homeZip", "travelMiles", "latitude", "longitude", "placeStatus"} & set(card)
    # Tenths of a mile at most, never the exact distance.
    exact = miles_between(MOM, Point(neighbourhood["ann"].latitude, neighbourhood["ann"].longitude))
    assert card["distanceMiles"] == round(exact, 1) != exact


def test_a_member_of_the_circle_may_browse_near_the_recipient_too(client, client_user, neighbourhood):
    from accounts.tests.factories import UserFactory

    mom = recipient_of(client_user)
    son = UserFactory()
    CircleMemberFactory(recipient=mom, user=son, role=CircleRole.MEMBER)
    client.force_login(son)
    assert _names(_browse(client, f"&near={mom.pk}"))[:1] == ["Ann"]


def test_another_familys_recipient_is_a_404_even_once_cached(client, client_user, neighbourhood):
    from accounts.tests.factories import UserFactory

    mom = recipient_of(client_user)
    client.force_login(client_user)
    _browse(client, f"&near={mom.pk}")  # cached for everyone who may ask it
    client.force_login(UserFactory())
    response = call(client, "GET", f"/api/providers?verified=true&near={mom.pk}")
    assert response.status_code == 404
    assert response.json()["message"] == "Care recipient not found."
    client.logout()
    assert call(client, "GET", f"/api/providers?verified=true&near={mom.pk}").status_code == 404


@pytest.mark.parametrize(
    ("status", "message"),
    [
        (PlaceStatus.PENDING, "We are still finding Walter's address on the map. Please try again in a minute."),
        (
            PlaceStatus.NOT_FOUND,
            "We could not find Walter's address on the map. Please check it on the Care circle page.",
        ),
        (PlaceStatus.NO_ADDRESS, "Add Walter's address on the Care circle page to see the helpers near them."),
    ],
)
def test_a_recipient_not_placed_yet_is_a_409_saying_why(client, client_user, neighbourhood, status, message):
    mom = recipient_of(client_user, at=None)
    mom.place_status = status
    mom.save()
    client.force_login(client_user)
    response = call(client, "GET", f"/api/providers?verified=true&near={mom.pk}")
    assert (response.status_code, response.json()["message"]) == (409, message)


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("&near=1&within=0", "within", "Please choose a distance from 1 to 100 miles."),
        ("&near=1&within=10000", "within", "Please choose a distance from 1 to 100 miles."),
        ("&near=1&within=ten", "within", "Please choose a distance from 1 to 100 miles."),
        ("&within=10", "within", "Please choose whom the helpers should be near."),
        ("&sort=distance", "sort", "Please choose whom the helpers should be near."),
        ("&near=0", "near", "Please choose someone from your care circle."),
        ("&near=mom", "near", "Please choose someone from your care circle."),
        ("&near=99999999999", "near", "Please choose someone from your care circle."),
    ],
)
def test_bad_distance_input_is_a_clear_400(client, client_user, query, field, message):
    client.force_login(client_user)
    response = call(client, "GET", f"/api/providers?verified=true{query}")
    assert response.status_code == 400
    assert response.json()["errors"] == {field: [message]}


def test_across_the_date_line(client, client_user):
    # Adak, Alaska, and a helper just across 180 degrees: 8.5 miles apart, not 24,900.
    mom = recipient_of(client_user, at=Point(51.88, -179.95))
    near = helper("Ivy", Point(51.88, 179.85), travel=10)
    helper("Jo", Point(51.88, 178.0), travel=100)  # 83 miles west, across the line
    helper("Kit", Point(51.88, -178.2), travel=10)  # 75 miles east: she won't come
    client.force_login(client_user)
    response = _browse(client, f"&near={mom.pk}")
    assert _names(response) == ["Ivy", "Jo"]
    assert response.json()[0]["distanceMiles"] == round(miles_between(mom_point(mom), point_of(near)), 1) == 8.5


def mom_point(recipient) -> Point:
    return Point(recipient.latitude, recipient.longitude)


def point_of(provider) -> Point:
    return Point(provider.latitude, provider.longitude)


def test_the_selector_tells_the_exact_distance_for_every_row(neighbourhood):
    rows = list(provider_list_public(near=MOM, sort="distance"))
    for row in rows:
        assert row.distance_miles == pytest.approx(miles_between(MOM, point_of(row)), abs=1e-6)
        assert row.distance_miles <= row.travel_miles


def test_the_page_is_a_fixed_number_of_queries(client, client_user, neighbourhood, django_assert_max_num_queries):
    from providers.tests.factories import bulk_providers

    bulk_providers(30, home_zip="62704", latitude=MOM.latitude, longitude=MOM.longitude, place_status="located")
    mom = recipient_of(client_user)
    client.force_login(client_user)
    # The session and user, the recipient, the page, the count, the schedule's three prefetches, and
    # the track records' two (answer speeds, completions).
    with django_assert_max_num_queries(10):
        response = _browse(client, f"&near={mom.pk}&limit=24")
    assert len(response.json()) == 24 and response["X-Total-Count"] == "34"


def test_pages_of_the_nearest_and_past_the_end(client, client_user, neighbourhood):
    mom = recipient_of(client_user)
    client.force_login(client_user)
    first = _browse(client, f"&near={mom.pk}&limit=2")
    assert (_names(first), first["X-Total-Count"]) == (["Ann", "Bea"], "4")
    assert "offset=2" in first["Link"]
    second = _browse(client, f"&near={mom.pk}&limit=2&offset=2")
    assert (_names(second), second["X-Total-Count"]) == (["Dot", "Eve"], "4")
    beyond = _browse(client, f"&near={mom.pk}&limit=2&offset=10")
    assert (beyond.json(), beyond["X-Total-Count"]) == ([], "4")
