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
    confirmedByPhone = serializers.BooleanField(
        source="confirmed_by_phone", read_only=True, help_text="The care recipient confirmed this visit by phone."
    )


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


class StaffPhoneRecordSerializer(PhoneRecordSerializer):
    """One call or text for /admin's Phone tab: a booking's record, and which booking."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    bookingTitle = serializers.CharField(source="booking.service_request.title", read_only=True)  # noqa: N815

    class Meta(PhoneRecordSerializer.Meta):
        fields = [*PhoneRecordSerializer.Meta.fields, "bookingId", "bookingTitle"]
        read_only_fields = fields


class PhonePinInputSerializer(serializers.Serializer):
    """PUT /api/care-recipients/{id}/phone-pin: the 4-digit PIN the care recipient says on the phone."""

    pin = serializers.CharField(max_length=4, min_length=4, trim_whitespace=False)


class PhonePinSerializer(serializers.Serializer):
    """Whether the recipient has a phone PIN, and whether wrong tries locked it (never the PIN)."""

    setUp = serializers.BooleanField(read_only=True, help_text="False: the phone menu is not set up; hide it.")
    set = serializers.BooleanField(read_only=True)
    locked = serializers.BooleanField(read_only=True)


class VoicemailSerializer(serializers.Serializer):
    """A message left for staff on the phone menu: who (a known caller's recipient), when, how long,
    the recording and its transcription."""

    id = serializers.IntegerField(read_only=True)
    recipientName = serializers.CharField(read_only=True, allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    seconds = serializers.IntegerField(read_only=True)
    recordingUrl = serializers.CharField(source="recording_url", read_only=True)
    transcription = serializers.CharField(read_only=True)


class PhoneReminderSerializer(serializers.Serializer):
    """How the care recipient hears of a visit the evening before: "call", "text" or "none"."""

    by = serializers.ChoiceField(choices=["call", "text", "none"])
