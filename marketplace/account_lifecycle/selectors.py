"""Reads of account export and closure (privacy policy "user rights"): they read every app, so
they sit on top of them all (ARCHITECTURE.md "Apps")."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from accounts.selectors import emergency_contact_list
from bookings.models import Booking, BookingStatus, Review
from messaging.models import Message
from notifications.selectors import notifications_export
from providers.models import Provider
from providers.selectors import provider_pk_of
from requests_app.models import CANCELLATION_WINDOW, ServiceRequest, still_cancellable

EXPORT_FORMAT_VERSION = 1
SYSTEM_NAME = "Kindly"


def _client_or_provider(user: User) -> Q:
    """Bookings the user posted as the client or makes as the provider (by their profile's pk:
    ORed with a join on provider.user, PostgreSQL reads every booking)."""
    return Q(client=user) | Q(provider_id=provider_pk_of(user_id=user.pk))


def bookings_active_of(*, user: User) -> QuerySet[Booking]:
    """Scheduled or confirmed bookings in which `user` is the client or the provider, and the
    client's visits waiting for a new helper (the helper who left one has no part in it)."""
    return (
        Booking.objects.filter(_client_or_provider(user))
        .filter(
            Q(status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED))
            | Q(status=BookingStatus.REPLACING, client=user)
        )
        .order_by("pk")
    )


def user_has_visit_too_close_to_cancel(*, user: User, now: dt.datetime | None = None) -> bool:
    """Whether an active booking of `user` starts from now on but is no longer cancellable (the
    48-hour rule, requests_app.models.still_cancellable): closing the account waits for it."""
    now = now or timezone.now()
    # Visit starts are computed in the site zone: narrow by date in SQL, decide in Python.
    nearby = bookings_active_of(user=user).filter(
        scheduled_date__gte=(now - dt.timedelta(days=1)).date(),
        scheduled_date__lte=(now + CANCELLATION_WINDOW + dt.timedelta(days=1)).date(),
    )
    return any(now < booking.visit_start and not still_cancellable(booking.visit_start, now) for booking in nearby)


# The data export (privacy policy "user rights") -------------------------------------------
# Built field by field rather than with the API serializers, so that what the file holds of
# other people is decided here and nowhere else: only their name, never their email or phone.


