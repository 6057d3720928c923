"""The /admin page: providers, bookings and service requests for admins (spec section 2)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from accounts.guards import admin_required_page
from adminpanel.api.serializers import AdminSummarySerializer
from adminpanel.selectors import admin_counts


@admin_required_page
def admin_dashboard(request: HttpRequest) -> HttpResponse:
    """Signed out -> /login; signed in but not an admin -> / with "Unauthorized" / "Admin access required".

    It is also the admin's landing ("/" sends admins here): ``today`` (the site's date) picks
    today's bookings for the summary at the top; ``counts`` fill the count cards at once."""
    props = {
        "admin": {"id": request.user.id, "firstName": request.user.first_name},
        "today": timezone.localdate().isoformat(),
        "counts": AdminSummarySerializer(admin_counts()).data,
    }
    return render(request, "pages/admin.html", {"props": props})
