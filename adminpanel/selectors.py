"""Reads of the admin panel (admins only; the views check the role)."""

from __future__ import annotations

from django.db.models import QuerySet

from adminpanel.models import AuditLog
from bookings.selectors import booking_list_admin
from providers.selectors import provider_list_admin
from requests_app.selectors import service_request_list_admin

__all__ = ["audit_log_list", "booking_list_admin", "provider_list_admin", "service_request_list_admin"]


def audit_log_list() -> QuerySet[AuditLog]:
    return AuditLog.objects.select_related("actor").order_by("-created_at", "-id")