def _iso(value: dt.date | dt.datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _money(value: Decimal | None) -> str | None:
    return str(value) if value is not None else None


def _name(user: User | None) -> str:
    if user is None:
        return SYSTEM_NAME
    return user.full_name or "Kindly member"


def _request_data(request: ServiceRequest) -> dict[str, Any]:
    return {
        "id": request.pk,
        "category": request.category.name if request.category else None,
        "title": request.title,
        "description": request.description,
        "preferredDate": _iso(request.preferred_date),
        "preferredTime": request.preferred_time,
        "urgency": request.urgency,
        "location": request.location,
        "specialRequirements": request.special_requirements,
        "estimatedDuration": request.estimated_duration,
        "maxBudget": _money(request.max_budget),
        "status": request.status,
        "createdAt": _iso(request.created_at),
        "updatedAt": _iso(request.updated_at),
    }


def _booking_data(booking: Booking, *, as_client: bool) -> dict[str, Any]:
    data = {
        "id": booking.pk,
        "serviceRequestId": booking.service_request_id,
        "title": booking.service_request.title,
        "scheduledDate": _iso(booking.scheduled_date),
        "scheduledTime": booking.scheduled_time,
        "duration": booking.duration,
        "totalAmount": _money(booking.total_amount),
        "status": booking.status,
        "paymentStatus": booking.payment_status,
        "paymentIntentId": booking.payment_intent_id,
        "notes": booking.notes,
        "cancelledAt": _iso(booking.cancelled_at),
        "cancellationReason": booking.cancellation_reason,
        "createdAt": _iso(booking.created_at),
    }
    if as_client:
        data["provider"] = {"name": _name(booking.provider.user)}
    else:
        # The visit address is the client's; the provider's copy names the client only.
        data["client"] = {"name": _name(booking.client)}
        earning = getattr(booking, "earning", None)  # the provider's share (payments.Earning)
        data["earning"] = (
            {
                "gross": _money(earning.gross),
                "fee": _money(earning.fee),
                "net": _money(earning.net),
                "payout": earning.state,
            }
            if earning
            else None
        )
    return data


def _message_data(message: Message, *, user: User) -> dict[str, Any]:
    sent = message.sender_id == user.pk
    return {
        "id": message.pk,
        "direction": "sent" if sent else "received",
        "with": {"name": _name(message.receiver if sent else message.sender)},
        "type": message.message_type,
        "content": message.content,
        "bookingId": message.booking_id,
        "isRead": message.is_read,
        "createdAt": _iso(message.created_at),
    }


def _review_data(review: Review, *, given: bool) -> dict[str, Any]:
    data = {
        "id": review.pk,
        "bookingId": review.booking_id,
        "rating": review.rating,
        "comment": review.comment,
        "isPublic": review.is_public,
        "createdAt": _iso(review.created_at),
    }
    data["about" if given else "from"] = {"name": _name(review.reviewed if given else review.reviewer)}
    return data


def _provider_data(provider: Provider | None) -> dict[str, Any] | None:
    if provider is None:
        return None
    return {
        "id": provider.pk,
        "phone": provider.phone,
        "specialties": provider.specialties,
        "hourlyRate": _money(provider.hourly_rate),
        "availability": provider.availability,
        "serviceArea": provider.service_area,
        "homeZip": provider.home_zip,
        "travelMiles": provider.travel_miles,
        "bio": provider.bio,
        "experience": provider.experience,
        "verificationStatus": provider.verification_status,
        "isActive": provider.is_active,
        "rating": _money(provider.rating),
        "totalReviews": provider.total_reviews,
        "createdAt": _iso(provider.created_at),
        "payoutsAccount": (
            {"accountId": account.account_id, "status": account.setup.label}
            if (account := getattr(provider, "connected_account", None))
            else None
        ),
    }


def account_export(*, user: User) -> dict[str, Any]:
    """Everything Kindly holds about `user`, as one JSON-ready dict (GET /api/account/export).

    Other people appear by name only. A fixed number of queries whatever the row counts.
    """
    requests = ServiceRequest.objects.filter(client=user).select_related("category").order_by("created_at", "pk")
    bookings = (
        Booking.objects.filter(_client_or_provider(user))
        .select_related("service_request", "client", "provider__user", "earning")
        .order_by("scheduled_date", "pk")
    )
    messages = (
        Message.objects.filter(Q(sender=user) | Q(receiver=user))
        .select_related("sender", "receiver")
        .order_by("created_at", "pk")
    )
    reviews = (
        Review.objects.filter(Q(reviewer=user) | Q(reviewed=user))
        .select_related("reviewer", "reviewed")
        .order_by("created_at", "pk")
    )
    bookings = list(bookings)
    reviews = list(reviews)
    return {
        "formatVersion": EXPORT_FORMAT_VERSION,
        "exportedAt": _iso(timezone.now()),
        "profile": {
            "id": user.pk,
            "email": user.email,
            "firstName": user.first_name,
            "lastName": user.last_name,
            "profileImageUrl": user.profile_image_url,
            "userType": user.user_type,
            "stripeCustomerId": user.stripe_customer_id,
            "createdAt": _iso(user.created_at),
            "updatedAt": _iso(user.updated_at),
        },
        "emergencyContacts": [
            {
                "id": contact.pk,
                "name": contact.name,
                "relationship": contact.relationship,
                "phone": contact.phone,
                "email": contact.email,
                "isPrimary": contact.is_primary,
                "createdAt": _iso(contact.created_at),
            }
            for contact in emergency_contact_list(user=user)
        ],
        "providerProfile": _provider_data(
            Provider.objects.filter(user=user).select_related("connected_account").first()
        ),
        "serviceRequests": [_request_data(request) for request in requests],
        "bookings": {
            "asClient": [_booking_data(b, as_client=True) for b in bookings if b.client_id == user.pk],
            "asProvider": [_booking_data(b, as_client=False) for b in bookings if b.provider.user_id == user.pk],
        },
        "messages": [_message_data(message, user=user) for message in messages],
        "notifications": notifications_export(user=user),
        "reviews": {
            "given": [_review_data(r, given=True) for r in reviews if r.reviewer_id == user.pk],
            "received": [_review_data(r, given=False) for r in reviews if r.reviewed_id == user.pk],
        },
    }
