"""Booking and review shapes in the spec's camelCase, with the nested parties the pages read."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from functools import cached_property

from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import PublicUserSerializer, UserSummarySerializer
from bookings.models import (
    REPORT_EDIT_WINDOW,
    Booking,
    BookingStatus,
    PaymentStatus,
    ReplacementState,
    Review,
    VisitReport,
    VisitReportEdit,
    VisitTaskOutcome,
    Wellbeing,
)
from bookings.ports import auto_charges_of, late_fees_of
from bookings.selectors import VISIT_STATES, replacement_of, series_pay_note, task_outcomes_of, visit_state
from bookings.services import WELLBEING_RANGE, booking_can_client_cancel, cancel_refund_amount, late_fee_amount
from circles.models import CircleRole
from core.api import StrictSerializer
from core.fields import MoneyField, StrictCharField, StrictIntegerField
from core.languages import speaks_line
from providers.api.serializers import TrackRecordFields
from providers.models import Provider, VerificationStatus
from requests_app.api.serializers import (
    RecipientCareDetailsSerializer,
    RecipientSummarySerializer,
    care_details_for,
    last_initial,
    without_circle_email,
)
from requests_app.models import WINDOW_START, Repeat, ServiceRequest, TimeWindow, cancel_deadline, clock_words
from requests_app.selectors import (
    address_line_for,
    address_shown_to,
    care_details_shown_to,
    circle_role_of,
    viewer_organizes,
)
from requests_app.series import request_visit_dates


class BookingProviderSerializer(serializers.ModelSerializer):
    """booking.provider: who comes (the parties know each other's email)."""

    userId = serializers.CharField(source="user_id", read_only=True)
    hourlyRate = serializers.DecimalField(
        source="hourly_rate", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    verificationStatus = serializers.ChoiceField(
        VerificationStatus.choices, source="verification_status", read_only=True
    )
    # The dates of her evidence, shown on the booking card ("ID verified <month year>"); null: not yet.
    identityVerifiedAt = serializers.DateTimeField(source="identity_verified_at", read_only=True, allow_null=True)
    backgroundCheckedAt = serializers.DateTimeField(source="background_checked_at", read_only=True, allow_null=True)
    rating = serializers.DecimalField(max_digits=3, decimal_places=2, coerce_to_string=False, read_only=True)
    totalReviews = serializers.IntegerField(source="total_reviews", read_only=True)
    user = UserSummarySerializer(read_only=True)

    class Meta:
        model = Provider
        fields = [
            "id",
            "userId",
            "specialties",
            "hourlyRate",
            "verificationStatus",
            "identityVerifiedAt",
            "backgroundCheckedAt",
            "rating",
            "totalReviews",
            "user",
        ]
        read_only_fields = fields


class BookingRequestSerializer(serializers.ModelSerializer):
    """booking.serviceRequest: what the visit is for."""

    categoryId = serializers.IntegerField(source="category_id", read_only=True, allow_null=True)
    categoryName = serializers.CharField(source="category.name", read_only=True, allow_null=True, default=None)
    location = serializers.CharField(read_only=True, allow_null=True)
    specialRequirements = serializers.CharField(source="special_requirements", read_only=True, allow_null=True)
    tasks = serializers.ListField(
        child=serializers.CharField(), read_only=True, help_text="The family's task list for each visit, in order."
    )

    class Meta:
        model = ServiceRequest
        fields = [
            "id",
            "title",
            "description",
            "categoryId",
            "categoryName",
            "location",
            "specialRequirements",
            "tasks",
            "status",
        ]
        read_only_fields = fields


# booking.client: UserSummarySerializer's fields; "email" only for the recipient's circle and admins
# (a provider never sees the circle's emails).
BOOKING_CLIENT_SCHEMA = {
    "type": "object",
    "properties": {
        "id": {"type": "string", "readOnly": True},
        "firstName": {"type": "string", "readOnly": True},
        "lastName": {"type": "string", "readOnly": True},
        "profileImageUrl": {"type": "string", "readOnly": True},
        "email": {"type": "string", "format": "email", "readOnly": True},
    },
    "required": ["id", "firstName", "lastName", "profileImageUrl"],
}


@extend_schema_field(serializers.ChoiceField(choices=VISIT_STATES))
class VisitStateField(serializers.Field):
    """Where a visit stands now: upcoming, in_progress, late, missed, done or cancelled
    (bookings.selectors.visit_state); one clock reading per list."""

    def __init__(self, **kwargs):
        super().__init__(source="*", read_only=True, **kwargs)

    @cached_property
    def _now(self) -> dt.datetime:
        return timezone.now()

    def to_representation(self, value: Booking) -> str:
        return visit_state(value, now=self._now)


class BookingSeriesSerializer(serializers.Serializer):
    """booking.series: the visit's place in its request's series."""

    requestId = serializers.IntegerField(read_only=True)
    index = serializers.IntegerField(read_only=True)
    count = serializers.IntegerField(read_only=True)
    repeat = serializers.ChoiceField([c for c in Repeat.choices if c[0]], read_only=True)
    payNote = serializers.CharField(read_only=True, help_text="each visit of a series is paid separately")


def series_of(booking: Booking) -> dict | None:
    """BookingSeriesSerializer's data, or None for a one-off visit. The count is the series' length
    (its request can no longer change once booked), worked out from the request's fields."""
    if booking.series_index is None:
        return None
    service_request = booking.service_request
    count = len(request_visit_dates(service_request))
    return {
        "requestId": booking.service_request_id,
        "index": booking.series_index,
        "count": count,
        "repeat": service_request.repeat,
        "payNote": series_pay_note(index=booking.series_index, count=count, repeat=service_request.repeat),
    }


class TaskOutcomeSerializer(serializers.ModelSerializer):
    """One task of the family's list as the helper marked it at check-out."""

    class Meta:
        model = VisitTaskOutcome
        fields = ["task", "done", "reason"]
        read_only_fields = fields


class VisitRecordSerializer(serializers.Serializer):
    """booking.visitRecord: where the helper checked in and out (verified at the home: true; away
    or without a usable position: false, with her reason; null when the home could not be compared)
    and how the family's tasks went (tasksDone null until check-out; taskOutcomes in one booking's
    detail only); hasPhoto: the helper added a photo (bookings.visit_photo)."""

    checkInVerified = serializers.BooleanField(source="check_in_verified", read_only=True, allow_null=True)
    checkInReason = serializers.CharField(source="check_in_reason", read_only=True)
    checkOutVerified = serializers.BooleanField(source="check_out_verified", read_only=True, allow_null=True)
    checkOutReason = serializers.CharField(source="check_out_reason", read_only=True)
    tasksTotal = serializers.IntegerField(read_only=True)
    tasksDone = serializers.IntegerField(read_only=True, allow_null=True)
    taskOutcomes = TaskOutcomeSerializer(many=True, read_only=True)
    hasPhoto = serializers.BooleanField(read_only=True)


def visit_record_of(booking: Booking, *, detail: bool) -> dict:
    """VisitRecordSerializer's data."""
    outcomes = task_outcomes_of(booking) if detail and booking.checked_out_at else []
    total = len(booking.service_request.tasks or [])
    done = getattr(booking, "tasks_done_count", None)
    return {
        "checkInVerified": booking.check_in_verified,
        "checkInReason": booking.check_in_reason,
        "checkOutVerified": booking.check_out_verified,
        "checkOutReason": booking.check_out_reason,
        "tasksTotal": total,
        "tasksDone": (done or 0) if booking.checked_out_at and total else None,
        "taskOutcomes": TaskOutcomeSerializer(outcomes, many=True).data,
        # The photo itself comes by a signed link (GET /api/bookings/{id}/photo), never in a list.
        "hasPhoto": bool(getattr(booking, "has_photo", False)),
    }


class BookingReplacementSerializer(serializers.Serializer):
    """A booking whose helper left (bookings.services.replacement), as its circle and staff see it."""

    state = serializers.ChoiceField(ReplacementState.choices, read_only=True)
    note = serializers.CharField(
        read_only=True,
        help_text='"Finding a replacement", or "Replacement confirmed: Ana will arrive at 2:00 PM".',
    )
    askFamily = serializers.BooleanField(
        read_only=True,
        help_text="Nobody took it by its deadline: the organizers choose a full refund or keep waiting.",
    )
    canRefund = serializers.BooleanField(
        read_only=True, help_text="The viewer (an organizer) may cancel it now with a full refund."
    )


class AutoChargeSerializer(serializers.Serializer):
    state = serializers.ChoiceField(
        choices=["pending", "submitted", "succeeded", "failed", "action_needed"],
        help_text="pending/submitted: charged automatically, no Pay now; failed/action_needed: to be fixed",
    )
    note = serializers.CharField(help_text='"Will be charged to Visa •••• 4242 when confirmed"')


class ChargedLateFeeSerializer(serializers.Serializer):
    amount = serializers.DecimalField(max_digits=8, decimal_places=2, coerce_to_string=False)
    state = serializers.ChoiceField(choices=["held", "disputed", "pending", "on_its_way", "waived"])
    text = serializers.CharField(help_text='"Late cancellation fee: $30.00, paid to Vera."')
    disputeUrl = serializers.CharField(  # noqa: N815
        allow_null=True, help_text="The fee's page, to dispute it while it can be (null otherwise)."
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
    service = serializers.CharField(source="replacement.booking.service_request.category.name", read_only=True)
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


class ReviewCreateSerializer(StrictSerializer):
    """POST /api/bookings/{id}/review."""

    rating = StrictIntegerField(
        label=gettext_lazy("Rating"),
        min_value=1,
        max_value=5,
        error_messages={
            "min_value": gettext_lazy("Rating must be from 1 to 5."),
            "max_value": gettext_lazy("Rating must be from 1 to 5."),
            "required": gettext_lazy("Please choose a rating from 1 to 5."),
            "null": gettext_lazy("Please choose a rating from 1 to 5."),
        },
    )
    comment = StrictCharField(label=gettext_lazy("Comment"), required=False, allow_blank=True, max_length=2000)


class ReviewSerializer(serializers.ModelSerializer):
    """A review as the provider's profile and its writer see it."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)
    reviewerId = serializers.CharField(source="reviewer_id", read_only=True)
    reviewedId = serializers.CharField(source="reviewed_id", read_only=True)
    isPublic = serializers.BooleanField(source="is_public", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    reviewer = PublicUserSerializer(read_only=True)

    class Meta:
        model = Review
        fields = [
            "id",
            "bookingId",
            "reviewerId",
            "reviewedId",
            "rating",
            "comment",
            "isPublic",
            "createdAt",
            "reviewer",
        ]
        read_only_fields = fields


class PublicReviewerSerializer(serializers.Serializer):
    """Who wrote a public review: first name and last initial ("Linda M."), never an id, email or
    photo: a public review must not lead anyone to the family."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.SerializerMethodField()

    def get_lastName(self, obj) -> str:
        return last_initial(obj.last_name)


class PublicReviewSerializer(serializers.ModelSerializer):
    """A review as anyone sees it (a provider's public reviews, the landing page): the rating, the
    words, when, the service and the reviewer as first name + last initial; no booking, reviewer or
    reviewed id."""

    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    serviceName = serializers.CharField(
        source="booking.service_request.category.name", read_only=True, allow_null=True, default=None
    )
    reviewer = PublicReviewerSerializer(read_only=True)

    class Meta:
        model = Review
        fields = ["id", "rating", "comment", "createdAt", "serviceName", "reviewer"]
        read_only_fields = fields


class ProviderProfileSerializer(TrackRecordFields, serializers.ModelSerializer):
    """GET /api/providers/{id}/profile and the /providers/{id} page: what a family sees of a helper.
    Her photo (or initial) and name, services, the area she names (never where she lives), rate,
    the dates of her identity and background checks (null: not checked yet), rating, her
    completed visits, how quickly she answers and how many of her last visits she completed (her
    card's words: TrackRecordFields), and newest public reviews."""

    specialties = serializers.ListField(child=serializers.CharField(), read_only=True)
    languages = serializers.ListField(child=serializers.CharField(), read_only=True)
    speaks = serializers.SerializerMethodField(help_text='"Speaks English, Spanish", in the reader\'s language.')
    hourlyRate = serializers.DecimalField(
        source="hourly_rate", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    serviceArea = serializers.CharField(source="service_area", read_only=True)
    verificationStatus = serializers.ChoiceField(
        VerificationStatus.choices, source="verification_status", read_only=True
    )
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    identityVerifiedAt = serializers.DateTimeField(source="identity_verified_at", read_only=True, allow_null=True)
    backgroundCheckedAt = serializers.DateTimeField(source="background_checked_at", read_only=True, allow_null=True)
    rating = serializers.DecimalField(max_digits=3, decimal_places=2, coerce_to_string=False, read_only=True)
    totalReviews = serializers.IntegerField(source="total_reviews", read_only=True)
    visitsCompleted = serializers.IntegerField(source="visits_completed", read_only=True)
    memberSince = serializers.DateTimeField(source="created_at", read_only=True)
    user = PublicUserSerializer(read_only=True)
    reviews = PublicReviewSerializer(source="profile_reviews", many=True, read_only=True)

    class Meta:
        model = Provider
        fields = [
            "id",
            "user",
            "specialties",
            "languages",
            "speaks",
            "hourlyRate",
            "serviceArea",
            "bio",
            "experience",
            "verificationStatus",
            "isActive",
            "identityVerifiedAt",
            "backgroundCheckedAt",
            "rating",
            "totalReviews",
            "visitsCompleted",
            "answerMinutes",
            "completion",
            "memberSince",
            "reviews",
        ]
        read_only_fields = fields

    def get_speaks(self, provider: Provider) -> str:
        return speaks_line(provider.languages or [])


class VisitProviderSerializer(serializers.ModelSerializer):
    user = PublicUserSerializer(read_only=True)

    class Meta:
        model = Provider
        fields = ["id", "user"]
        read_only_fields = fields


class VisitSerializer(serializers.ModelSerializer):
    """A visit of the day, as the provider's and the admins' "Today" list it: when, where
    it stands, who. Names only, never an email or an address (bookings.selectors._VISIT_FIELDS)."""

    serviceRequestId = serializers.IntegerField(source="service_request_id", read_only=True)
    title = serializers.CharField(source="service_request.title", read_only=True)
    scheduledDate = serializers.DateField(source="scheduled_date", read_only=True)
    scheduledTime = serializers.ChoiceField(TimeWindow.choices, source="scheduled_time", read_only=True)
    paymentStatus = serializers.ChoiceField(PaymentStatus.choices, source="payment_status", read_only=True)
    visitStart = serializers.DateTimeField(source="starts_at", read_only=True)
    visitEnd = serializers.DateTimeField(source="ends_at", read_only=True)
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
    client = PublicUserSerializer(read_only=True)
    provider = VisitProviderSerializer(read_only=True)
    recipient = RecipientSummarySerializer(read_only=True)

    class Meta:
        model = Booking
        fields = [
            "id",
            "serviceRequestId",
            "title",
            "scheduledDate",
            "scheduledTime",
            "duration",
            "status",
            "paymentStatus",
            "visitStart",
            "visitEnd",
            "checkInBy",
            "windowEnd",
            "checkedInAt",
            "checkedOutAt",
            "hasReport",
            "visitState",
            "client",
            "provider",
            "recipient",
        ]
        read_only_fields = fields


class VisitLocationSerializer(StrictSerializer):
    """A position the provider's browser gave, with their consent (rounded to about 100 m on save)."""

    # The ranges are checked by bookings.services.rounded_location, in plain words.
    latitude = serializers.FloatField(required=False, allow_null=True)
    longitude = serializers.FloatField(required=False, allow_null=True)
    # A negative accuracy is not a circle; bookings.services.visit_record treats it as no accuracy.
    accuracy = serializers.FloatField(
        required=False, allow_null=True, help_text="The position's accuracy circle, in metres."
    )
    # Away from the home, or without a usable position: why (bookings.services.visit_record).
    reason = StrictCharField(label=gettext_lazy("Why"), required=False, allow_blank=True, max_length=200)


class VisitReportInputSerializer(StrictSerializer):
    """The visit report the provider writes (at check-out, or later within 24 hours)."""

    # Each item must be one of the category's checklist (bookings.services.visit_report_problems).
    tasksDone = serializers.ListField(child=serializers.CharField(), source="tasks_done", required=False)
    notes = StrictCharField(label=gettext_lazy("What was done"), required=False, allow_blank=True, max_length=2000)
    wellbeing = StrictIntegerField(
        label=gettext_lazy("How they seemed"),
        min_value=1,
        max_value=5,
        error_messages={
            "required": gettext_lazy("Choose how they seemed."),
            "null": gettext_lazy("Choose how they seemed."),
            "min_value": WELLBEING_RANGE,
            "max_value": WELLBEING_RANGE,
            "max_string_length": WELLBEING_RANGE,
        },
    )
    forFamily = StrictCharField(
        label=gettext_lazy("For the family"), source="for_family", required=False, allow_blank=True, max_length=2000
    )
    followUpSuggested = serializers.BooleanField(source="follow_up_suggested", required=False)


class TaskOutcomeInputSerializer(StrictSerializer):
    """How one task went: done, or not done with a short reason."""

    done = serializers.BooleanField()
    reason = StrictCharField(label=gettext_lazy("Why not"), required=False, allow_blank=True, max_length=200)


class CheckOutSerializer(VisitLocationSerializer):
    """POST /api/bookings/{id}/check-out: the report (optional here; it can follow within 24 hours)."""

    report = VisitReportInputSerializer(required=False, allow_null=True)
    # One per task of the family's list, in its order (bookings.services.visit_record).
    tasks = TaskOutcomeInputSerializer(many=True, required=False)


class VisitReportEditSerializer(serializers.ModelSerializer):
    editedAt = serializers.DateTimeField(source="edited_at", read_only=True)
    before = serializers.JSONField(read_only=True)

    class Meta:
        model = VisitReportEdit
        fields = ["editedAt", "before"]
        read_only_fields = fields


class VisitReportSerializer(serializers.ModelSerializer):
    """A visit report as the circle, the provider and admins read it."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)
    tasksDone = serializers.ListField(child=serializers.CharField(), source="tasks_done", read_only=True)
    wellbeingLabel = serializers.SerializerMethodField()
    forFamily = serializers.CharField(source="for_family", read_only=True)
    followUpSuggested = serializers.BooleanField(source="follow_up_suggested", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    edits = VisitReportEditSerializer(many=True, read_only=True)
    # The family's own task list as the helper marked it at check-out (done, or not with her reason).
    familyTasks = serializers.SerializerMethodField()

    class Meta:
        model = VisitReport
        fields = [
            "bookingId",
            "familyTasks",
            "tasksDone",
            "notes",
            "wellbeing",
            "wellbeingLabel",
            "forFamily",
            "followUpSuggested",
            "createdAt",
            "updatedAt",
            "edits",
        ]
        read_only_fields = fields

    @extend_schema_field(TaskOutcomeSerializer(many=True))
    def get_familyTasks(self, obj: VisitReport) -> list[dict]:
        return TaskOutcomeSerializer(task_outcomes_of(obj.booking), many=True).data

    def get_wellbeingLabel(self, obj: VisitReport) -> str:
        return Wellbeing(obj.wellbeing).label


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


def visits_max_age(visits: list[dict]) -> float:
    """How long a serialized day of visits stays true by the clock: until the next visit without a
    check-in turns late (checkInBy) or missed (windowEnd), or the day ends."""
    now = timezone.now()
    local = timezone.localtime(now)
    moments = [dt.datetime.combine(local.date() + dt.timedelta(days=1), dt.time.min, tzinfo=local.tzinfo)]
    for visit in visits:  # the day's visits or the bookings
        if visit["checkedInAt"] is None and visit["visitState"] in ("upcoming", "late"):
            moments += [dt.datetime.fromisoformat(visit["checkInBy"]), dt.datetime.fromisoformat(visit["windowEnd"])]
    return max(0.0, min((m - now).total_seconds() for m in moments if m > now))
