"""DRF permission classes shared by every app's API."""

from __future__ import annotations

from rest_framework.permissions import BasePermission


class IsAdmin(BasePermission):
    """userType admin (staff) only."""

    message = "Admin access required"

    def has_permission(self, request, view) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user.is_admin)
