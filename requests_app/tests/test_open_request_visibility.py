"""A senior's address and needs reach verified providers only, and the street line the booked one only.

Only verified (and active) providers see open requests of others, with the town and ZIP (never
the street line) and the special requirements, and the client as first name + last initial; the
booked provider sees the full name, address and needs while the booking is on; an account
without a verified provider profile (none, switched
to provider without applying, pending, rejected) sees no open request of anyone else: not in
the list, a 404 on the detail, nothing in the pages' server-rendered props.
"""

from __future__ import annotations

import pytest

from accounts.models import UserType
from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.services import booking_reassign
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from marketplace.testing.pages import island_props
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

ADDRESS = "41 Maple Lane, Springfield, IL 62704"
AREA = "Springfield, IL 62704"
NEEDS = "I use a walker; please ring the bell twice."


@pytest.fixture
def senior():
    return UserFactory(first_name="Margaret", last_name="Whitfield", email="margaret@example.com")


@pytest.fixture
def open_request(senior):
    return ServiceRequestFactory(client=senior, location=ADDRESS, special_requirements=NEEDS)


def _switched():
    return UserFactory(user_type=UserType.PROVIDER)


def _pending():
    return ProviderFactory().user


def _rejected():
    return ProviderFactory(verification_status=VerificationStatus.REJECTED).user


def _inactive():
    return VerifiedProviderFactory(is_active=False).user


UNVETTED = {
    "none (client account)": UserFactory,
    "switched to provider without applying": _switched,
    "pending applicant": _pending,
    "rejected applicant": _rejected,
    "verified but inactive": _inactive,
}


@pytest.mark.parametrize("make_account", UNVETTED.values(), ids=UNVETTED.keys())
def test_an_account_without_a_verified_profile_sees_no_open_request(client, open_request, make_account):
    account = make_account()
    client.force_login(account)

    listed = call(client, "GET", "/api/service-requests")
    assert listed.status_code == 200
    assert listed.json() == []
    assert listed["X-Total-Count"] == "0"

    detail = call(client, "GET", f"/api/service-requests/{open_request.pk}")
    assert detail.status_code == 404
    assert ADDRESS not in detail.content.decode()


@pytest.mark.parametrize("make_account", UNVETTED.values(), ids=UNVETTED.keys())
def test_an_unvetted_account_still_sees_its_own_requests(client, make_account):
    account = make_account()
    own = ServiceRequestFactory(client=account, location=ADDRESS)
    client.force_login(account)
    detail = call(client, "GET", f"/api/service-requests/{own.pk}")
    assert detail.status_code == 200
    assert detail.json()["location"] == ADDRESS


def test_a_verified_provider_sees_the_town_zip_and_needs_and_the_client_as_first_name_and_initial(
    client, open_request, verified_provider
):
    client.force_login(verified_provider.user)

    listed = call(client, "GET", "/api/service-requests")
    detail = call(client, "GET", f"/api/service-requests/{open_request.pk}")

    assert [row["id"] for row in listed.json()] == [open_request.pk]
    for response in (listed, detail):
        assert "41 Maple" not in response.content.decode()  # never the street line before a booking
    for shape in (listed.json()[0], detail.json()):
        assert shape["location"] == AREA
        assert shape["address"] == {
            "street": None,
            "unit": None,
            "town": "Springfield",
            "state": "IL",
            "zipCode": "62704",
        }
        assert shape["specialRequirements"] == NEEDS
        assert shape["client"] == {"id": open_request.client_id, "firstName": "Margaret", "lastName": "W."}


