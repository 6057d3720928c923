"""ARCHITECTURE.md "Roles and what the server allows": one test per cell (role x endpoint).

Allowed, 403 (a forbidden action on an object the caller may see), 404 (an object the caller
may not see) or 401 (not signed in).

The kinds of account: a client with no provider profile ("client"), an account
switched to provider without applying ("switched_provider"), a pending and a rejected applicant,
a verified provider ("provider", booked on the client's bookings) and another verified provider
booked on someone else's request ("booked_provider"). Only verified providers see open requests
of others; the others get a 404 for them.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from django.utils import timezone

from accounts.models import UserType
from accounts.tests.factories import AdminUserFactory, UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call, valid_application_body, valid_request_body
from marketplace.testing.db import once_per_module
from marketplace.testing.second_factor import with_verified_second_factor
from marketplace.testing.vetting import with_evidence
from payments.models import LateFee, LateFeeKind, LateFeeState
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

ROLES = [
    "anonymous",
    "client",
    "switched_provider",
    "pending_provider",
    "rejected_provider",
    "provider",
    "booked_provider",
    "admin",
]
# Accounts without a verified provider profile: they see no open request of anyone else.
UNVETTED = ("switched_provider", "pending_provider", "rejected_provider")
VETTED = ("provider", "booked_provider")


def by_kind(*, anonymous=401, client, unvetted, vetted, admin, **exceptions) -> dict:
    """{role: status}: one value for the unvetted accounts and one for the verified providers,
    with per-role exceptions."""
    table = {"anonymous": anonymous, "client": client, "admin": admin}
    table.update(dict.fromkeys(UNVETTED, unvetted))
    table.update(dict.fromkeys(VETTED, vetted))
    table.update(exceptions)
    assert set(table) == set(ROLES)
    return table


@dataclass
class World:
    users: dict
    objects: dict


@pytest.fixture(scope="module")
def _world_once(django_db_setup, django_db_blocker):
    """Built once per module (and xdist worker): building it for each of some 300 cells took most of
    their time. Each test runs in a savepoint of it (marketplace.testing.db)."""
    yield from once_per_module(django_db_blocker, _build_world)


@pytest.fixture
def world(db, _world_once):
    return _world_once


def _build_world() -> World:
    # Accounts like the root conftest's client_user, provider_user, verified_provider and admin_user
    # (other emails: a test of this module may ask for those fixtures beside the world).
    client_user = UserFactory(user_type=UserType.CLIENT, first_name="Clara")
    provider_user = ProviderFactory(user__first_name="Paul").user
    verified_provider = VerifiedProviderFactory(user__first_name="Vera")
    admin_user = with_verified_second_factor(AdminUserFactory(first_name="Ada"))
    other_client = UserFactory()
    other_provider = VerifiedProviderFactory()
    today = timezone.localdate()

    def booking(status, *, client=client_user, provider=verified_provider, days=10):
        return BookingFactory(
            service_request__client=client,
            service_request__preferred_date=today + dt.timedelta(days=days),
            provider=provider,
            status=status,
            payment_status=PaymentStatus.PAID if status != BookingStatus.SCHEDULED else PaymentStatus.PENDING,
        )

    def late_fee_booking(state):
        """A visit cancelled with the policy's late fee (nobody home), held or disputed."""
        cancelled = booking(BookingStatus.CANCELLED, days=-3)
        LateFee.objects.create(
            booking=cancelled,
            kind=LateFeeKind.NOBODY_HOME,
            amount=cancelled.total_amount,
            currency="usd",
            gateway="test",
            state=state,
            release_after=timezone.now() + dt.timedelta(days=2),
        )
        return cancelled

    past_visit = booking(BookingStatus.CONFIRMED, days=-1)
    at_the_door = booking(BookingStatus.CONFIRMED, days=0)
    at_the_door.checked_in_at = timezone.now()
    at_the_door.save(update_fields=["checked_in_at"])
    completed = booking(BookingStatus.COMPLETED, days=-2)
    completed.service_request.status = RequestStatus.COMPLETED
    completed.service_request.save()
    return World(
        users={
            "anonymous": None,
            "client": client_user,
            "switched_provider": UserFactory(user_type=UserType.PROVIDER),
            "pending_provider": provider_user,
            "rejected_provider": ProviderFactory(verification_status=VerificationStatus.REJECTED).user,
            "provider": verified_provider.user,
            "booked_provider": other_provider.user,
            "admin": admin_user,
        },
        objects={
            "own_open_request": ServiceRequestFactory(client=client_user),
            "other_open_request": ServiceRequestFactory(client=other_client),
            # Not the day of "booking": the admin reassigns that one to other_provider.
            "other_booked_request": booking(
                BookingStatus.CONFIRMED, client=other_client, provider=other_provider, days=12
            ).service_request,
            "booking": booking(BookingStatus.CONFIRMED),
            "past_visit_booking": past_visit,
            "checked_in_booking": at_the_door,
            "held_fee_booking": late_fee_booking(LateFeeState.HELD),
            "disputed_fee_booking": late_fee_booking(LateFeeState.DISPUTED),
            "completed_booking": completed,
            # With a verified ID and a clear check: the admin may approve her (vetting's rule).
            "pending_profile": with_evidence(provider_user.provider),
            "verified_profile": verified_provider,
            "other_provider": other_provider,
        },
    )


