"""The JSON of one message (spec section 3: messages), as the API and the `message.created` event
carry it. Defined here, below messaging's services, so that the events they send use the same shape
as the API without the services reaching up into the API layer."""

from __future__ import annotations

from rest_framework import serializers

from accounts.api.serializers import PublicUserSerializer
from messaging.models import SYSTEM_SENDER_ID, Message


class MessageSerializer(serializers.ModelSerializer):
    """A message as its sender or receiver sees it. senderId is "system" for notifications.

    A thread message (thread true) is its sender's copy: receiverId is the sender, isRead true.
    """

    senderId = serializers.SerializerMethodField()
    receiverId = serializers.CharField(source="receiver_id", read_only=True)
    bookingId = serializers.IntegerField(source="booking_id", read_only=True, allow_null=True)
    messageType = serializers.CharField(source="message_type", read_only=True)
    isRead = serializers.BooleanField(source="is_read", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    sender = PublicUserSerializer(read_only=True, allow_null=True)
    thread = serializers.BooleanField(
        read_only=True, help_text="In the thread of bookingId (everyone in the circle and the provider see it)."
    )

    class Meta:
        model = Message
        fields = [
            "id",
            "senderId",
            "receiverId",
            "bookingId",
            "content",
            "messageType",
            "isRead",
            "createdAt",
            "updatedAt",
            "sender",
            "thread",
        ]
        read_only_fields = fields

    def get_senderId(self, obj: Message) -> str:  # noqa: N802 - the spec's field name
        return obj.sender_id or SYSTEM_SENDER_ID


def message_payload(message: Message) -> dict:
    """The JSON of one message, as the API and the `message.created` event carry it."""
    return dict(MessageSerializer(message).data)
