"""DRF permission classes shared by every app's API."""

from __future__ import annotations

from rest_framework.permissions import BasePermission

from accounts.second_factor import SECOND_FACTOR_REQUIRED, needs_second_factor

ADMIN_ACCESS_REQUIRED = "Admin access required"


class IsAdmin(BasePermission):
    """userType admin (staff) only, whose session passed the second step (accounts.second_factor)."""

    message = ADMIN_ACCESS_REQUIRED

    def has_permission(self, request, view) -> bool:
        user = request.user
        if not (user and user.is_authenticated and user.is_admin):
            return False
        if needs_second_factor(user):
            self.message = SECOND_FACTOR_REQUIRED
            return False
        return True
