"""The websocket's events are declared once (marketplace/realtime_events.py): every event the server
names has a declared payload, the API schema carries each as a webhook (so frontend/lib/api-schema.ts
types the pages' subscriptions), and what the services really send has the declared shape."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework import serializers

import core.realtime as realtime
from bookings import services as booking_services
from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from core.realtime import user_group
from marketplace.asgi import application
from marketplace.realtime_events import EVENTS, PAYLOADS
from marketplace.testing.api import call
from marketplace.testing.vetting import with_evidence
from providers.tests.factories import ProviderFactory
from requests_app.models import TimeWindow
from requests_app.tests.factories import ServiceRequestFactory

# The event types core.realtime names (its upper-case string constants).
NAMED = {
    value
    for name, value in vars(realtime).items()
    if name.isupper() and isinstance(value, str) and not name.startswith("_")
}


def test_every_event_the_server_names_has_one_declared_payload():
    assert NAMED == {
        realtime.BOOKING_UPDATED,
        realtime.MESSAGE_CREATED,
        realtime.UNREAD_COUNT,
        realtime.TYPING,
        realtime.PROVIDER_UPDATED,
    }
    assert set(PAYLOADS) == NAMED
    assert [event.name for event in EVENTS] == list(PAYLOADS)


def test_the_api_schema_carries_each_event_as_a_webhook_with_its_payload():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert schema["openapi"].startswith("3.1")
    assert set(schema["webhooks"]) == NAMED
    components = schema["components"]["schemas"]
    for name, serializer in PAYLOADS.items():
        body = schema["webhooks"][name]["post"]["requestBody"]["content"]["application/json"]["schema"]
        component = body["$ref"].rsplit("/", 1)[-1]
        assert set(components[component]["properties"]) == set(serializer().fields), name
    # The payloads' choices are the API's own named enums.
    booking_updated = components["BookingUpdatedEvent"]["properties"]
    assert booking_updated["status"] == {"$ref": "#/components/schemas/BookingStatusEnum"}


def assert_declared(event_type: str, payload: dict) -> None:
    """The payload has the declared fields only, the required ones included, of the declared types."""
    declared = PAYLOADS[event_type]()
    fields = declared.fields
    assert set(payload) <= set(fields), (event_type, payload)
    required = {name for name, field in fields.items() if field.required and not field.read_only}
    assert required <= set(payload), (event_type, payload)
    writable = {name: value for name, value in payload.items() if not fields[name].read_only}
    checked = type(declared)(data=writable)
    assert checked.is_valid(), (event_type, checked.errors)
    if all(field.read_only for field in fields.values()):
        # An output shape (the API's own serializer): the event carries all of it.
        assert set(payload) == set(fields), (event_type, payload)
    assert isinstance(declared, serializers.Serializer)


class Listener:
    """A channel in a user's group on the real channel layer: the events pushed to that user."""

    def __init__(self, user_id: str):
        self.layer = get_channel_layer()
        self.group = user_group(user_id)
        self.channel = async_to_sync(self.layer.new_channel)()
        async_to_sync(self.layer.group_add)(self.group, self.channel)

    def events(self) -> list[tuple[str, dict]]:
        async def receive_all():
            out = []
            while True:
                try:
                    out.append(await asyncio.wait_for(self.layer.receive(self.channel), timeout=0.5))
                except TimeoutError:
                    return out

        received = async_to_sync(receive_all)()
        async_to_sync(self.layer.group_discard)(self.group, self.channel)
        return [(e["event"], e["payload"]) for e in received]


