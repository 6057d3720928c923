"""The payment page: /checkout/{bookingId} (spec "Payment page")."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.guards import login_required_page
from bookings.models import Booking
from payments.api.serializers import MAX_ID
from payments.models import Gateway
from payments.selectors import booking_is_payable, checkout_booking
from requests_app.models import TimeWindow


def _booking_props(booking: Booking) -> dict:
    service_request = booking.service_request
    provider_user = booking.provider.user
    return {
        "id": booking.pk,
        "title": service_request.title or "Service Appointment",
        "providerName": provider_user.full_name or "Your provider",
        "scheduledDate": booking.scheduled_date.isoformat(),
        "scheduledTime": booking.scheduled_time,
        "scheduledTimeLabel": TimeWindow(booking.scheduled_time).label
        if booking.scheduled_time in TimeWindow.values
        else booking.scheduled_time,
        "duration": booking.duration,
        "totalAmount": f"{booking.total_amount:.2f}",
        "status": booking.status,
        "paymentStatus": booking.payment_status,
        "payable": booking_is_payable(booking),
    }


@login_required_page
def checkout(request: HttpRequest, booking_id: str) -> HttpResponse:
    """The booking's client pays here; anyone else (or a bad id) sees "Booking Not Found"."""
    booking = None
    if booking_id.isdigit() and 1 <= int(booking_id) <= MAX_ID:
        booking = checkout_booking(user=request.user, booking_id=int(booking_id))
    backend = settings.PAYMENTS_BACKEND
    props = {
        "bookingId": booking_id,
        "booking": _booking_props(booking) if booking else None,
        "backend": backend,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY if backend == Gateway.STRIPE else "",
    }
    return render(request, "pages/checkout.html", {"props": props}, status=200 if booking else 404)