# (case id, method, url template, body, {role: expected status})
CASES = [
    ("providers-list", "GET", "/api/providers?verified=true", None, dict.fromkeys(ROLES, 200)),
    ("categories-list", "GET", "/api/service-categories", None, dict.fromkeys(ROLES, 200)),
    ("provider-reviews", "GET", "/api/providers/{verified_profile}/reviews", None, dict.fromkeys(ROLES, 200)),
    # A helper's profile: a verified, active one's for anyone signed in; an applicant's (pending)
    # for staff and herself only.
    (
        "provider-profile",
        "GET",
        "/api/providers/{verified_profile}/profile",
        None,
        by_kind(client=200, unvetted=200, vetted=200, admin=200),
    ),
    (
        "provider-profile-pending",
        "GET",
        "/api/providers/{pending_profile}/profile",
        None,
        by_kind(client=404, unvetted=404, vetted=404, admin=200, pending_provider=200),
    ),
    (
        "own-profile-read",
        "GET",
        "/api/provider/profile",
        None,
        by_kind(client=404, unvetted=200, vetted=200, admin=404, switched_provider=404),
    ),
    (
        "apply",
        "POST",
        "/api/provider/profile",
        "application",
        by_kind(client=201, unvetted=409, vetted=409, admin=403, switched_provider=201),
    ),
    ("requests-list", "GET", "/api/service-requests", None, by_kind(client=200, unvetted=200, vetted=200, admin=200)),
    (
        "request-create",
        "POST",
        "/api/service-requests",
        "request",
        by_kind(client=201, unvetted=403, vetted=403, admin=403),
    ),
    (
        # The client's own open request: for everyone else it is an open request of someone else.
        "own-open-request-read",
        "GET",
        "/api/service-requests/{own_open_request}",
        None,
        by_kind(client=200, unvetted=404, vetted=200, admin=200),
    ),
    (
        "other-open-request-read",
        "GET",
        "/api/service-requests/{other_open_request}",
        None,
        by_kind(client=404, unvetted=404, vetted=200, admin=200),
    ),
    (
        "other-booked-request-read",
        "GET",
        "/api/service-requests/{other_booked_request}",
        None,
        by_kind(client=404, unvetted=404, vetted=404, admin=200, booked_provider=200),
    ),
    (
        "request-edit",
        "PUT",
        "/api/service-requests/{own_open_request}",
        "request",
        by_kind(client=200, unvetted=404, vetted=403, admin=403),
    ),
    (
        "other-request-edit",
        "PUT",
        "/api/service-requests/{other_open_request}",
        "request",
        by_kind(client=404, unvetted=404, vetted=403, admin=403),
    ),
    (
        "request-delete",
        "DELETE",
        "/api/service-requests/{own_open_request}",
        None,
        by_kind(client=204, unvetted=404, vetted=403, admin=403),
    ),
    (
        "other-request-delete",
        "DELETE",
        "/api/service-requests/{other_open_request}",
        None,
        by_kind(client=404, unvetted=404, vetted=403, admin=403),
    ),
    (
        # Accounts that act as providers are told why they may not accept (ARCHITECTURE.md: 403).
        "request-accept",
        "POST",
        "/api/service-requests/{other_open_request}/accept",
        None,
        by_kind(client=404, unvetted=403, vetted=201, admin=403),
    ),
    (
        "own-request-accept",
        "POST",
        "/api/service-requests/{own_open_request}/accept",
        None,
        by_kind(client=403, unvetted=403, vetted=201, admin=403),
    ),
    ("bookings-list", "GET", "/api/bookings", None, by_kind(client=200, unvetted=200, vetted=200, admin=200)),
    (
        "booking-read",
        "GET",
        "/api/bookings/{booking}",
        None,
        by_kind(client=200, unvetted=404, vetted=200, admin=200, booked_provider=404),
    ),
    (
        "booking-cancel",
        "POST",
        "/api/bookings/{booking}/cancel",
        {"reason": "Plans changed"},
        by_kind(client=200, unvetted=404, vetted=403, admin=403, booked_provider=404),
    ),
    (
        "booking-complete",
        "POST",
        "/api/bookings/{past_visit_booking}/complete",
        None,
        by_kind(client=403, unvetted=404, vetted=200, admin=403, booked_provider=404),
    ),
    (
        # The helper checked in and found nobody home (the cancellation policy's late fee).
        "booking-nobody-home",
        "POST",
        "/api/bookings/{checked_in_booking}/nobody-home",
        {},
        by_kind(client=403, unvetted=404, vetted=200, admin=403, booked_provider=404),
    ),
    (
        # Money news: the organizers, the helper and staff see a late fee.
        "late-fee-read",
        "GET",
        "/api/bookings/{held_fee_booking}/late-fee",
        None,
        by_kind(client=200, unvetted=404, vetted=200, admin=200, booked_provider=404),
    ),
    (
        "late-fee-dispute",
        "POST",
        "/api/bookings/{held_fee_booking}/late-fee/dispute",
        {"reason": "Someone was home"},
        by_kind(client=200, unvetted=404, vetted=403, admin=403, booked_provider=404),
    ),
    (
        # Tips are the organizers' money news: the helper and staff 403 (payments.tips).
        "tip-read",
        "GET",
        "/api/bookings/{completed_booking}/tip",
        None,
        by_kind(client=200, unvetted=404, vetted=403, admin=403, booked_provider=404),
    ),
    (
        # Past the permission: this visit has no check-out, so its time for a tip is over (409).
        "tip-add",
        "POST",
        "/api/bookings/{completed_booking}/tip",
        {"amount": "5.00"},
        by_kind(client=409, unvetted=404, vetted=403, admin=403, booked_provider=404),
    ),
    (
        # "Get paid now": anyone with a provider profile (without payouts on: a quote saying so).
        "instant-payout-quote",
        "GET",
        "/api/earnings/instant-payout",
        None,
        by_kind(client=403, unvetted=200, vetted=200, admin=403, switched_provider=403),
    ),
    (
        "instant-payout-create",
        "POST",
        "/api/earnings/instant-payout",
        {"amount": "1.00"},
        by_kind(client=403, unvetted=409, vetted=409, admin=403, switched_provider=403),
    ),
    (
        "booking-review",
        "POST",
        "/api/bookings/{completed_booking}/review",
        {"rating": 5, "comment": "Wonderful"},
        by_kind(client=201, unvetted=404, vetted=403, admin=403, booked_provider=404),
    ),
    (
        # The booking's Kindly phone line (masked calls and texts): its client and its helper.
        "booking-phone-line",
        "GET",
        "/api/bookings/{booking}/phone-line",
        None,
        by_kind(client=200, unvetted=404, vetted=200, admin=403, booked_provider=404),
    ),
    (
        # Binding a number: 409 for the parties here (Twilio is not set up in this table).
        "booking-phone-line-bind",
        "POST",
        "/api/bookings/{booking}/phone-line",
        None,
        by_kind(client=409, unvetted=404, vetted=409, admin=403, booked_provider=404),
    ),
    (
        "admin-phone-records",
        "GET",
        "/api/admin/bookings/{booking}/phone-records",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-phone-records-all",
        "GET",
        "/api/admin/phone-records",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-voicemails",
        "GET",
        "/api/admin/voicemails",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    ("phone-menu-webhook", "POST", "/api/phone/menu", {"From": "+15550001111"}, dict.fromkeys(ROLES, 403)),
    ("phone-menu-choice-webhook", "POST", "/api/phone/menu/choice", {"Digits": "0"}, dict.fromkeys(ROLES, 403)),
    ("phone-menu-recorded-webhook", "POST", "/api/phone/menu/recorded", None, dict.fromkeys(ROLES, 403)),
    ("phone-reminder-webhook", "POST", "/api/phone/reminder?booking=1", None, dict.fromkeys(ROLES, 403)),
    ("phone-reminder-answer-webhook", "POST", "/api/phone/reminder/answer", {"Digits": "1"}, dict.fromkeys(ROLES, 403)),
    ("phone-reminder-status-webhook", "POST", "/api/phone/reminder/status", None, dict.fromkeys(ROLES, 403)),
    # Twilio's webhooks: only what Twilio signed (none of these requests are), whoever sends it.
    ("phone-voice-webhook", "POST", "/api/phone/twilio/voice", {"From": "+15550001111"}, {r: 403 for r in ROLES}),
    ("phone-voice-done-webhook", "POST", "/api/phone/twilio/voice/done", None, {r: 403 for r in ROLES}),
    ("phone-text-webhook", "POST", "/api/phone/twilio/text", {"Body": "hi"}, {r: 403 for r in ROLES}),
    ("admin-providers", "GET", "/api/admin/providers", None, by_kind(client=403, unvetted=403, vetted=403, admin=200)),
    ("admin-bookings", "GET", "/api/admin/bookings", None, by_kind(client=403, unvetted=403, vetted=403, admin=200)),
    (
        "admin-requests",
        "GET",
        "/api/admin/service-requests",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-approve",
        "PUT",
        "/api/admin/providers/{pending_profile}/status",
        {"status": "verified"},
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    # Vetting: an applicant's own steps (anyone with a provider profile; the pending applicant's ID
    # is verified and her check clear already: 409), the staff queue and decisions.
    (
        "vetting-me",
        "GET",
        "/api/vetting/me",
        None,
        by_kind(client=403, unvetted=200, vetted=200, admin=403, switched_provider=403),
    ),
    (
        "vetting-identity-start",
        "POST",
        "/api/vetting/identity",
        None,
        by_kind(client=403, unvetted=202, vetted=202, admin=403, switched_provider=403, pending_provider=409),
    ),
    (
        "vetting-background-start",
        "POST",
        "/api/vetting/background-check",
        None,
        by_kind(client=403, unvetted=202, vetted=202, admin=403, switched_provider=403, pending_provider=409),
    ),
    ("admin-vetting", "GET", "/api/admin/vetting", None, by_kind(client=403, unvetted=403, vetted=403, admin=200)),
    (
        # Her check is clear: nothing to adjudicate (409) once past the permission.
        "admin-adjudicate",
        "POST",
        "/api/admin/vetting/{pending_profile}/adjudication",
        {"outcome": "engage", "reason": "Old, minor, unrelated to the work."},
        by_kind(client=403, unvetted=403, vetted=403, admin=409),
    ),
    (
        "admin-adverse-step",
        "POST",
        "/api/admin/vetting/{pending_profile}/adverse-steps",
        {"step": "pre_adverse_notice"},
        by_kind(client=403, unvetted=403, vetted=403, admin=409),
    ),
    (
        "admin-reassign",
        "PUT",
        "/api/admin/bookings/{booking}/reassign",
        "reassign",
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-market",
        "GET",
        "/api/admin/market",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-visit-verification",
        "GET",
        "/api/admin/visit-verification",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-cancel",
        "PUT",
        "/api/admin/bookings/{booking}/cancel",
        {"reason": "Provider is unwell"},
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-late-fee-disputes",
        "GET",
        "/api/admin/late-fee-disputes",
        None,
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
    (
        "admin-late-fee-decide",
        "POST",
        "/api/admin/bookings/{disputed_fee_booking}/late-fee",
        {"decision": "pay", "reason": "The check-in was at the door"},
        by_kind(client=403, unvetted=403, vetted=403, admin=200),
    ),
]

PARAMS = [
    pytest.param(method, url, body, role, expected[role], id=f"{case}-{role}")
    for case, method, url, body, expected in CASES
    for role in ROLES
]


@pytest.mark.parametrize(("method", "url", "body", "role", "expected"), PARAMS)
def test_permission_table_cell(client, world, method, url, body, role, expected):
    user = world.users[role]
    if user is not None:
        client.force_login(user)
    url = url.format(**{name: obj.pk for name, obj in world.objects.items()})
    if body == "application":
        body = valid_application_body()
    elif body == "request":
        body = valid_request_body()
    elif body == "reassign":
        body = {"newProviderId": world.objects["other_provider"].pk, "reason": "Schedule conflict"}

    response = call(client, method, url, body)

    assert response.status_code == expected, response.content
    if expected >= 400:
        assert set(response.json()) == {"message", "errors"}


def test_pending_provider_accept_says_pending_verification(client, world):
    client.force_login(world.users["pending_provider"])
    response = call(client, "POST", f"/api/service-requests/{world.objects['other_open_request'].pk}/accept")
    assert response.status_code == 403
    assert "pending verification" in response.json()["message"]


def test_booked_provider_reads_the_request_they_are_booked_on(client, world):
    request = world.objects["other_booked_request"]
    client.force_login(request.bookings.get().provider.user)
    assert call(client, "GET", f"/api/service-requests/{request.pk}").status_code == 200


# ---------------------------------------------------------------- a client who is also a helper
# ARCHITECTURE.md: a person who is both keeps her client side. Her own requests and bookings stay
# readable, payable and cancellable whatever her account's type: after she applies (pending), once
# she is verified, and when she switched to provider without applying. Her own request is never one
# she can accept.

BOTH_ROLES = ["applied_client", "verified_client", "switched_client"]


@pytest.fixture
def both_world(db):
    users = {
        "applied_client": ProviderFactory(user__user_type=UserType.CLIENT).user,
        "verified_client": VerifiedProviderFactory(user__user_type=UserType.CLIENT).user,
        "switched_client": UserFactory(user_type=UserType.CLIENT),
    }
    helper = VerifiedProviderFactory()
    objects = {}
    for days, (role, user) in enumerate(users.items(), start=10):
        objects[role] = {
            "own_open_request": ServiceRequestFactory(client=user),
            "own_booking": BookingFactory(
                service_request__client=user,
                service_request__preferred_date=timezone.localdate() + dt.timedelta(days=days),
                provider=helper,
                status=BookingStatus.SCHEDULED,
                payment_status=PaymentStatus.PENDING,
            ),
        }
        # Became a provider account after she booked (applying does it; the menu's switch too).
        user.user_type = UserType.PROVIDER
        user.save(update_fields=["user_type"])
    return World(users=users, objects=objects)


BOTH_CASES = [
    ("own-open-request-read", "GET", "/api/service-requests/{own_open_request}", None, 200),
    ("own-booked-request-read", "GET", "/api/service-requests/{own_booked_request}", None, 200),
    ("own-request-edit", "PUT", "/api/service-requests/{own_open_request}", "request", 200),
    ("own-request-accept", "POST", "/api/service-requests/{own_open_request}/accept", None, 403),
    ("own-booking-read", "GET", "/api/bookings/{own_booking}", None, 200),
    ("own-booking-pay", "POST", "/api/create-payment-intent", {"bookingId": "{own_booking}"}, 200),
    ("own-booking-cancel", "POST", "/api/bookings/{own_booking}/cancel", {"reason": "Plans changed"}, 200),
    ("own-booking-checkout-page", "GET", "/checkout/{own_booking}", None, 200),
]


def _fill(template: str, objects: dict) -> str:
    return template.format(
        own_open_request=objects["own_open_request"].pk,
        own_booking=objects["own_booking"].pk,
        own_booked_request=objects["own_booking"].service_request_id,
    )


@pytest.mark.parametrize(
    ("method", "url", "body", "role", "expected"),
    [
        pytest.param(method, url, body, role, expected, id=f"{case}-{role}")
        for case, method, url, body, expected in BOTH_CASES
        for role in BOTH_ROLES
    ],
)
def test_client_side_of_a_helper_cell(client, both_world, method, url, body, role, expected):
    user, objects = both_world.users[role], both_world.objects[role]
    client.force_login(user)
    if body == "request":
        body = valid_request_body()
    elif isinstance(body, dict):
        body = {key: int(_fill(value, objects)) if value == "{own_booking}" else value for key, value in body.items()}

    path = _fill(url, objects)
    response = client.get(path) if path.startswith("/checkout/") else call(client, method, path, body)

    assert response.status_code == expected, response.content
    if expected >= 400:
        assert set(response.json()) == {"message", "errors"}


@pytest.mark.parametrize("role", BOTH_ROLES)
def test_client_side_of_a_helper_is_on_her_dashboard(client, both_world, role):
    """The helper view says she has a booking to pay; the client view lists it and her request."""
    objects = both_world.objects[role]
    client.force_login(both_world.users[role])

    helper_view = call(client, "GET", "/api/dashboard").json()
    client_view = call(client, "GET", "/api/dashboard?view=client").json()

    assert helper_view["view"] == "provider"
    assert helper_view["clientSide"] == {"requests": 1, "bookings": 1, "unpaid": 1}
    assert [b["id"] for b in client_view["bookings"]] == [objects["own_booking"].pk]
    assert objects["own_open_request"].pk in {r["id"] for r in client_view["requests"]}


@pytest.mark.parametrize("role", BOTH_ROLES)
def test_client_side_of_a_helper_lists_her_requests_in_the_client_view(client, both_world, role):
    objects = both_world.objects[role]
    client.force_login(both_world.users[role])

    mine = call(client, "GET", "/api/service-requests?view=client")
    helper_side = call(client, "GET", "/api/service-requests").json()

    assert mine.status_code == 200
    assert {r["id"] for r in mine.json()} == {
        objects["own_open_request"].pk,
        objects["own_booking"].service_request_id,
    }
    assert objects["own_open_request"].pk not in {r["id"] for r in helper_side}


def test_the_requests_list_refuses_a_view_that_is_neither_side(client, client_user):
    client.force_login(client_user)
    response = call(client, "GET", "/api/service-requests?view=admin")
    assert response.status_code == 400
    assert response.json() == {
        "message": "Choose client or provider.",
        "errors": {"view": ["Choose client or provider."]},
    }


# ---------------------------------------------------------------- address privacy (issue: where features meet)
# What each kind of account reads of a request's place: "full" (the street line), "area" (the town
# and ZIP only), None (a 404 or 401). requests_app.selectors.address_shown_to: helpers considering
# an open request and staff read the town and ZIP; the street line is the client's and, while the
# booking is on, the booked provider's; after it (completed two days ago) she reads the town and ZIP.
FULL, AREA = "12 Elm Street, Springfield", "Springfield"

ADDRESS_CASES = [
    (
        "other-open-request-address",
        "/api/service-requests/{other_open_request}",
        by_kind(anonymous=None, client=None, unvetted=None, vetted=AREA, admin=AREA),
    ),
    (
        "own-open-request-address",
        "/api/service-requests/{own_open_request}",
        by_kind(anonymous=None, client=FULL, unvetted=None, vetted=AREA, admin=AREA),
    ),
    (
        "booked-request-address",
        "/api/service-requests/{other_booked_request}",
        by_kind(anonymous=None, client=None, unvetted=None, vetted=None, admin=AREA, booked_provider=FULL),
    ),
    (
        "completed-booking-address",
        "/api/bookings/{completed_booking}",
        by_kind(anonymous=None, client=FULL, unvetted=None, vetted=None, admin=AREA, provider=AREA),
    ),
]


@pytest.mark.parametrize(
    ("url", "role", "expected"),
    [
        pytest.param(url, role, expected[role], id=f"{case}-{role}")
        for case, url, expected in ADDRESS_CASES
        for role in ROLES
    ],
)
def test_address_cell(client, world, url, role, expected):
    user = world.users[role]
    if user is not None:
        client.force_login(user)

    response = call(client, "GET", url.format(**{name: obj.pk for name, obj in world.objects.items()}))

    if expected is None:
        assert response.status_code in (401, 404)
        assert "12 Elm Street" not in response.content.decode()
        return
    assert response.status_code == 200
    data = response.json()
    assert (data["serviceRequest"]["location"] if "/api/bookings/" in url else data["location"]) == expected
    assert ("12 Elm Street" in response.content.decode()) is (expected == FULL)
