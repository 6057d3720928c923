"""The bodies and answers of a booking's actions: accept, the client's cancel (one visit or the
rest of a series), a helper leaving and staff removing her, a replacement's offer, staff's cancel
and reassign."""

from __future__ import annotations

from decimal import Decimal

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import StrictSerializer
from core.fields import MoneyField, StrictCharField, StrictIntegerField
from requests_app.models import WINDOW_START, TimeWindow, clock_words


class AcceptSerializer(StrictSerializer):
    """POST /api/service-requests/{id}/accept: an empty body; skipUnavailable books a series
    without the dates the provider cannot make (the 409 lists them in errors.unavailableDates)."""

    skipUnavailable = serializers.BooleanField(required=False, default=False)
    # The time she will arrive ("14:00"), inside the family's window so the visit fits in it
    # (bookings.services.accept.arrival_time_problem: a 400 on arrivalTime otherwise). Left out:
    # the window's start.
    arrivalTime = serializers.TimeField(required=False, allow_null=True, default=None, format="%H:%M")


class BookingCancelSerializer(StrictSerializer):
    """POST /api/bookings/{id}/cancel: the reason is optional for the client."""

    reason = StrictCharField(label=gettext_lazy("Reason"), required=False, allow_blank=True, max_length=2000)


class SeriesCancelPreviewSerializer(serializers.Serializer):
    """GET /api/bookings/{id}/cancel-rest: what cancelling the rest would do now, for its dialog."""

    cancelled = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    kept = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    refund = serializers.DecimalField(
        max_digits=10, decimal_places=2, coerce_to_string=False, read_only=True, help_text="back to the card"
    )


class SeriesCancelResultSerializer(serializers.Serializer):
    """POST /api/bookings/{id}/cancel-rest: what was cancelled, and which visits stay (less than 48
    hours away), in `message`."""

    message = serializers.CharField(read_only=True)
    cancelled = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    kept = serializers.ListField(child=serializers.IntegerField(), read_only=True)


class ProviderCancelSerializer(StrictSerializer):
    """POST /api/bookings/{id}/provider-cancel: the helper says why she cannot make the visit."""

    reason = StrictCharField(
        label=gettext_lazy("Reason"),
        max_length=2000,
        error_messages={
            "required": gettext_lazy("Please say why you cannot make this visit."),
            "blank": gettext_lazy("Please say why you cannot make this visit."),
            "null": gettext_lazy("Please say why you cannot make this visit."),
        },
    )


class RemoveProviderSerializer(StrictSerializer):
    """PUT /api/admin/bookings/{id}/remove-helper: staff take the helper off; a reason is required."""

    reason = StrictCharField(
        label=gettext_lazy("Reason"),
        max_length=2000,
        error_messages={
            "required": gettext_lazy("A reason is required."),
            "blank": gettext_lazy("A reason is required."),
            "null": gettext_lazy("A reason is required."),
        },
    )


class ReplacementOfferSerializer(serializers.Serializer):
    """GET /api/replacement-offers: a visit whose helper left, offered to the viewer (a helper):
    what she needs to decide, never the street (the town and her distance)."""

    bookingId = serializers.IntegerField(source="replacement.booking_id", read_only=True)
    title = serializers.CharField(source="replacement.booking.service_request.title", read_only=True)
    service = serializers.CharField(source="replacement.booking.service_request.category.display_name", read_only=True)
    scheduledDate = serializers.DateField(source="replacement.booking.scheduled_date", read_only=True)
    scheduledTime = serializers.ChoiceField(
        TimeWindow.choices, source="replacement.booking.scheduled_time", read_only=True
    )
    arrival = serializers.SerializerMethodField()
    duration = serializers.IntegerField(source="replacement.booking.duration", read_only=True)
    town = serializers.CharField(source="replacement.booking.service_request.town", read_only=True)
    distanceMiles = serializers.FloatField(source="miles", read_only=True, allow_null=True)
    recipientTimeZone = serializers.CharField(source="replacement.booking.recipient.time_zone", read_only=True)

    @extend_schema_field(serializers.CharField())
    def get_arrival(self, obj) -> str:
        """ "2:00 PM": when the family expects the helper, on the recipient's clock."""
        booking = obj.replacement.booking
        start = booking.arrival_time or WINDOW_START.get(booking.scheduled_time, WINDOW_START[TimeWindow.FLEXIBLE])
        return clock_words(start)


class AdminBookingCancelSerializer(StrictSerializer):
    """PUT /api/admin/bookings/{id}/cancel: a reason is required. Inside 48 hours of a paid visit
    the policy's late fee goes to the helper unless waived with a reason; lateFee is the fee the
    dialog showed (a 409 when the server's differs now)."""

    reason = StrictCharField(
        label=gettext_lazy("Cancellation reason"),
        max_length=2000,
        error_messages={
            "required": gettext_lazy("A cancellation reason is required."),
            "blank": gettext_lazy("A cancellation reason is required."),
            "null": gettext_lazy("A cancellation reason is required."),
        },
    )
    waiveLateFee = serializers.BooleanField(required=False, default=False)
    waiveReason = StrictCharField(
        label=gettext_lazy("Why the late fee is waived"), max_length=2000, required=False, allow_blank=True
    )
    lateFee = MoneyField(
        label=gettext_lazy("Late fee"),
        required=False,
        allow_null=True,
        min_value=Decimal("0"),
        error_messages={"min_value": gettext_lazy("The late fee cannot be below $0.00.")},
    )


class BookingReassignSerializer(StrictSerializer):
    """PUT /api/admin/bookings/{id}/reassign: the provider id is sent as a number (spec section 5)."""

    newProviderId = StrictIntegerField(
        label=gettext_lazy("Provider"),
        min_value=1,
        max_value=2**63 - 1,
        error_messages={
            "required": gettext_lazy("Please choose a provider."),
            "null": gettext_lazy("Please choose a provider."),
            "min_value": gettext_lazy("Provider not found."),
            "max_value": gettext_lazy("Provider not found."),
        },
    )
    reason = StrictCharField(label=gettext_lazy("Reason"), required=False, allow_blank=True, max_length=2000)
