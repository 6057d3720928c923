"""Care circles: each role x each endpoint of requests, bookings and payments.

The roles around one care recipient (Harold Smith): the organizer who posted (the client), a plain
member, Harold himself with an account (a member of his own circle), someone outside the circle, a
member who was removed (membership deleted), the provider booked on Harold's visit, another
verified provider, an admin. Allowed, 403 (a member or party doing an organizer's action), 404
(outside the circle: the object is not theirs to see), 400 (creating a request for someone they
do not organize).

Beside the status codes: whether each role finds the items in its lists (the API lists, the
dashboard), so a non-member's or removed member's lists never hold Harold's items.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from django.core.files.base import ContentFile
from django.utils import timezone

from accounts.models import UserType
from accounts.tests.factories import AdminUserFactory, UserFactory
from bookings.models import BookingStatus, PaymentStatus, VisitPhoto, visit_photo_storage
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from marketplace.testing.api import call, valid_request_body
from marketplace.testing.db import once_per_module
from marketplace.testing.second_factor import with_verified_second_factor
from payments.models import Earning
from payments.payouts import earning_split
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

ROLES = [
    "organizer",
    "member",
    "recipient",
    "non_member",
    "removed_member",
    "booked_provider",
    "other_provider",
    "admin",
]
CIRCLE = ("organizer", "member", "recipient")
OUTSIDE = ("non_member", "removed_member")


def table(*, organizer, member, outside, booked_provider, other_provider, admin, recipient=None) -> dict:
    """{role: status}: the recipient with an account is a plain member unless told otherwise."""
    out = {
        "organizer": organizer,
        "member": member,
        "recipient": member if recipient is None else recipient,
        "booked_provider": booked_provider,
        "other_provider": other_provider,
        "admin": admin,
    }
    out.update(dict.fromkeys(OUTSIDE, outside))
    assert set(out) == set(ROLES)
    return out


@dataclass
class World:
    users: dict
    objects: dict
    recipient: CareRecipient


@pytest.fixture(scope="module")
def _world_once(django_db_setup, django_db_blocker):
    """Built once per module (and xdist worker); each test runs in a savepoint of it
    (marketplace.testing.db)."""
    yield from once_per_module(django_db_blocker, _build_world)


@pytest.fixture
def world(db, _world_once):
    return _world_once


def _build_world() -> World:
    organizer = UserFactory(user_type=UserType.CLIENT, first_name="Clara")
    admin_user = with_verified_second_factor(AdminUserFactory(first_name="Ada"))
    harold_account = UserFactory(first_name="Harold", last_name="Smith")
    harold = CareRecipient.objects.create(
        first_name="Harold",
        last_name="Smith",
        address="12 Oak Lane, Springfield",
        phone="555-0100",
        notes_for_helpers="Hard of hearing, ring twice",
        account=harold_account,
    )
    member = UserFactory()
    removed = UserFactory()
    CircleMember.objects.create(recipient=harold, user=organizer, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=harold, user=member, role=CircleRole.MEMBER)
    CircleMember.objects.create(recipient=harold, user=harold_account, role=CircleRole.MEMBER)
    CircleMember.objects.create(recipient=harold, user=removed, role=CircleRole.MEMBER).delete()
    booked = VerifiedProviderFactory()
    other = VerifiedProviderFactory()
    today = timezone.localdate()

    def booking(status, *, days):
        return BookingFactory(
            service_request__client=organizer,
            service_request__recipient=harold,
            service_request__preferred_date=today + dt.timedelta(days=days),
            provider=booked,
            status=status,
            payment_status=PaymentStatus.PENDING if status == BookingStatus.SCHEDULED else PaymentStatus.PAID,
        )

    completed = booking(BookingStatus.COMPLETED, days=-2)
    completed.service_request.status = RequestStatus.COMPLETED
    completed.service_request.save()
    # Its payment as the gateway recorded it (a receipt reads it) and the helper's photo.
    fee, net = earning_split(gross=completed.total_amount)
    Earning.objects.create(
        booking=completed,
        gross=completed.total_amount,
        fee=fee,
        net=net,
        fee_percent=15,
        currency="usd",
        gateway="test",
    )
    name = visit_photo_storage().save(f"{completed.pk}/table.jpg", ContentFile(b"\xff\xd8\xff\xe0 a photo"))
    VisitPhoto.objects.create(booking=completed, file=name, content_type="image/jpeg", size=12)
    return World(
        users={
            "organizer": organizer,
            "member": member,
            "recipient": harold_account,
            "non_member": UserFactory(),
            "removed_member": removed,
            "booked_provider": booked.user,
            "other_provider": other.user,
            "admin": admin_user,
        },
        objects={
            "open_request": ServiceRequestFactory(client=organizer, recipient=harold),
            "booking": booking(BookingStatus.SCHEDULED, days=10),
            "completed_booking": completed,
        },
        recipient=harold,
    )


# (case id, method, url template, body, {role: expected status})
CASES = [
    (
        # Verified providers see open requests (what they see today); nobody else outside the circle.
        "open-request-read",
        "GET",
        "/api/service-requests/{open_request}",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=200, other_provider=200, admin=200),
    ),
    (
        "booked-request-read",
        "GET",
        "/api/service-requests/{booking.service_request}",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=200, other_provider=404, admin=200),
    ),
    (
        "request-edit",
        "PUT",
        "/api/service-requests/{open_request}",
        "request",
        table(organizer=200, member=403, outside=404, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        "request-delete",
        "DELETE",
        "/api/service-requests/{open_request}",
        None,
        table(organizer=204, member=403, outside=404, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        # Provider accounts and admins may not post (403 before anything else); the others may post
        # only for someone whose care they organize (400 on recipientId).
        "request-create-for-harold",
        "POST",
        "/api/service-requests",
        "request_for_harold",
        table(organizer=201, member=400, outside=400, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        "booking-read",
        "GET",
        "/api/bookings/{booking}",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=200, other_provider=404, admin=200),
    ),
    (
        "booking-cancel",
        "POST",
        "/api/bookings/{booking}/cancel",
        {"reason": "Plans changed"},
        table(organizer=200, member=403, outside=404, booked_provider=403, other_provider=404, admin=403),
    ),
    (
        "booking-review",
        "POST",
        "/api/bookings/{completed_booking}/review",
        {"rating": 5, "comment": "Wonderful"},
        table(organizer=201, member=403, outside=404, booked_provider=403, other_provider=404, admin=403),
    ),
    (
        "pay",
        "POST",
        "/api/create-payment-intent",
        "pay",
        table(organizer=200, member=403, outside=404, booked_provider=403, other_provider=404, admin=403),
    ),
    (
        # The booking's Kindly phone line: its circle and its helper; staff are no party to a call.
        "booking-phone-line",
        "GET",
        "/api/bookings/{booking}/phone-line",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=200, other_provider=404, admin=403),
    ),
    (
        # Binding a number: the parties get 409 here, as Twilio is not set up in this table.
        "booking-phone-line-bind",
        "POST",
        "/api/bookings/{booking}/phone-line",
        None,
        table(organizer=409, member=409, outside=404, booked_provider=409, other_provider=404, admin=403),
    ),
    (
        # The care recipient's phone PIN (the phone menu): the circle reads whether it is set.
        "phone-pin-read",
        "GET",
        "/api/care-recipients/{recipient}/phone-pin",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        "phone-pin-set",
        "PUT",
        "/api/care-recipients/{recipient}/phone-pin",
        {"pin": "2580"},
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        # The visit record (tasks, place): organizers only; the booked helper is outside the circle.
        "visit-record-export",
        "GET",
        "/api/recipients/{recipient}/visit-record.csv?month={month}",
        None,
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        # Its PDF twin: the same rule.
        "visit-record-pdf",
        "GET",
        "/api/recipients/{recipient}/visit-record.pdf?month={month}",
        None,
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        # Receipts and statements are the family's money papers: the organizers, who pay; a plain
        # member gets no money news (403); the helper and staff are outside the circle (404).
        "receipt-pdf",
        "GET",
        "/api/bookings/{completed_booking}/receipt.pdf",
        None,
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        "receipt-pdf-unpaid",
        "GET",
        "/api/bookings/{booking}/receipt.pdf",
        None,
        table(organizer=409, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        "statement-pdf",
        "GET",
        "/api/recipients/{recipient}/statement.pdf?month={month}",
        None,
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        "statement-csv",
        "GET",
        "/api/recipients/{recipient}/statement.csv?month={month}",
        None,
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        # The visit's photo, by a signed link: the whole circle; the booked helper only while booked
        # (this visit ended two days ago: 403); staff see the booking, not the photo (403).
        "visit-photo-link",
        "GET",
        "/api/bookings/{completed_booking}/photo",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=403, other_provider=404, admin=403),
    ),
    (
        # Adding it is the booked helper's, from check-in: this visit is not checked in (409).
        "visit-photo-add",
        "POST",
        "/api/bookings/{booking}/photo",
        "photo",
        table(organizer=403, member=403, outside=404, booked_provider=409, other_provider=404, admin=403),
    ),
    (
        # The visit's tasks and their outcomes ride on the booking: the circle and the booked helper.
        "booking-tasks-read",
        "GET",
        "/api/bookings/{completed_booking}",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=200, other_provider=404, admin=200),
    ),
    (
        # The evening-before reminder of the care recipient (call, text or none).
        "phone-reminder-read",
        "GET",
        "/api/care-recipients/{recipient}/phone-reminder",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        "phone-reminder-set",
        "PUT",
        "/api/care-recipients/{recipient}/phone-reminder",
        {"by": "call"},
        table(organizer=200, member=403, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        # The page: the circle sees the booking there (organizers pay); anyone else "Booking Not Found".
        "checkout-page",
        "GET",
        "/checkout/{booking}",
        None,
        table(organizer=200, member=200, outside=404, booked_provider=404, other_provider=404, admin=404),
    ),
    (
        # A saved card (payments.cards) is its organizer's alone: nobody else reads or saves one here.
        "payment-method-read",
        "GET",
        "/api/payment-method",
        None,
        table(organizer=200, member=403, outside=403, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        "payment-method-save",
        "POST",
        "/api/payment-method/test",
        {"cardNumber": "4242 4242 4242 4242", "expiry": "12/34"},
        table(organizer=200, member=403, outside=403, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        "payment-method-setup",
        "POST",
        "/api/payment-method/setup",
        None,
        table(organizer=200, member=403, outside=403, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        # She has no card saved in this table: 404 to her; nobody else may remove one.
        "payment-method-remove",
        "DELETE",
        "/api/payment-method",
        None,
        table(organizer=404, member=403, outside=403, booked_provider=403, other_provider=403, admin=403),
    ),
    (
        # "Charge my saved card automatically" on a booking: its organizers (409 here: no card saved).
        "booking-auto-charge",
        "POST",
        "/api/bookings/{booking}/auto-charge",
        None,
        table(organizer=409, member=403, outside=404, booked_provider=403, other_provider=404, admin=403),
    ),
]

PARAMS = [
    pytest.param(method, url, body, role, expected[role], id=f"{case}-{role}")
    for case, method, url, body, expected in CASES
    for role in ROLES
]


def _png():
    import io

    from django.core.files.uploadedfile import SimpleUploadedFile
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (8, 8), "teal").save(out, format="PNG")
    return SimpleUploadedFile("visit.png", out.getvalue(), content_type="image/png")


def _url(world: World, template: str) -> str:
    names = {
        "open_request": world.objects["open_request"].pk,
        "booking": world.objects["booking"].pk,
        "completed_booking": world.objects["completed_booking"].pk,
        "booking.service_request": world.objects["booking"].service_request_id,
        "recipient": world.recipient.pk,
        "month": f"{world.objects['completed_booking'].scheduled_date:%Y-%m}",
    }
    for name, pk in sorted(names.items(), key=lambda item: -len(item[0])):
        template = template.replace("{" + name + "}", str(pk))
    return template


@pytest.mark.parametrize(("method", "url", "body", "role", "expected"), PARAMS)
def test_circle_permission_cell(client, world, settings, method, url, body, role, expected):
    settings.PAYMENTS_BACKEND = "test"
    client.force_login(world.users[role])
    if body == "request":
        body = valid_request_body()
    elif body == "request_for_harold":
        body = valid_request_body(recipientId=world.recipient.pk)
    elif body == "pay":
        booking = world.objects["booking"]
        body = {"bookingId": booking.pk, "amount": float(booking.total_amount)}

    if body == "photo":
        response = client.post(_url(world, url), {"photo": _png()})
    else:
        response = call(client, method, _url(world, url), body)

    assert response.status_code == expected, response.content[:500]
    if expected == 200 and ".pdf" in url:
        assert response.content.startswith(b"%PDF")
    elif expected == 200 and "visit-record" in url:
        assert response["Content-Type"].startswith("text/csv")
        assert "Person cared for" in response.content.decode()
    if expected == 200 and "statement.csv" in url:
        assert response.content.decode().startswith("Visit date,Receipt number")
    if expected == 200 and url.endswith("/photo"):
        # The link works for the one who asked, and only for them.
        link = response.json()["url"]
        assert client.get(link).status_code == 200
        client.force_login(world.users["non_member"])
        assert client.get(link).status_code == 404
    if expected >= 400 and not url.startswith("/checkout"):
        assert set(response.json()) == {"message", "errors"}
    if expected == 400:
        assert "recipientId" in response.json()["errors"]


# (list, url, the item's object name, {role: listed?})
LISTS = [
    (
        "bookings",
        "/api/bookings",
        "booking",
        {r: r in (*CIRCLE, "booked_provider", "admin") for r in ROLES},
    ),
    (
        "requests",
        "/api/service-requests",
        "open_request",
        # Providers see the open requests of others; admins see all.
        {r: r in (*CIRCLE, "booked_provider", "other_provider", "admin") for r in ROLES},
    ),
    (
        "dashboard-bookings",
        "/api/dashboard",
        "booking",
        # The dashboard shows a client the circle's visits, a provider the visits they make.
        {r: r in (*CIRCLE, "booked_provider") for r in ROLES},
    ),
]


def _ids(data: dict | list, key: str) -> set[int]:
    if isinstance(data, dict) and "results" in data:
        data = data["results"]
    if isinstance(data, dict):
        data = data[key]
    return {item["id"] for item in data}


@pytest.mark.parametrize(
    ("url", "name", "role", "listed"),
    [
        pytest.param(url, name, role, listed[role], id=f"{case}-{role}")
        for case, url, name, listed in LISTS
        for role in ROLES
    ],
)
def test_circle_lists(client, world, url, name, role, listed):
    client.force_login(world.users[role])
    response = client.get(url)
    assert response.status_code == 200
    key = "bookings" if name == "booking" else "requests"
    assert (world.objects[name].pk in _ids(response.json(), key)) is listed


def test_a_removed_member_loses_sight_at_once(client, world):
    """Removing a member (deleting their membership) hides the circle's items from their next read,
    cached lists included."""
    member = world.users["member"]
    client.force_login(member)
    booking = world.objects["booking"]
    assert booking.pk in _ids(client.get("/api/bookings").json(), "bookings")
    assert booking.pk in _ids(client.get("/api/dashboard").json(), "bookings")

    CircleMember.objects.filter(recipient=world.recipient, user=member).delete()

    assert booking.pk not in _ids(client.get("/api/bookings").json(), "bookings")
    assert booking.pk not in _ids(client.get("/api/dashboard").json(), "bookings")
    assert client.get(f"/api/bookings/{booking.pk}").status_code == 404


# ---------------------------------------------------------------- invitation links whose role changed
# Re-inviting an address with another role is a new invitation with a new link: the first link
# (a "member" email, perhaps forwarded) stops working for whoever holds it, and never makes its
# holder an organizer. Rows: (link, holder role, expected status, the holder's role afterwards).

INVITE_ROWS = [
    ("first-member-link", "member", 409, CircleRole.MEMBER),
    ("first-member-link", "non_member", 409, None),
    ("first-member-link", "removed_member", 409, None),
    # Provider and staff accounts never join a circle, whatever the link.
    ("first-member-link", "other_provider", 403, None),
    ("first-member-link", "admin", 403, None),
    ("new-organizer-link", "member", 200, CircleRole.ORGANIZER),
    ("new-organizer-link", "non_member", 200, CircleRole.ORGANIZER),
    ("new-organizer-link", "removed_member", 200, CircleRole.ORGANIZER),
    ("new-organizer-link", "other_provider", 403, None),
    ("new-organizer-link", "admin", 403, None),
]


@pytest.mark.parametrize(
    ("link", "holder", "expected", "role_after"),
    [pytest.param(*row, id=f"{row[0]}-{row[1]}") for row in INVITE_ROWS],
)
def test_a_re_invitation_with_another_role_voids_the_first_link(client, world, link, holder, expected, role_after):
    from circles import services as circle_services
    from circles.models import CircleInvitation

    client.force_login(world.users["organizer"])
    invite = f"/api/care-recipients/{world.recipient.pk}/invitations"
    first = call(client, "POST", invite, {"email": "nephew@example.com", "role": "member"})
    first_link = circle_services.invitation_token(CircleInvitation.objects.get(pk=first.json()["id"]))
    second = call(client, "POST", invite, {"email": "nephew@example.com", "role": "organizer"})
    assert first.status_code == second.status_code == 201 and second.json()["id"] != first.json()["id"]
    new_link = circle_services.invitation_token(CircleInvitation.objects.get(pk=second.json()["id"]))

    client.force_login(world.users[holder])
    token = first_link if link == "first-member-link" else new_link
    response = call(client, "POST", "/api/care-invitations/accept", {"token": token})

    assert response.status_code == expected, response.content[:500]
    if expected == 409:
        assert "replaced by a newer one" in response.json()["message"]
    membership = CircleMember.objects.filter(recipient=world.recipient, user=world.users[holder]).first()
    assert (membership.role if membership else None) == role_after


# ---------------------------------------------------------------- public reviews of Harold's helper
# Whoever reads them (every role, and a visitor), a review of Harold's visit names its writer by
# first name and last initial, and carries no id of a person or a booking.


@pytest.mark.parametrize("role", [*ROLES, "visitor"])
def test_public_reviews_show_the_organizer_as_first_name_and_initial_to_everyone(client, world, role):
    from bookings.tests.factories import ReviewFactory

    organizer = world.users["organizer"]
    ReviewFactory(booking=world.objects["completed_booking"], reviewer=organizer, comment="Lovely visit")
    if role != "visitor":
        client.force_login(world.users[role])
    provider = world.objects["completed_booking"].provider

    response = call(client, "GET", f"/api/providers/{provider.pk}/reviews")

    assert response.status_code == 200
    (review,) = response.json()
    assert review["reviewer"] == {"firstName": organizer.first_name, "lastName": f"{organizer.last_name[0]}."}
    assert not {"reviewerId", "bookingId", "reviewedId"} & set(review)
    assert organizer.pk not in response.content.decode()


# ---------------------------------------------------------------- address privacy (issue: where features meet)
# What each role reads of Harold's address: "full" (the street line, and careDetails for the booked
# helper), "area" (the town and ZIP only), None (a 404: not theirs to see). One rule decides it
# (requests_app.selectors.address_shown_to): before a booking helpers see the town and ZIP; the
# booked helper sees it all only while the booking is on; staff see the town and ZIP.
# The requests' place (the factory's); Harold's own address (12 Oak Lane) is in careDetails only.
FULL, AREA = "12 Elm Street, Springfield", "Springfield"

ADDRESS_CASES = [
    (
        "open-request-address",
        "/api/service-requests/{open_request}",
        table(organizer=FULL, member=FULL, outside=None, booked_provider=AREA, other_provider=AREA, admin=AREA),
    ),
    (
        "booked-request-address",
        "/api/service-requests/{booking.service_request}",
        table(organizer=FULL, member=FULL, outside=None, booked_provider=FULL, other_provider=None, admin=AREA),
    ),
    (
        "booking-address",
        "/api/bookings/{booking}",
        table(organizer=FULL, member=FULL, outside=None, booked_provider=FULL, other_provider=None, admin=AREA),
    ),
    (
        # Completed two days ago: beyond the visit report's window, the helper is dropped.
        "long-completed-booking-address",
        "/api/bookings/{completed_booking}",
        table(organizer=FULL, member=FULL, outside=None, booked_provider=AREA, other_provider=None, admin=AREA),
    ),
    (
        "cancelled-booking-address",
        "/api/bookings/{cancelled_booking}",
        table(organizer=FULL, member=FULL, outside=None, booked_provider=AREA, other_provider=None, admin=AREA),
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
def test_circle_address_cell(client, world, url, role, expected):
    cancelled = BookingFactory(
        service_request__client=world.users["organizer"],
        service_request__recipient=world.recipient,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=20),
        provider=world.objects["booking"].provider,
        status=BookingStatus.CANCELLED,
    )
    path = _url(world, url).replace("{cancelled_booking}", str(cancelled.pk))
    client.force_login(world.users[role])

    response = call(client, "GET", path)

    if expected is None:
        assert response.status_code == 404
        return
    assert response.status_code == 200
    data = response.json()
    location = data["serviceRequest"]["location"] if "/api/bookings/" in path else data["location"]
    assert location == expected
    text = response.content.decode()
    assert ("12 Elm Street" in text) is (expected == FULL)
    # The recipient's address and notes for helpers: the booked helper's, while she holds it. Her
    # phone number reaches nobody outside the circle: the helper calls through the booking's Kindly
    # line (phoneline).
    holds = role == "booked_provider" and expected == FULL
    assert (data["careDetails"] is not None) is holds
    assert ("12 Oak Lane" in text) is holds
    assert ("Hard of hearing" in text) is holds
    if role not in ("organizer", "member"):
        assert "555-0100" not in text
