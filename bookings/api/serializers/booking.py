"""A booking as its parties and staff read it (BookingSerializer: what each viewer may see of the
client, the recipient and her care details), and how long a serialized list of them stays true."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import cached_property

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import UserSummarySerializer
from bookings.api.serializers.parts import (
    BOOKING_CLIENT_SCHEMA,
    AutoChargeSerializer,
    BookingProviderSerializer,
    BookingReplacementSerializer,
    BookingRequestSerializer,
    BookingSeriesSerializer,
    ChargedLateFeeSerializer,
    VisitRecordSerializer,
    VisitStateField,
    series_of,
    visit_record_of,
)
from bookings.models import REPORT_EDIT_WINDOW, Booking, BookingStatus, PaymentStatus
from bookings.ports import auto_charges_of, late_fees_of
from bookings.selectors import replacement_of
from bookings.services import booking_can_client_cancel, cancel_refund_amount, late_fee_amount
from circles.models import CircleRole
from requests_app.api.serializers import (
    RecipientCareDetailsSerializer,
    RecipientSummarySerializer,
    care_details_for,
    without_circle_email,
)
from requests_app.models import TimeWindow, cancel_deadline, clock_words
from requests_app.selectors import (
    address_line_for,
    address_shown_to,
    care_details_shown_to,
    circle_role_of,
    viewer_organizes,
)


class BookingSerializer(serializers.ModelSerializer):
    serviceRequestId = serializers.IntegerField(source="service_request_id", read_only=True)
    providerId = serializers.IntegerField(source="provider_id", read_only=True)
    clientId = serializers.CharField(source="client_id", read_only=True)
    scheduledDate = serializers.DateField(source="scheduled_date", read_only=True)
    scheduledTime = serializers.ChoiceField(TimeWindow.choices, source="scheduled_time", read_only=True)
    totalAmount = serializers.DecimalField(
        source="total_amount", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True
    )
    paymentStatus = serializers.ChoiceField(PaymentStatus.choices, source="payment_status", read_only=True)
    cancelledAt = serializers.DateTimeField(source="cancelled_at", read_only=True, allow_null=True)
    cancellationReason = serializers.CharField(source="cancellation_reason", read_only=True)
    cancelledBy = serializers.CharField(source="cancelled_by_id", read_only=True, allow_null=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    visitStart = serializers.DateTimeField(source="starts_at", read_only=True)
    checkInBy = serializers.DateTimeField(
        source="check_in_by", read_only=True, help_text="The latest start that fits the window: late after it."
    )
    windowEnd = serializers.DateTimeField(
        source="window_ends_at", read_only=True, help_text="The end of the window the family was told: missed after it."
    )
    checkedInAt = serializers.DateTimeField(source="checked_in_at", read_only=True, allow_null=True)
    checkedOutAt = serializers.DateTimeField(source="checked_out_at", read_only=True, allow_null=True)
    hasReport = serializers.BooleanField(source="has_report", read_only=True, default=False)
    visitState = VisitStateField()
    canCancel = serializers.SerializerMethodField()
    cancelRefund = serializers.SerializerMethodField()
    lateFee = serializers.SerializerMethodField()
    lateCancelRefund = serializers.SerializerMethodField()
    provider = BookingProviderSerializer(read_only=True)
    client = serializers.SerializerMethodField()
    serviceRequest = serializers.SerializerMethodField()
    recipient = RecipientSummarySerializer(read_only=True)
    circleRole = serializers.SerializerMethodField()
    careDetails = serializers.SerializerMethodField()
    series = serializers.SerializerMethodField()
    visitRecord = serializers.SerializerMethodField()
    replacement = serializers.SerializerMethodField()
    autoCharge = serializers.SerializerMethodField()
    lateFeeCharged = serializers.SerializerMethodField()

    arrivalTime = serializers.TimeField(
        source="arrival_time",
        format="%H:%M",
        read_only=True,
        allow_null=True,
        help_text="The arrival time the helper confirmed, on the recipient's clock (null: the window's start).",
    )
    arrivalNote = serializers.SerializerMethodField()

    class Meta:
        model = Booking
        fields = [
            "id",
            "serviceRequestId",
            "providerId",
            "clientId",
            "scheduledDate",
            "scheduledTime",
            "arrivalTime",
            "arrivalNote",
            "duration",
            "totalAmount",
            "status",
            "paymentStatus",
            "notes",
            "cancelledAt",
            "cancellationReason",
            "cancelledBy",
            "createdAt",
            "updatedAt",
            "visitStart",
            "checkInBy",
            "windowEnd",
            "checkedInAt",
            "checkedOutAt",
            "hasReport",
            "visitState",
            "canCancel",
            "cancelRefund",
            "lateFee",
            "lateCancelRefund",
            "provider",
            "client",
            "serviceRequest",
            "recipient",
            "circleRole",
            "careDetails",
            "series",
            "visitRecord",
            "replacement",
            "autoCharge",
            "lateFeeCharged",
        ]
        read_only_fields = fields

    @extend_schema_field(BookingReplacementSerializer(allow_null=True))
    def get_replacement(self, obj: Booking) -> dict | None:
        """While its helper is being replaced, and once a new one took it and the visit is ahead
        (never to the new helper herself: it is simply her visit); null otherwise."""
        viewer = self._viewer()
        if (
            viewer is not None
            and viewer.is_authenticated
            and obj.provider.user_id == viewer.pk
            and (obj.status != BookingStatus.REPLACING)
        ):
            return None
        return replacement_of(obj, organizes=self._organizes(obj))

    @extend_schema_field(VisitRecordSerializer)
    def get_visitRecord(self, obj: Booking) -> dict:
        return visit_record_of(obj, detail=bool(self.context.get("care_details")))

    @extend_schema_field(AutoChargeSerializer(allow_null=True))
    def get_autoCharge(self, obj: Booking) -> dict | None:
        """The visit's automatic charge to a saved card (payments.cards), as the viewer may read it:
        the card to its owner, "her saved card" to the other organizers, null to anyone else. While
        it is pending the dashboard shows no "Pay now"."""
        known = self.context.setdefault("_auto_charges", {})
        if obj.pk not in known:
            # A list asks once for all its bookings (two queries), not once per booking.
            listed = self.parent.instance if isinstance(self.parent, serializers.ListSerializer) else None
            ids = [b.pk for b in listed] if listed is not None else [obj.pk]
            known.update(auto_charges_of(booking_ids=[*ids, obj.pk], viewer=self._viewer()))
        return known[obj.pk]

    @extend_schema_field(ChargedLateFeeSerializer(allow_null=True))
    def get_lateFeeCharged(self, obj: Booking) -> dict | None:
        """A cancelled visit's late fee (the cancellation policy), for the organizers of the
        recipient's circle only; null otherwise (payments.selectors.late_fees_of)."""
        if obj.status != BookingStatus.CANCELLED:
            return None
        known = self.context.setdefault("_late_fees", {})
        if obj.pk not in known:
            # A list asks once for all its cancelled bookings (two queries), not once per booking.
            listed = self.parent.instance if isinstance(self.parent, serializers.ListSerializer) else None
            ids = [b.pk for b in listed if b.status == BookingStatus.CANCELLED] if listed is not None else []
            known.update(late_fees_of(booking_ids=[*ids, obj.pk], viewer=self._viewer()))
        return known[obj.pk]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_arrivalNote(self, obj: Booking) -> str | None:
        """ "Vera will arrive at 2:00 PM" (to the helper herself: "You will arrive at 2:00 PM"), on
        the recipient's clock; null without a confirmed arrival time, and once she has checked in or
        the visit is over (the visit's timeline then says when she arrived)."""
        if obj.arrival_time is None or obj.checked_in_at is not None:
            return None
        if obj.status not in (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED):
            return None
        request = self.context.get("request")
        own = request is not None and obj.provider.user_id == request.user.pk
        who = "You" if own else (obj.provider.user.first_name or "Your helper")
        return f"{who} will arrive at {clock_words(obj.arrival_time)}"

    def _viewer(self):
        request = self.context.get("request")
        return request.user if request else None

    @extend_schema_field(BookingSeriesSerializer(allow_null=True))
    def get_series(self, obj: Booking) -> dict | None:
        return series_of(obj)

    def _organizes(self, obj: Booking) -> bool:
        viewer = self._viewer()
        return bool(viewer and viewer.is_authenticated and viewer_organizes(obj, viewer))

    @extend_schema_field(serializers.BooleanField())
    def get_canCancel(self, obj: Booking) -> bool:
        """Whether the viewer may cancel now: an organizer of the recipient's circle, 48-hour rule;
        false for anyone else (a plain member, the provider, an admin)."""
        return self._organizes(obj) and booking_can_client_cancel(obj)

    @extend_schema_field(serializers.DecimalField(max_digits=8, decimal_places=2, coerce_to_string=False))
    def get_cancelRefund(self, obj: Booking) -> Decimal:
        """What a cancel now returns to the card (bookings.services.cancel_refund_amount): the
        total when paid, 0 when nothing was charged. The cancel dialogs say it."""
        return cancel_refund_amount(obj)

    @extend_schema_field(serializers.DecimalField(max_digits=8, decimal_places=2, coerce_to_string=False))
    def get_lateFee(self, obj: Booking) -> Decimal:
        """The cancellation policy's late fee if staff cancelled now (bookings.services.late_fee_amount):
        paid to the helper and kept from cancelRefund; 0 at 48 hours or more ahead, or when unpaid.
        Staff's cancel dialog says it before they confirm."""
        return late_fee_amount(obj)

    @extend_schema_field(serializers.DecimalField(max_digits=8, decimal_places=2, coerce_to_string=False))
    def get_lateCancelRefund(self, obj: Booking) -> Decimal:
        """What staff cancelling now (the fee not waived) return to the card: cancelRefund less lateFee."""
        return cancel_refund_amount(obj) - late_fee_amount(obj)

    @extend_schema_field(serializers.ChoiceField(choices=CircleRole.choices, allow_null=True))
    def get_circleRole(self, obj: Booking) -> str | None:
        """The viewer's role in the recipient's care circle: "organizer" (may pay, cancel, review),
        "member" (sees the booking and its payment status only), null (the provider, an admin)."""
        viewer = self._viewer()
        return circle_role_of(obj, viewer) if viewer is not None and viewer.is_authenticated else None

    @extend_schema_field(RecipientCareDetailsSerializer(allow_null=True))
    def get_careDetails(self, obj: Booking) -> dict | None:
        """The recipient in full (address, phone, notes for helpers, whom to contact) for the provider
        booked now, while the booking is on (a dropped helper gets nothing: cancelled, reassigned
        away, completed beyond the visit report's window), in one booking's detail
        (context["care_details"]); null otherwise."""
        viewer = self._viewer()
        if not self.context.get("care_details") or viewer is None or not care_details_shown_to(obj, viewer):
            return None
        return care_details_for(obj.recipient_id)

    @extend_schema_field(BOOKING_CLIENT_SCHEMA)
    def get_client(self, obj: Booking) -> dict:
        """Who posted (an organizer of the circle); to the provider without the email
        (never the circle's emails; they reach the circle through the booking's messages)."""
        data = self._client_shape.to_representation(obj.client)
        viewer = self._viewer()
        return data if viewer is None else without_circle_email(data, obj, viewer)

    @cached_property
    def _client_shape(self) -> UserSummarySerializer:
        return UserSummarySerializer()

    @extend_schema_field(BookingRequestSerializer)
    def get_serviceRequest(self, obj: Booking) -> dict:
        data = self._request_shape.to_representation(obj.service_request)
        viewer = self._viewer()
        # How much of the address shows is address_shown_to's: in full for the circle and the
        # provider while the booking is on; the town and ZIP for staff and a dropped helper; after
        # a reassignment, nothing for the provider replaced.
        shown = address_shown_to(obj, viewer) if viewer is not None else None
        data["location"] = address_line_for(obj, shown)
        if shown is None:
            data["specialRequirements"] = None
        return data

    @cached_property
    def _request_shape(self) -> BookingRequestSerializer:
        """Built once per list (a list's rows share this serializer)."""
        return BookingRequestSerializer()


def can_cancel_max_age(bookings: list[dict]) -> float | None:
    """How long these serialized bookings stay true by the clock: the first "canCancel" that is
    true turns false 48 hours before its visit (None when none is true)."""
    now = timezone.now()
    closing = [
        cancel_deadline(dt.datetime.fromisoformat(booking["visitStart"]))
        for booking in bookings
        if booking["canCancel"]
    ]
    return (min(closing) - now).total_seconds() if closing else None


def report_window_max_age(bookings: list[dict]) -> float | None:
    """How long a helper's serialized visits stay true by the clock: the first finished visit whose
    report can still be corrected leaves her upcoming list when that window ends (None: none)."""
    now = timezone.now()
    closing = [
        dt.datetime.fromisoformat(booking["checkedOutAt"]) + REPORT_EDIT_WINDOW
        for booking in bookings
        if booking["status"] == "completed" and booking.get("checkedOutAt")
    ]
    closing = [end for end in closing if end > now]
    return (min(closing) - now).total_seconds() if closing else None
