from __future__ import annotations

from django.conf import settings
from django.db import models


class AuditAction(models.TextChoices):
    PROVIDER_VERIFIED = "provider.verified", "Provider approved"
    PROVIDER_REJECTED = "provider.rejected", "Provider rejected"
    BOOKING_REASSIGNED = "booking.reassigned", "Booking reassigned"
    BOOKING_CANCELLED = "booking.cancelled", "Booking cancelled"
    BOOKING_HELPER_REMOVED = "booking.helper_removed", "Helper removed from a booking (replacement sought)"
    SECOND_FACTOR_RESET = "staff.second_factor_reset", "Second step reset"
    IDENTITY_STARTED = "vetting.identity_started", "Identity check started"
    IDENTITY_RESULT = "vetting.identity_result", "Identity check result received"
    CHECK_STARTED = "vetting.check_started", "Background check started"
    CHECK_RESULT = "vetting.check_result", "Background check result received"
    CHECK_ADJUDICATED = "vetting.adjudicated", "Background check adjudicated"
    ADVERSE_STEP = "vetting.adverse_step", "Adverse-action step recorded"
    PROVIDER_SUSPENDED = "provider.suspended", "Provider suspended by a check"
    LATE_FEE_DECIDED = "booking.late_fee_decided", "Disputed late fee decided"


class AuditLog(models.Model):
    """One admin action: who did what to which object, when and why. Written by the admin services."""

    # Empty when an outside service said it (a vetting webhook) or a beat job did it.
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="audit_logs", null=True, blank=True
    )
    action = models.CharField(max_length=64, choices=AuditAction.choices)
    target_type = models.CharField(max_length=64)
    target_id = models.CharField(max_length=128)
    reason = models.TextField(blank=True)
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["target_type", "target_id"], name="auditlog_target_idx")]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.actor_id} {self.action} {self.target_type}#{self.target_id}"
