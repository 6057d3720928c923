"""Every event the server pushes to browsers over the websocket, and the shape of its payload.

A browser's socket (/ws/events/, messaging.consumers) receives {"type": <event>, "payload": {...}}
for the events core.realtime names. Each one is declared here once, as an OpenAPI webhook of the API
schema (SPECTACULAR_SETTINGS["WEBHOOKS"]): `make api-types` writes them into
frontend/lib/api-schema.ts (its `webhooks`), which types the pages' subscriptions
(frontend/lib/realtime.ts), and `make types-check` fails when the two differ.
marketplace/tests/test_realtime_events.py checks that what the services send has these shapes.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import OpenApiResponse, OpenApiWebhook, extend_schema
from rest_framework import serializers

from bookings.models import BookingStatus, PaymentStatus
from core.realtime import BOOKING_UPDATED, MESSAGE_CREATED, PROVIDER_UPDATED, TYPING, UNREAD_COUNT
from messaging.api.serializers import UnreadCountSerializer
from messaging.shapes import MessageSerializer
from providers.models import VerificationStatus


class BookingUpdatedEventSerializer(serializers.Serializer):
    """A booking changed (accepted, paid, cancelled, reassigned, visited): sent to every member of
    the recipient's care circle and to the provider (bookings.services)."""

    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=BookingStatus.choices)
    paymentStatus = serializers.ChoiceField(choices=PaymentStatus.choices)  # noqa: N815
    # The visit's progress, sent with a check-in, a check-out and a visit report.
    checkedInAt = serializers.DateTimeField(required=False, allow_null=True)  # noqa: N815
    checkedOutAt = serializers.DateTimeField(required=False, allow_null=True)  # noqa: N815
    hasReport = serializers.BooleanField(required=False)  # noqa: N815
    # Was the check-in at the home (null: could not be compared); tasks marked done at check-out.
    checkInVerified = serializers.BooleanField(required=False, allow_null=True)  # noqa: N815
    tasksDone = serializers.IntegerField(required=False, allow_null=True)  # noqa: N815


class TypingEventSerializer(serializers.Serializer):
    """Someone is typing: to this user (from), or in a booking's thread (with their first name and
    the booking), relayed by messaging.consumers."""

    name = serializers.CharField(required=False, help_text="Their first name (in a booking's thread).")
    bookingId = serializers.IntegerField(required=False, help_text="The thread's booking.")  # noqa: N815

    def get_fields(self) -> dict[str, serializers.Field]:
        # "from" is a Python keyword: the field is added by name.
        return {"from": serializers.CharField(help_text="The id of the person typing."), **super().get_fields()}


class ProviderUpdatedEventSerializer(serializers.Serializer):
    """The provider's application was decided (providers.services): sent to that provider."""

    id = serializers.IntegerField()
    verificationStatus = serializers.ChoiceField(choices=VerificationStatus.choices)  # noqa: N815


# A pushed event has no answer; OpenAPI asks for one, so it says so.
_NO_ANSWER = {200: OpenApiResponse(description="The browser does not answer.")}


def _event(name: str, payload: type[serializers.Serializer], description: str) -> OpenApiWebhook:
    return OpenApiWebhook(
        name=name,
        decorator=extend_schema(summary=name, description=description, request=payload, responses=_NO_ANSWER),
    )


# The payload's serializer of each event type.
PAYLOADS: dict[str, type[serializers.Serializer]] = {
    BOOKING_UPDATED: BookingUpdatedEventSerializer,
    MESSAGE_CREATED: MessageSerializer,
    UNREAD_COUNT: UnreadCountSerializer,
    TYPING: TypingEventSerializer,
    PROVIDER_UPDATED: ProviderUpdatedEventSerializer,
}

EVENTS: list[OpenApiWebhook] = [
    _event(
        BOOKING_UPDATED,
        BookingUpdatedEventSerializer,
        "A booking changed (accepted, paid, cancelled, reassigned, visited): to every member of the recipient's "
        "care circle and to the provider (bookings.services).",
    ),
    _event(
        MESSAGE_CREATED,
        MessageSerializer,
        "A message was written: to its receiver and its sender's other tabs, or to every participant of a "
        "booking's thread (messaging.events).",
    ),
    _event(
        UNREAD_COUNT,
        UnreadCountSerializer,
        "The user's unread messages changed: their new counts (messaging.events), also sent when a socket opens.",
    ),
    _event(
        TYPING,
        TypingEventSerializer,
        "Someone is typing: to this user, or in a booking's thread they take part in (messaging.consumers).",
    ),
    _event(
        PROVIDER_UPDATED,
        ProviderUpdatedEventSerializer,
        "The provider's application was decided: to that provider (providers.services).",
    ),
]


def with_event_components(result: dict, generator: Any, **kwargs: Any) -> dict:
    """drf-spectacular's postprocessing hook, before its enum hook: the schema's components taken again
    from the registry, now holding the events' payloads too (drf-spectacular adds the webhooks' after
    building the components), so their choices become the same named enums as the API's."""
    result["components"] = generator.registry.build(spectacular_settings.APPEND_COMPONENTS)
    return result
