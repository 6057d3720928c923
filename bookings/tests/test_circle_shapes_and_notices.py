"""Care circles: whom a request or booking is for in its shape, what the booked provider
sees of the recipient (and nobody else), the request form's recipient, and notifications and live
events reaching every member of the circle."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core.realtime import user_group
from marketplace.testing.api import call, valid_request_body
from marketplace.testing.pages import island_props
from messaging.models import Message, MessageType
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory


@pytest.fixture
def circle(client_user):
    """Harold Smith, organized by client_user (Olivia Organizer), with Mark as a plain member."""
    client_user.first_name, client_user.last_name = "Olivia", "Organizer"
    client_user.save()
    harold = CareRecipient.objects.create(
        first_name="Harold",
        last_name="Smith",
        address="12 Oak Lane, Springfield",
        phone="555-0100",
        notes_for_helpers="Hard of hearing, ring twice",
    )
    member = UserFactory(first_name="Mark", last_name="Member")
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=harold, user=member, role=CircleRole.MEMBER)
    return {"organizer": client_user, "member": member, "recipient": harold}


def _booking(circle, provider, **kwargs):
    return BookingFactory(
        service_request__client=circle["organizer"],
        service_request__recipient=circle["recipient"],
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=10),
        provider=provider,
        **kwargs,
    )


def _items(data):
    return data["results"] if isinstance(data, dict) else data


def _system_messages(user) -> list[str]:
    return list(
        Message.objects.filter(receiver=user, message_type=MessageType.SYSTEM).values_list("content", flat=True)
    )


# ------------------------------------------------------------------ shapes


def test_requests_and_bookings_name_their_recipient_for_the_circle(client, circle, verified_provider):
    booking = _booking(circle, verified_provider)
    client.force_login(circle["member"])
    expected = {
        "id": circle["recipient"].pk,
        "firstName": "Harold",
        "lastName": "Smith",
        "timeZone": "America/New_York",
    }

    listed = _items(client.get("/api/bookings").json())
    assert [b["recipient"] for b in listed] == [expected]
    assert listed[0]["circleRole"] == "member"
    assert listed[0]["canCancel"] is False  # a member sees the visit, organizers act on it
    assert listed[0]["careDetails"] is None
    request = client.get(f"/api/service-requests/{booking.service_request_id}").json()
    assert request["recipient"] == expected
    assert request["circleRole"] == "member"
    assert request["location"] == booking.service_request.location  # the circle sees where

    client.force_login(circle["organizer"])
    assert client.get(f"/api/bookings/{booking.pk}").json()["circleRole"] == "organizer"


def test_the_booked_provider_sees_the_recipient_in_full_in_the_detail_only(client, circle, verified_provider):
    booking = _booking(circle, verified_provider)
    client.force_login(verified_provider.user)

    detail = client.get(f"/api/bookings/{booking.pk}").json()
    assert detail["careDetails"] == {
        "id": circle["recipient"].pk,
        "firstName": "Harold",
        "lastName": "Smith",
        "address": "12 Oak Lane, Springfield",
        "notesForHelpers": "Hard of hearing, ring twice",
        "contacts": [{"firstName": "Olivia", "lastName": "Organizer"}],  # organizers only, names only
    }
    assert "@" not in str(detail["careDetails"])
    assert "555-0100" not in str(detail)  # her phone: reached through the booking's Kindly line only
    assert "email" not in detail["client"]  # never the circle's emails
    for person in (circle["organizer"], circle["member"]):
        assert person.email not in str(detail)
    request = client.get(f"/api/service-requests/{booking.service_request_id}").json()
    assert request["careDetails"] == detail["careDetails"]
    assert request["circleRole"] is None
    # Never in lists.
    assert [b["careDetails"] for b in _items(client.get("/api/bookings").json())] == [None]


def test_no_other_provider_and_no_provider_before_booking_sees_the_recipients_details(client, circle):
    open_request = ServiceRequestFactory(client=circle["organizer"], recipient=circle["recipient"])
    booking = _booking(circle, VerifiedProviderFactory())
    other = VerifiedProviderFactory()
    client.force_login(other.user)

    seen = client.get(f"/api/service-requests/{open_request.pk}").json()  # open: what providers see today
    assert seen["careDetails"] is None
    assert seen["recipient"]["firstName"] == "Harold"
    assert "555-0100" not in str(seen) and "ring twice" not in str(seen)
    assert client.get(f"/api/bookings/{booking.pk}").status_code == 404
    assert client.get(f"/api/service-requests/{booking.service_request_id}").status_code == 404


def test_admins_see_the_recipients_name_but_not_the_care_details(client, circle, verified_provider, admin_user):
    booking = _booking(circle, verified_provider)
    client.force_login(admin_user)
    detail = client.get(f"/api/bookings/{booking.pk}").json()
    assert detail["recipient"]["lastName"] == "Smith"
    assert detail["careDetails"] is None
    # Staff see the town and ZIP (what support needs), never the street line.
    assert detail["serviceRequest"]["location"] == "Springfield"


# ------------------------------------------------------------------ create for a recipient


def test_an_organizer_posts_for_their_recipient_and_a_blank_location_is_their_address(client, circle):
    client.force_login(circle["organizer"])
    response = call(
        client, "POST", "/api/service-requests", valid_request_body(recipientId=circle["recipient"].pk, location="")
    )
    assert response.status_code == 201, response.content
    created = ServiceRequest.objects.get(pk=response.json()["id"])
    assert created.recipient_id == circle["recipient"].pk
    assert created.location == "12 Oak Lane, Springfield"
    assert response.json()["recipient"]["firstName"] == "Harold"


def test_without_a_recipient_the_request_is_for_the_poster_themself(client, circle):
    client.force_login(circle["organizer"])
    response = call(client, "POST", "/api/service-requests", valid_request_body())
    assert response.status_code == 201
    created = ServiceRequest.objects.get(pk=response.json()["id"])
    assert created.recipient.account_id == circle["organizer"].pk
    assert CircleMember.objects.filter(
        recipient=created.recipient, user=circle["organizer"], role=CircleRole.ORGANIZER
    ).exists()


@pytest.mark.parametrize("who", ["member", "unknown", "stranger"])
def test_posting_for_someone_you_do_not_organize_is_a_400_on_recipient_id(client, circle, who):
    stranger = CareRecipient.objects.create(first_name="Someone", last_name="Else")
    recipient_id = {"member": circle["recipient"].pk, "unknown": 99_999_999, "stranger": stranger.pk}[who]
    user = circle["member"] if who == "member" else circle["organizer"]
    client.force_login(user)
    before = ServiceRequest.objects.count()
    response = call(client, "POST", "/api/service-requests", valid_request_body(recipientId=recipient_id))
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"recipientId"}
    assert ServiceRequest.objects.count() == before


def test_a_blank_location_with_no_address_to_use_is_still_required(client, circle):
    circle["recipient"].address = ""
    circle["recipient"].save()
    client.force_login(circle["organizer"])
    response = call(
        client, "POST", "/api/service-requests", valid_request_body(recipientId=circle["recipient"].pk, location="")
    )
    assert response.status_code == 400
    assert response.json()["errors"]["location"] == ["Location is required"]


def test_the_request_form_offers_the_recipients_the_user_organizes(client, circle):
    client.force_login(circle["organizer"])
    response = client.get("/request-service")
    assert response.status_code == 200
    options = island_props(response, "request-service-props")["recipients"]
    assert options[0]["isSelf"] and options[0]["id"] is None  # "Myself", made on posting
    assert {"id": circle["recipient"].pk, "firstName": "Harold", "lastName": "Smith"}.items() <= options[1].items()
    assert options[1]["address"] == "12 Oak Lane, Springfield"
    client.force_login(circle["member"])  # a plain member organizes nobody: only "Myself"
    page = client.get("/request-service")
    assert [o["id"] for o in island_props(page, "request-service-props")["recipients"]] == [None]


# ------------------------------------------------------------------ notifications and live events


def test_accepting_tells_every_member_of_the_circle(client, circle, verified_provider):
    request = ServiceRequestFactory(client=circle["organizer"], recipient=circle["recipient"])
    client.force_login(verified_provider.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept").status_code == 201
    # The organizer, who pays, reads "your request"; the plain member did not ask: "the request".
    assert any("accepted your request" in m for m in _system_messages(circle["organizer"]))
    member = _system_messages(circle["member"])
    assert any("accepted the request" in m for m in member)
    assert not any("your request" in m for m in member)


def test_a_cancel_by_an_organizer_tells_the_members_who_cancelled(client, circle, verified_provider):
    booking = _booking(circle, verified_provider)
    client.force_login(circle["organizer"])
    assert call(client, "POST", f"/api/bookings/{booking.pk}/cancel", {}).status_code == 200
    assert any("cancelled by Olivia Organizer" in m for m in _system_messages(circle["member"]))
    assert any(m.startswith("Your booking") for m in _system_messages(circle["organizer"]))


def test_the_payer_is_thanked_with_the_card_and_members_get_no_money_news(client, circle, verified_provider, settings):
    settings.PAYMENTS_BACKEND = "test"
    booking = _booking(circle, verified_provider, status=BookingStatus.SCHEDULED, payment_status=PaymentStatus.PENDING)
    client.force_login(circle["organizer"])
    assert call(client, "POST", "/api/create-payment-intent", {"bookingId": booking.pk}).status_code == 200
    response = call(
        client, "POST", "/api/payments/test/confirm", {"bookingId": booking.pk, "cardNumber": "4242424242424242"}
    )
    assert response.status_code == 200, response.content
    assert any(m.startswith("Thank you: your payment of") for m in _system_messages(circle["organizer"]))
    assert not any("payment" in m.lower() for m in _system_messages(circle["member"]))
    receipts = {
        person.pk: sent["context"].get("last4")
        for sent in _sent_notifications
        if sent["kind"] == "payment_received"
        for person in sent["receivers"]
    }
    assert receipts == {circle["organizer"].pk: "4242"}


_sent_notifications: list = []


@pytest.fixture(autouse=True)
def _record_notifications(monkeypatch):
    """Record each notice with a kind (kind, receivers, context) the services publish."""
    from core import events

    _sent_notifications.clear()
    subscribed = events.SUBSCRIPTIONS[events.KindNoticeWritten]
    record = events.Subscription(
        handler=lambda event: _sent_notifications.append(vars(event)), when=events.When.IN_TRANSACTION
    )
    monkeypatch.setitem(events.SUBSCRIPTIONS, events.KindNoticeWritten, [record, *subscribed])


def _drain(layer, channel) -> list[dict]:
    async def receive_all():
        events = []
        while True:
            try:
                events.append(await asyncio.wait_for(layer.receive(channel), timeout=0.2))
            except TimeoutError:
                return events

    return async_to_sync(receive_all)()


def test_booking_updated_reaches_every_member(client, circle, verified_provider, django_capture_on_commit_callbacks):
    request = ServiceRequestFactory(client=circle["organizer"], recipient=circle["recipient"])
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(user_group(circle["member"].pk), channel)
    client.force_login(verified_provider.user)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = call(client, "POST", f"/api/service-requests/{request.pk}/accept")
        events = [e for e in _drain(layer, channel) if e["event"] == "booking.updated"]
        assert [e["payload"]["id"] for e in events] == [response.json()["id"]]
    finally:
        async_to_sync(layer.group_discard)(user_group(circle["member"].pk), channel)


def test_the_visit_reminder_reaches_every_member_and_the_provider(circle, verified_provider):
    from notifications.services import visit_reminder_send

    booking = _booking(circle, verified_provider, status=BookingStatus.CONFIRMED, payment_status=PaymentStatus.PAID)
    assert visit_reminder_send(booking_id=booking.pk, now=booking.visit_start - dt.timedelta(hours=12))
    assert any(m.startswith("Reminder: your visit") for m in _system_messages(verified_provider.user))
    for person in (circle["organizer"], circle["member"]):
        assert any(m.startswith("Reminder: the visit") for m in _system_messages(person)), person


def test_a_members_checkout_shows_the_booking_without_paying(client, circle, verified_provider):
    booking = _booking(circle, verified_provider, status=BookingStatus.SCHEDULED, payment_status=PaymentStatus.PENDING)
    client.force_login(circle["member"])
    props = island_props(client.get(f"/checkout/{booking.pk}"), "checkout-props")["booking"]
    assert (props["canPay"], props["payable"]) == (False, False)
    assert props["recipient"] == {
        "id": circle["recipient"].pk,
        "firstName": "Harold",
        "lastName": "Smith",
        "timeZone": "America/New_York",
    }
    client.force_login(circle["organizer"])
    props = island_props(client.get(f"/checkout/{booking.pk}"), "checkout-props")["booking"]
    assert (props["canPay"], props["payable"]) == (True, True)


def test_a_members_calendar_holds_the_circles_visits(circle, verified_provider):
    from bookings.selectors import calendar_visits

    booking = _booking(circle, verified_provider, status=BookingStatus.CONFIRMED, payment_status=PaymentStatus.PAID)
    assert [b.pk for b in calendar_visits(user=circle["member"])] == [booking.pk]
    assert list(calendar_visits(user=UserFactory())) == []


def test_any_organizer_may_review_once_per_booking_for_the_whole_circle(client, circle, verified_provider):
    second = UserFactory()
    CircleMember.objects.create(recipient=circle["recipient"], user=second, role=CircleRole.ORGANIZER)
    booking = _booking(circle, verified_provider, status=BookingStatus.COMPLETED, payment_status=PaymentStatus.PAID)
    client.force_login(second)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": 4}).status_code == 201
    client.force_login(circle["organizer"])
    response = call(client, "POST", f"/api/bookings/{booking.pk}/review", {"rating": 5})
    assert response.status_code == 409
    assert "already reviewed" in response.json()["message"]
    verified_provider.refresh_from_db()
    assert verified_provider.total_reviews == 1
    # The dashboard hides "Leave a Review" for the whole circle.
    assert booking.pk in island_props(client.get("/dashboard"), "dashboard-props")["reviewedBookingIds"]


def test_a_recipient_with_no_address_keeps_the_first_requests_location(client, circle):
    """The next request for them starts from it (the form's location default); one already set stays."""
    recipient = circle["recipient"]
    recipient.address = ""
    recipient.save()
    client.force_login(circle["organizer"])
    body = valid_request_body(recipientId=recipient.pk, location="4 Birch Road, Springfield")
    assert call(client, "POST", "/api/service-requests", body).status_code == 201
    recipient.refresh_from_db()
    assert recipient.address == "4 Birch Road, Springfield"
    other = valid_request_body(recipientId=recipient.pk, location="The clinic on Main Street")
    assert call(client, "POST", "/api/service-requests", other).status_code == 201
    recipient.refresh_from_db()
    assert recipient.address == "4 Birch Road, Springfield"
