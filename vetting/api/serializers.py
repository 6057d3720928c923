"""Shapes of /api/vetting/* and /api/admin/vetting/*."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import StrictSerializer
from core.fields import StrictCharField
from vetting.models import AdjudicationOutcome, AdverseStep
from vetting.services import OUTAGE_MESSAGE


class IdentityStepSerializer(serializers.Serializer):
    status = serializers.CharField()
    url = serializers.CharField(allow_blank=True)
    message = serializers.SerializerMethodField()
    startedAt = serializers.DateTimeField(source="started_at")  # noqa: N815 - the API's camelCase
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)  # noqa: N815

    def get_message(self, check) -> str:
        """What she is told while the checking service cannot be reached (Celery tries again)."""
        return OUTAGE_MESSAGE if check.outage else ""


class BackgroundStepSerializer(serializers.Serializer):
    status = serializers.CharField()
    url = serializers.CharField(source="invitation_url", allow_blank=True)
    message = serializers.SerializerMethodField()
    startedAt = serializers.DateTimeField(source="started_at")  # noqa: N815
    completedAt = serializers.DateTimeField(source="completed_at", allow_null=True)  # noqa: N815

    def get_message(self, check) -> str:
        """What she is told while the checking service cannot be reached (Celery tries again)."""
        return OUTAGE_MESSAGE if check.outage else ""


class MyVettingSerializer(serializers.Serializer):
    """GET /api/vetting/me: her two steps (null until started)."""

    identity = IdentityStepSerializer(allow_null=True)
    backgroundCheck = BackgroundStepSerializer(source="background", allow_null=True)  # noqa: N815


class AdverseStepSerializer(serializers.Serializer):
    step = serializers.CharField()
    note = serializers.CharField(allow_blank=True)
    recordedAt = serializers.DateTimeField(source="recorded_at")  # noqa: N815


class AdjudicationSerializer(serializers.Serializer):
    outcome = serializers.CharField()
    reason = serializers.CharField()
    decidedAt = serializers.DateTimeField(source="decided_at")  # noqa: N815
    steps = AdverseStepSerializer(many=True, source="steps.all")


class AdminIdentitySerializer(IdentityStepSerializer):
    verifiedName = serializers.CharField(source="verified_name")  # noqa: N815
    dateOfBirth = serializers.DateField(source="date_of_birth", allow_null=True)  # noqa: N815
    failureReason = serializers.CharField(source="failure_reason")  # noqa: N815
    sessionId = serializers.CharField(source="session_id")  # noqa: N815


class AdminBackgroundSerializer(BackgroundStepSerializer):
    kind = serializers.CharField()
    package = serializers.CharField()
    reportId = serializers.CharField(source="report_id")  # noqa: N815
    adjudication = serializers.SerializerMethodField()

    @extend_schema_field(AdjudicationSerializer(allow_null=True))
    def get_adjudication(self, check) -> dict | None:
        adjudication = getattr(check, "adjudication", None)
        return AdjudicationSerializer(adjudication).data if adjudication else None


class VettingQueueItemSerializer(serializers.Serializer):
    """One applicant in the staff vetting queue."""

    providerId = serializers.IntegerField(source="provider.pk")  # noqa: N815
    name = serializers.SerializerMethodField()
    verificationStatus = serializers.CharField(source="provider.verification_status")  # noqa: N815
    isActive = serializers.BooleanField(source="provider.is_active")  # noqa: N815
    nameMismatch = serializers.BooleanField(source="name_mismatch")  # noqa: N815
    identity = AdminIdentitySerializer(allow_null=True)
    backgroundCheck = AdminBackgroundSerializer(source="background", allow_null=True)  # noqa: N815

    def get_name(self, item) -> str:
        return f"{item.provider.user.first_name} {item.provider.user.last_name}".strip()


class AdjudicateSerializer(StrictSerializer):
    outcome = serializers.ChoiceField(choices=AdjudicationOutcome.choices)
    reason = StrictCharField(label=gettext_lazy("Reason"), max_length=2000)


class AdverseStepInputSerializer(StrictSerializer):
    step = serializers.ChoiceField(choices=AdverseStep.choices)
    note = StrictCharField(label=gettext_lazy("Note"), required=False, allow_blank=True, max_length=2000)
