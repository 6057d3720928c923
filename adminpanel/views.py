"""The /admin page: providers, bookings and service requests for admins (spec section 2)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.guards import admin_required_page


@admin_required_page
def admin_dashboard(request: HttpRequest) -> HttpResponse:
    """Signed out -> /login; signed in but not an admin -> / with "Unauthorized" / "Admin access required"."""
    props = {"admin": {"id": request.user.id, "firstName": request.user.first_name}}
    return render(request, "pages/admin.html", {"props": props})
