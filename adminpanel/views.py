"""The /admin page: providers, bookings and service requests for admins (spec section 2)."""

from __future__ import annotations

import json

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from rest_framework.renderers import JSONRenderer

from accounts.guards import admin_required_page
from adminpanel.api.serializers import AdminSummarySerializer
from adminpanel.selectors import admin_counts, booking_list_admin
from bookings.api.serializers import BookingSerializer

# The summary's list of today's bookings: the first page the island asks for (DAY_PAGE there).
TODAY_PAGE = 200


@admin_required_page
def admin_dashboard(request: HttpRequest) -> HttpResponse:
    """Signed out -> /login; signed in but not an admin -> / with "Unauthorized" / "Admin access required".

    It is also the admin's landing ("/" sends admins here): ``today`` (the site's date) picks
    today's bookings for the summary at the top; ``counts`` fill the count cards at once, and
    ``todayBookings`` is the first page of GET /api/admin/bookings?date=<today> (the same
    serializer), so the summary paints with the page and does not move what is under it."""
    today = timezone.localdate()
    bookings = booking_list_admin(date=today)
    page = BookingSerializer(bookings[:TODAY_PAGE], many=True, context={"request": request}).data
    props = {
        "admin": {"id": request.user.id, "firstName": request.user.first_name},
        "today": today.isoformat(),
        "counts": AdminSummarySerializer(admin_counts()).data,
        # As the API sends it: money as numbers, dates as ISO text.
        "todayBookings": {"items": json.loads(JSONRenderer().render(page)), "total": bookings.count()},
    }
    return render(request, "pages/admin.html", {"props": props})
