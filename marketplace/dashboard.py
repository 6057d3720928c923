"""The dashboard page ("/" signed in, and /dashboard): greeting, subtitle and the island's props."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.models import UserType
from bookings.models import Review
from providers.selectors import provider_standing

PROVIDER_SUBTITLE = "Manage your services and help seniors in your community"
CLIENT_SUBTITLE = "Your trusted home support dashboard"


def _reviewed_booking_ids(user) -> list[int]:
    """Bookings the user already reviewed: the dashboard hides their "Leave a Review" button."""
    return list(Review.objects.filter(reviewer=user).values_list("booking_id", flat=True))


def dashboard(request: HttpRequest) -> HttpResponse:
    """Caller guarantees a signed-in user (home() or login_required_page)."""
    user = request.user
    role = "provider" if user.user_type == UserType.PROVIDER else "client"
    standing = provider_standing(user=user)
    props = {
        "user": {"id": user.pk, "firstName": user.first_name, "userType": user.user_type},
        "role": role,
        "hasProviderProfile": standing != "none",
        # Only a verified provider is shown open requests; the others are told why (issue 12).
        "providerStatus": standing,
        "reviewedBookingIds": _reviewed_booking_ids(user) if role == "client" else [],
    }
    context = {
        "first_name": user.first_name.strip() or "there",  # a name of spaces is no name
        "subtitle": PROVIDER_SUBTITLE if role == "provider" else CLIENT_SUBTITLE,
        "props": props,
    }
    return render(request, "pages/dashboard.html", context)
