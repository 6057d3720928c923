"""Reads of bookings, scoped: the two parties see their booking, admins see all; others get 404."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet, Subquery

from accounts.selectors import USER_SUMMARY_FIELDS
from bookings.models import Booking
from marketplace.errors import NotFound
from marketplace.prepared import BoundList, PreparedList
from providers.models import Provider

if TYPE_CHECKING:
    from accounts.models import User


# Active bookings (scheduled, confirmed) first, soonest first; then the finished ones.
_UPCOMING_ORDER = ("active_rank", "scheduled_date", "id")


def _with_parties(qs: QuerySet[Booking]) -> QuerySet[Booking]:
    return qs.select_related("client", "provider__user", "service_request__category")


# What a listed booking's shape reads (BookingSerializer), and nothing else: six joined tables'
# every column made the dashboard's bookings call mostly SQL compiling. A field the shape starts
# reading must be added here, or each row costs a query (adminpanel's query-count test fails).
_LISTED_FIELDS = (
    *(f.name for f in Booking._meta.concrete_fields if not f.generated),
    *(f"client__{f}" for f in USER_SUMMARY_FIELDS),
    *(
        f"provider__{f}"
        for f in ("id", "user_id", "specialties", "hourly_rate", "verification_status", "rating", "total_reviews")
    ),
    *(f"provider__user__{f}" for f in USER_SUMMARY_FIELDS),
    *(
        f"service_request__{f}"
        for f in ("id", "title", "description", "category_id", "location", "special_requirements", "status")
    ),
    "service_request__category__id",
    "service_request__category__name",
)


def _as_party(user_id: str) -> QuerySet[Booking]:
    # provider_id = (their profile's id), not a join on provider.user: PostgreSQL then ORs two
    # index scans instead of hashing the whole bookings table (the list's COUNT and its page).
    own_profile = Subquery(Provider.objects.filter(user_id=user_id).order_by().values("pk")[:1])
    return Booking.objects.filter(Q(client_id=user_id) | Q(provider_id=own_profile))


def _visible_to(user: User) -> QuerySet[Booking]:
    return Booking.objects.all() if user.is_admin else _as_party(user.pk)


def _listed(qs: QuerySet[Booking]) -> QuerySet[Booking]:
    return _with_parties(qs).only(*_LISTED_FIELDS).order_by(*_UPCOMING_ORDER)


# The dashboard's most frequent list, its SQL compiled once per process (marketplace/prepared.py).
_PARTY_LIST = PreparedList(lambda user_id: _listed(_as_party(user_id)), "user_id")


def booking_list_for(*, user: User) -> QuerySet[Booking]:
    """GET /api/bookings: the user's bookings as client or as provider (admins: all);
    active ones first, soonest first (the dashboard shows the first 3)."""
    return _listed(_visible_to(user))


def booking_list_page_for(*, user: User) -> QuerySet[Booking] | BoundList:
    """booking_list_for for the list endpoint: the same rows, prepared for a party."""
    return booking_list_for(user=user) if user.is_admin else _PARTY_LIST.bind(user_id=user.pk)


def booking_list_admin() -> QuerySet[Booking]:
    return _with_parties(Booking.objects.all()).order_by("-created_at", "-id")


def booking_get(*, user: User, pk: int) -> Booking:
    """One booking the user may see; otherwise 404."""
    booking = _with_parties(_visible_to(user)).filter(pk=pk).first()
    if booking is None:
        raise NotFound("Booking not found.")
    return booking