def test_the_booked_provider_sees_the_full_name_address_and_needs_but_no_email(client, senior, verified_provider):
    booking = BookingFactory(
        service_request__client=senior,
        service_request__location=ADDRESS,
        service_request__special_requirements=NEEDS,
        provider=verified_provider,
        status=BookingStatus.CONFIRMED,
    )
    client.force_login(verified_provider.user)

    detail = call(client, "GET", f"/api/service-requests/{booking.service_request_id}").json()
    assert detail["location"] == ADDRESS
    assert detail["specialRequirements"] == NEEDS
    assert detail["client"]["firstName"] == "Margaret"
    assert detail["client"]["lastName"] == "Whitfield"
    # Never the circle's emails: the provider reaches them through the booking's messages.
    assert "email" not in detail["client"]

    visit = call(client, "GET", f"/api/bookings/{booking.pk}").json()["serviceRequest"]
    assert (visit["location"], visit["specialRequirements"]) == (ADDRESS, NEEDS)


def test_after_a_reassignment_only_the_new_provider_sees_the_request_and_address(client, senior, admin_user):
    first, second = VerifiedProviderFactory(), VerifiedProviderFactory()
    booking = BookingFactory(
        service_request__client=senior,
        service_request__location=ADDRESS,
        service_request__special_requirements=NEEDS,
        provider=first,
        status=BookingStatus.CONFIRMED,
    )
    url = f"/api/service-requests/{booking.service_request_id}"
    client.force_login(first.user)
    before = call(client, "GET", url).json()
    assert (before["location"], before["bookedWithYou"]) == (ADDRESS, True)
    client.force_login(senior)
    assert call(client, "GET", url).json()["bookedWithYou"] is False  # the family: not the helper
    client.force_login(first.user)

    booking_reassign(booking_id=booking.pk, actor=admin_user, new_provider_id=second.pk, reason="Unwell")

    former = call(client, "GET", url)  # the booking moved: the request is no longer theirs to see
    assert former.status_code == 404
    assert ADDRESS not in former.content.decode()
    client.force_login(second.user)
    now_booked = call(client, "GET", url).json()
    assert (now_booked["location"], now_booked["specialRequirements"]) == (ADDRESS, NEEDS)
    assert now_booked["bookedWithYou"] is True
    assert now_booked["client"]["lastName"] == "Whitfield"


def test_admins_see_the_town_zip_and_needs_but_never_the_street_line(client, senior, open_request, admin_user):
    booking = BookingFactory(
        service_request__client=senior,
        service_request__location=ADDRESS,
        service_request__special_requirements=NEEDS,
        status=BookingStatus.CONFIRMED,
    )
    client.force_login(admin_user)
    for pk in (open_request.pk, booking.service_request_id):
        detail = call(client, "GET", f"/api/service-requests/{pk}").json()
        # Staff see what support needs (core.addresses.STAFF_SEES): the town and ZIP.
        assert (detail["location"], detail["specialRequirements"]) == (AREA, NEEDS)
        assert detail["address"]["street"] is None
        assert detail["careDetails"] is None
        assert detail["client"]["lastName"] == "Whitfield"  # staff see the full name
    visit = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert (visit["serviceRequest"]["location"], visit["serviceRequest"]["specialRequirements"]) == (AREA, NEEDS)
    assert visit["careDetails"] is None


def test_the_unvetted_pages_carry_no_address_in_their_props(client, open_request):
    """The dashboard renders its first requests into its props (the API's answer, so none for an
    unvetted account) and the details page asks the API: no address in the HTML either way."""
    client.force_login(_pending())
    for url in ("/", "/dashboard", f"/service-request-details?id={open_request.pk}"):
        html = client.get(url).content.decode()
        assert ADDRESS not in html
        assert "walker" not in html
        assert "Whitfield" not in html


@pytest.mark.parametrize(
    ("make_account", "expected"),
    [
        (UserFactory, "none"),
        (_switched, "none"),
        (_pending, "pending"),
        (_rejected, "rejected"),
        (_inactive, "inactive"),
        (lambda: VerifiedProviderFactory().user, "verified"),
    ],
    ids=["client", "switched", "pending", "rejected", "inactive", "verified"],
)
def test_dashboard_props_say_where_the_account_stands_as_a_provider(client, make_account, expected):
    client.force_login(make_account())
    props = island_props(client.get("/dashboard"), "dashboard-props")
    assert props["providerStatus"] == expected
    assert props["hasProviderProfile"] is (expected != "none")
