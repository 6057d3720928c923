"""The day's visits (the "Today" list), the check-in and check-out bodies, the visit report as
written and as read, and how long a serialized day of visits stays true."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import PublicUserSerializer
from bookings.api.serializers.parts import TaskOutcomeSerializer, VisitStateField
from bookings.models import Booking, PaymentStatus, VisitReport, VisitReportEdit, Wellbeing
from bookings.selectors import task_outcomes_of
from bookings.services import WELLBEING_RANGE
from core.api import StrictSerializer
from core.fields import StrictCharField, StrictIntegerField
from providers.models import Provider
from requests_app.api.serializers import RecipientSummarySerializer
from requests_app.models import TimeWindow


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
