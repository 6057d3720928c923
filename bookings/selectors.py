"""Reads of bookings, scoped: the two parties see their booking, admins see all; others get 404."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Case, IntegerField, Q, QuerySet, Subquery, Value, When

from bookings.models import Booking, BookingStatus
from marketplace.errors import NotFound
from providers.models import Provider

if TYPE_CHECKING:
    from accounts.models import User


# Active bookings (scheduled, confirmed) first, soonest first; then the finished ones.
_ACTIVE_FIRST = Case(
    When(status__in=[BookingStatus.SCHEDULED, BookingStatus.CONFIRMED], then=Value(0)),
    default=Value(1),
    output_field=IntegerField(),
)
_UPCOMING_ORDER = (_ACTIVE_FIRST, "scheduled_date", "id")


def _with_parties(qs: QuerySet[Booking]) -> QuerySet[Booking]:
    return qs.select_related("client", "provider__user", "service_request__category")


def booking_list_for(*, user: User) -> QuerySet[Booking]:
    """GET /api/bookings: the user's bookings as client or as provider (admins: all);
    active ones first, soonest first (the dashboard shows the first 3)."""
    qs = Booking.objects.all()
    if not user.is_admin:
        # provider_id = (their profile's id), not a join on provider.user: PostgreSQL then ORs two
        # index scans instead of hashing the whole bookings table (the list's COUNT and its page).
        own_profile = Subquery(Provider.objects.filter(user_id=user.pk).order_by().values("pk")[:1])
        qs = qs.filter(Q(client_id=user.pk) | Q(provider_id=own_profile))
    return _with_parties(qs).order_by(*_UPCOMING_ORDER)


def booking_list_as_client(*, user: User) -> QuerySet[Booking]:
    return _with_parties(Booking.objects.filter(client=user)).order_by(*_UPCOMING_ORDER)


def booking_list_as_provider(*, user: User) -> QuerySet[Booking]:
    return _with_parties(Booking.objects.filter(provider__user=user)).order_by(*_UPCOMING_ORDER)


def booking_list_admin() -> QuerySet[Booking]:
    return _with_parties(Booking.objects.all()).order_by("-created_at", "-id")


def booking_get(*, user: User, pk: int) -> Booking:
    """One booking the user may see; otherwise 404."""
    booking = booking_list_for(user=user).filter(pk=pk).first()
    if booking is None:
        raise NotFound("Booking not found.")
    return booking
