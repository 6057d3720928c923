"""Reads of categories and service requests, scoped to what the caller may see.

ARCHITECTURE.md: clients see their own requests; verified (and active) providers see open
requests of others; a provider sees the requests they are booked on; admins see all. An account
without a verified provider profile (none, switched to provider without applying, pending,
rejected) sees no open request of anyone else. Anything else is a 404.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery

from accounts.selectors import USER_SUMMARY_FIELDS
from marketplace.errors import NotFound
from providers.selectors import provider_vetted, user_acts_as_provider, user_is_vetted_provider
from requests_app.models import RequestStatus, ServiceCategory, ServiceRequest

if TYPE_CHECKING:
    from accounts.models import User


def category_list_active() -> QuerySet[ServiceCategory]:
    return ServiceCategory.objects.filter(is_active=True).order_by("id")


def category_get_active(*, category_id: int) -> ServiceCategory | None:
    return ServiceCategory.objects.filter(pk=category_id, is_active=True).first()


# What ServiceRequestSerializer reads of the joined client and category (the request's own columns
# all): the client's other columns (its datetimes above all) cost more to load than the rest of the
# row. A field the shape starts reading must be added here, or each row costs a query (adminpanel's
# query-count test fails).
_LISTED_FIELDS = (
    *(f.name for f in ServiceRequest._meta.concrete_fields),
    *(f"client__{f}" for f in USER_SUMMARY_FIELDS),
    *(f"category__{f}" for f in ("id", "slug", "name", "icon")),
)


def _with_people(qs: QuerySet[ServiceRequest]) -> QuerySet[ServiceRequest]:
    """Load what the serializer reads (client, category, the booked provider's user id) in one query.

    The request's bookings are read through the reverse relation the bookings app declares
    (ServiceRequest.bookings), so this app never imports the app above it.
    """
    latest_booking = ServiceRequest.objects.filter(pk=OuterRef("pk"), bookings__isnull=False).order_by("-bookings__id")
    return (
        qs.select_related("client", "category")
        .only(*_LISTED_FIELDS)
        .annotate(
            booked_provider_user_id=Subquery(latest_booking.values("bookings__provider__user_id")[:1]),
            booking_id=Subquery(latest_booking.values("bookings__id")[:1]),
        )
    )


def _booked_with(user: User):
    return Exists(ServiceRequest.objects.filter(pk=OuterRef("pk"), bookings__provider__user=user))


def service_request_visible(*, user: User) -> QuerySet[ServiceRequest]:
    """Every request the user may open (detail page)."""
    qs = ServiceRequest.objects.all()
    if user.is_admin:
        return _with_people(qs)
    visible = Q(client=user) | Q(booked_with=True)
    if user_is_vetted_provider(user=user):
        visible |= Q(status=RequestStatus.OPEN)
    return _with_people(qs.annotate(booked_with=_booked_with(user)).filter(visible))


def _open_of_others(user_id: str) -> QuerySet[ServiceRequest]:
    """Open requests of others, for a verified provider; none at all for anyone else (the check is
    part of the same query)."""
    return _with_people(
        ServiceRequest.objects.filter(status=RequestStatus.OPEN)
        .exclude(client_id=user_id)
        .filter(Exists(provider_vetted(user_id=user_id)))
    )


def _own(user_id: str) -> QuerySet[ServiceRequest]:
    return _with_people(ServiceRequest.objects.filter(client_id=user_id))


_NEWEST_FIRST = ("-created_at", "-id")


def service_request_list(*, user: User) -> QuerySet[ServiceRequest]:
    """GET /api/service-requests: admins all, provider accounts the open requests of others (none
    unless their profile is verified), everyone else their own. Newest first."""
    if user.is_admin:
        return _with_people(ServiceRequest.objects.all()).order_by(*_NEWEST_FIRST)
    return service_request_list_shown(user=user)


def service_request_list_shown(*, user: User) -> QuerySet[ServiceRequest]:
    """The dashboard's requests card: for a provider account the open requests of others (none
    unless their profile is verified), for everyone else (admins too) their own. Newest first."""
    if user.user_type == "provider":
        return _open_of_others(user.pk).order_by(*_NEWEST_FIRST)
    return _own(user.pk).order_by(*_NEWEST_FIRST)


def service_request_list_admin() -> QuerySet[ServiceRequest]:
    return _with_people(ServiceRequest.objects.all()).order_by(*_NEWEST_FIRST)


def service_request_get(*, user: User, pk: int) -> ServiceRequest:
    """One request the user may see; otherwise 404."""
    service_request = service_request_visible(user=user).filter(pk=pk).first()
    if service_request is None:
        raise NotFound("Service request not found.")
    return service_request


def service_request_get_for_accept(*, user: User, pk: int) -> ServiceRequest:
    """The target of an accept. A provider also "finds" a request another provider just took, so
    the loser of a race gets 409 (already accepted), not 404."""
    qs = ServiceRequest.objects.all() if user_acts_as_provider(user=user) else service_request_visible(user=user)
    service_request = qs.filter(pk=pk).exclude(status=RequestStatus.CANCELLED).first()
    if service_request is None:
        raise NotFound("Service request not found.")
    return service_request


def private_details_visible_to(service_request: ServiceRequest, user: User, *, vetted: Callable[[], bool]) -> bool:
    """Whether `user` may read the request's location and special requirements (ARCHITECTURE.md):
    its client, verified providers while it is open, the booked provider; nobody else (admins
    neither).

    Expects the request from a selector here (booked_provider_user_id annotated); vetted answers
    providers.selectors.user_is_vetted_provider(user=user), and is asked only when the answer
    matters (never for the client's own requests).
    """
    if not user.is_authenticated:
        return False
    if service_request.client_id == user.pk:
        return True
    booked = getattr(service_request, "booked_provider_user_id", None)
    if booked is not None:
        return booked == user.pk and service_request.status != RequestStatus.OPEN
    return service_request.status == RequestStatus.OPEN and vetted()


def client_fully_named_to(service_request: ServiceRequest, user: User) -> bool:
    """Whether `user` sees the client's full name and email: the client, the booked provider, an
    admin. A verified provider browsing open requests sees first name and last initial only."""
    return user.is_admin or user.pk in (
        service_request.client_id,
        getattr(service_request, "booked_provider_user_id", None),
    )


def service_requests_stale(*, today: dt.date) -> QuerySet[ServiceRequest]:
    """Open requests whose preferred date is before `today` (site time zone): expire_stale_requests."""
    return ServiceRequest.objects.filter(status=RequestStatus.OPEN, preferred_date__lt=today).order_by(
        "preferred_date", "pk"
    )