@pytest.mark.django_db
def test_booking_updated_has_its_declared_shape_when_accepted_and_visited(
    client, verified_provider, django_capture_on_commit_callbacks
):
    service_request = ServiceRequestFactory(
        preferred_date=timezone.localdate() + dt.timedelta(days=3), preferred_time=TimeWindow.AFTERNOON
    )
    listener = Listener(service_request.client_id)
    client.force_login(verified_provider.user)
    with django_capture_on_commit_callbacks(execute=True):
        accepted = call(client, "POST", f"/api/service-requests/{service_request.pk}/accept")
    assert accepted.status_code == 201
    booking_id = accepted.json()["id"]
    booking = Booking.objects.get(pk=booking_id)
    booking.status, booking.payment_status = BookingStatus.CONFIRMED, PaymentStatus.PAID
    booking.save(update_fields=["status", "payment_status"])
    start = dt.datetime.combine(booking.scheduled_date, dt.time(13), tzinfo=booking.time_zone)
    with django_capture_on_commit_callbacks(execute=True):
        booking_services.booking_check_in(booking_id=booking_id, actor=verified_provider.user, now=start)

    pushed = [payload for kind, payload in listener.events() if kind == realtime.BOOKING_UPDATED]
    assert [p["status"] for p in pushed] == ["scheduled", "confirmed"]
    assert "checkedInAt" not in pushed[0] and pushed[1]["checkedInAt"] is not None
    for payload in pushed:
        assert_declared(realtime.BOOKING_UPDATED, payload)


@pytest.mark.django_db
def test_a_message_and_the_unread_count_have_their_declared_shapes(
    client, client_user, verified_provider, django_capture_on_commit_callbacks
):
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)
    listener = Listener(client_user.pk)
    client.force_login(verified_provider.user)
    with django_capture_on_commit_callbacks(execute=True):
        sent = call(
            client, "POST", "/api/messages", {"receiverId": client_user.pk, "content": "Hello", "bookingId": booking.pk}
        )
    assert sent.status_code == 201

    pushed = listener.events()
    kinds = [kind for kind, _ in pushed]
    assert realtime.MESSAGE_CREATED in kinds and realtime.UNREAD_COUNT in kinds
    for kind, payload in pushed:
        assert_declared(kind, payload)


@pytest.mark.django_db
def test_provider_updated_has_its_declared_shape(client, admin_user, django_capture_on_commit_callbacks):
    provider = with_evidence(ProviderFactory(verification_status="pending"))
    listener = Listener(provider.user_id)
    client.force_login(admin_user)
    with django_capture_on_commit_callbacks(execute=True):
        decided = call(client, "PUT", f"/api/admin/providers/{provider.pk}/status", {"status": "verified"})
    assert decided.status_code == 200

    pushed = [payload for kind, payload in listener.events() if kind == realtime.PROVIDER_UPDATED]
    assert pushed == [{"id": provider.pk, "verificationStatus": "verified"}]
    assert_declared(realtime.PROVIDER_UPDATED, pushed[0])


def _socket(user) -> WebsocketCommunicator:
    browser = Client()
    browser.force_login(user)
    cookie = browser.cookies[settings.SESSION_COOKIE_NAME].value
    headers = [(b"origin", b"http://127.0.0.1"), (b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode())]
    return WebsocketCommunicator(application, "/ws/events/", headers=headers)


async def _typing_received(comm: WebsocketCommunicator) -> dict:
    while True:
        data = await comm.receive_json_from(timeout=5)
        if data["type"] == realtime.TYPING:
            return data["payload"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("fresh_channel_layer")
def test_typing_has_its_declared_shape_to_a_person_and_in_a_thread(client_user, verified_provider):
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)
    sender, receiver = _socket(client_user), _socket(verified_provider.user)

    async def exchange() -> list[dict]:
        for comm in (sender, receiver):
            connected, _ = await comm.connect(timeout=5)
            assert connected
        await sender.send_json_to({"type": "typing", "to": verified_provider.user_id})
        to_person = await _typing_received(receiver)
        await sender.send_json_to({"type": "typing", "booking": booking.pk})
        in_thread = await _typing_received(receiver)
        for comm in (sender, receiver):
            await comm.disconnect()
        return [to_person, in_thread]

    to_person, in_thread = async_to_sync(exchange)()
    assert to_person == {"from": client_user.pk}
    assert in_thread == {"from": client_user.pk, "name": client_user.first_name, "bookingId": booking.pk}
    for payload in (to_person, in_thread):
        assert_declared(realtime.TYPING, payload)
