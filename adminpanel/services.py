"""Writes of the admin panel: the audit log. The admin state changes live in the owning apps' services
(providers.services.provider_set_status, bookings.services.booking_reassign / booking_cancel_by_admin),
which call audit_log_record inside their transaction."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import models

from adminpanel.models import AuditLog

if TYPE_CHECKING:
    from accounts.models import User


def audit_log_record(
    *, actor: User, action: str, target: models.Model, reason: str = "", details: dict[str, Any] | None = None
) -> AuditLog:
    """Record an admin action. Call inside the transaction of the change, so both commit or neither."""
    return AuditLog.objects.create(
        actor=actor,
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        reason=reason,
        details=details or {},
    )
