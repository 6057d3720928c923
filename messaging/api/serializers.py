"""Message input and page shapes in the spec's camelCase (section 7: POST /api/messages).

A message itself is shaped once, in messaging.shapes (the API and the `message.created` event).
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from core.api import PlainCharField, PlainIntegerField, StrictSerializer
from messaging.selectors import Conversation
from messaging.services import CONTENT_TOO_LONG, NOT_A_SHARED_BOOKING, RECEIVER_NOT_FOUND


class MessageCreateSerializer(StrictSerializer):
    """POST /api/messages: receiverId, content, bookingId (optional). Content rules live in the service;
    the bounds here only stop oversized bodies, in the service's words."""

    receiverId = PlainCharField(
        label=gettext_lazy("Receiver"),
        max_length=128,
        trim_whitespace=True,
        error_messages={"max_length": RECEIVER_NOT_FOUND},
    )
    content = PlainCharField(
        label=gettext_lazy("Message"),
        allow_blank=True,
        trim_whitespace=False,
        max_length=20000,
        error_messages={"max_length": CONTENT_TOO_LONG},
    )
    bookingId = PlainIntegerField(
        label=gettext_lazy("Booking"),
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**63 - 1,
        error_messages={code: NOT_A_SHARED_BOOKING for code in ("min_value", "max_value", "max_string_length")},
    )


class UnreadCountSerializer(serializers.Serializer):
    """{count} of the spec, plus what the messages page needs for its list badges."""

    count = serializers.IntegerField()
    systemCount = serializers.IntegerField()
    bySender = serializers.DictField(child=serializers.IntegerField())
    byBooking = serializers.DictField(
        child=serializers.IntegerField(), help_text="Booking id -> unread messages in its thread."
    )


def person_payload(user) -> dict:
    """What the messages page shows of a person (no email)."""
    return {
        "id": user.pk,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "profileImageUrl": user.profile_image_url,
    }


def conversation_payload(conv: Conversation, *, me) -> dict:
    """One conversation of the messages page: the person, their role to `me`, the bookings.

    A recipient and provider pair (thread true) lists every visit of the pair in `bookings`
    (newest first; the page marks each inside the conversation) and sends new messages about
    `bookingId` (the next visit to come, else the newest); it also names its recipient: the page
    shows a provider the recipient's name and a member "For <recipient>".
    """
    latest = conv.thread or (conv.bookings[0] if conv.bookings else None)
    if conv.is_support:
        role = "support"
    elif conv.thread is not None:
        role = "client" if conv.as_provider else "provider"
    elif latest is not None and latest.client_id == me.pk:
        role = "provider"
    else:
        role = "client"
    recipient = conv.thread.recipient if conv.thread is not None else None
    return {
        "user": person_payload(conv.user),
        "role": role,
        "bookingId": latest.pk if latest else None,
        "thread": conv.thread is not None,
        # Her zone: every time of the conversation (its messages) is read on her clock.
        "recipient": (
            {"id": recipient.pk, "fullName": recipient.full_name, "timeZone": recipient.time_zone}
            if recipient is not None
            else None
        ),
        "bookings": [
            {
                "id": b.pk,
                "title": b.service_request.title or "Service Appointment",
                "scheduledDate": b.scheduled_date.isoformat(),
                "status": b.status,
            }
            for b in conv.bookings
        ],
    }
