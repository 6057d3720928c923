"""The parts of a booking's shape: who comes (booking.provider), what for (booking.serviceRequest),
the client's schema, where the visit stands (visitState, shared with the day's visits), its series,
its visit record, its replacement, its automatic charge and its late fee."""

from __future__ import annotations

import datetime as dt
from functools import cached_property

from django.utils import timezone
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import UserSummarySerializer
from bookings.models import Booking, ReplacementState, VisitTaskOutcome
from bookings.selectors import VISIT_STATES, series_pay_note, task_outcomes_of, visit_state
from providers.models import Provider, VerificationStatus
from requests_app.models import Repeat, ServiceRequest
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
    categoryName = serializers.CharField(source="category.display_name", read_only=True, allow_null=True, default=None)
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
