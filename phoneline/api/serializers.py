"""The phone line shapes: a booking's line as one party sees it, and its records for staff."""

from __future__ import annotations

from rest_framework import serializers

from phoneline.models import PhoneContact


class PhoneLineSerializer(serializers.Serializer):
    """Whether "Call" and "Text" show on a booking (available), what to say, and the Kindly number
    to call or text once bound (null before; never anyone's own number)."""

    available = serializers.BooleanField(read_only=True)
    setUp = serializers.BooleanField(source="set_up", read_only=True, help_text="False: Twilio is not set up; hide it.")
    message = serializers.CharField(read_only=True)
    number = serializers.CharField(read_only=True, allow_null=True)
    reaches = serializers.CharField(read_only=True, help_text="The first name the line reaches.")
    endsAt = serializers.DateTimeField(source="ends_at", read_only=True, allow_null=True)


class PhoneRecordSerializer(serializers.ModelSerializer):
    """One call or text through a booking's line, for staff: when, which way, how long. No number,
    no words."""

    kind = serializers.CharField(read_only=True)
    direction = serializers.CharField(read_only=True)
    at = serializers.DateTimeField(read_only=True)
    seconds = serializers.IntegerField(read_only=True, allow_null=True)
    outcome = serializers.CharField(read_only=True)

    class Meta:
        model = PhoneContact
        fields = ["id", "kind", "direction", "at", "seconds", "outcome"]
        read_only_fields = fields
