"""GET/PUT /api/notification-preferences: the shapes."""

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from core.api import PlainCharField, StrictSerializer
from notifications.kinds import Channel, Frequency, Kind


class KindChoiceSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Kind.choices)
    label = serializers.CharField()
    email = serializers.BooleanField()
    sms = serializers.BooleanField()


class NotificationSettingsSerializer(serializers.Serializer):
    """A person's choices: per kind and channel, where texts go, how often new requests are told."""

    kinds = KindChoiceSerializer(many=True)
    smsAvailable = serializers.BooleanField(source="sms_available")
    phone = serializers.CharField()
    phoneOptedOut = serializers.BooleanField(source="phone_opted_out")
    newRequests = serializers.ChoiceField(source="new_requests", choices=Frequency.choices, allow_null=True)


class PreferenceInputSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=Kind.choices)
    channel = serializers.ChoiceField(choices=Channel.choices)
    enabled = serializers.BooleanField()


class NotificationSettingsInputSerializer(StrictSerializer):
    """PUT: any of the three; what is left out stays as it is."""

    preferences = PreferenceInputSerializer(many=True, required=False)
    phone = PlainCharField(label=gettext_lazy("Mobile number"), required=False, allow_blank=True, max_length=32)
    newRequests = serializers.ChoiceField(choices=Frequency.choices, required=False)
