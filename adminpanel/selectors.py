"""Reads of the admin panel (admins only; the views check the role).

The lists are searched, filtered and counted in the database: /admin asks for one page at a time.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Count, Q, QuerySet, Value
from django.db.models.functions import Concat

from adminpanel.models import AuditLog
from bookings.models import Booking, BookingStatus
from bookings.selectors import booking_list_admin as _bookings
from providers.models import Provider, VerificationStatus
from providers.selectors import provider_list_admin
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.selectors import service_request_list_admin as _service_requests

__all__ = [
    "admin_counts",
    "audit_log_list",
    "booking_list_admin",
    "provider_list_admin",
    "service_request_list_admin",
]


def audit_log_list() -> QuerySet[AuditLog]:
    return AuditLog.objects.select_related("actor").order_by("-created_at", "-id")


def _people_matching(search: str, **people: str) -> tuple[dict[str, Any], Q]:
    """Annotations and a filter: any of the named people (alias -> path of a user) has the text in
    their first name, last name, "First Last" or email, case-insensitively."""
    annotations: dict[str, Any] = {}
    match = Q()
    for alias, path in people.items():
        annotations[f"{alias}_full_name"] = Concat(f"{path}__first_name", Value(" "), f"{path}__last_name")
        match |= (
            Q(**{f"{path}__first_name__icontains": search})
            | Q(**{f"{path}__last_name__icontains": search})
            | Q(**{f"{alias}_full_name__icontains": search})
            | Q(**{f"{path}__email__icontains": search})
        )
    return annotations, match


def _id_matching(search: str) -> Q:
    """ "42" or "#42" finds record 42 (the tables show ids as #42)."""
    digits = search.removeprefix("#").strip()
    return Q(pk=int(digits)) if digits.isdigit() and len(digits) < 10 else Q(pk__in=[])


def booking_list_admin(*, search: str = "", status: str = "", date: dt.date | None = None) -> QuerySet[Booking]:
    """Every booking, newest first. search: the booking id, the client's or the provider's name or
    email, or the request's title; status: one booking status; date: the visit's date."""
    qs = _bookings()
    if status:
        qs = qs.filter(status=status)
    if date is not None:
        qs = qs.filter(scheduled_date=date)
    search = search.strip()
    if search:
        annotations, people = _people_matching(search, client="client", provider="provider__user")
        qs = qs.annotate(**annotations).filter(
            _id_matching(search) | people | Q(service_request__title__icontains=search)
        )
    return qs


def service_request_list_admin(*, search: str = "", status: str = "") -> QuerySet[ServiceRequest]:
    """Every service request, newest first. search: the request id, the client's name or email, the
    service's name, the title or the description; status: one request status."""
    qs = _service_requests()
    if status:
        qs = qs.filter(status=status)
    search = search.strip()
    if search:
        annotations, people = _people_matching(search, client="client")
        qs = qs.annotate(**annotations).filter(
            _id_matching(search)
            | people
            | Q(category__name__icontains=search)
            | Q(title__icontains=search)
            | Q(description__icontains=search)
        )
    return qs


def _counts(model: type, **statuses: str) -> dict[str, int]:
    """{"total": n, <name>: rows with that status, ...} in one query."""
    return model.objects.aggregate(
        total=Count("pk"), **{name: Count("pk", filter=Q(status=value)) for name, value in statuses.items()}
    )


def admin_counts() -> dict[str, dict[str, int]]:
    """The count cards of /admin, over every record (not the search): three queries."""
    providers = Provider.objects.aggregate(
        total=Count("pk"),
        **{
            str(value): Count("pk", filter=Q(verification_status=value))
            for value in (VerificationStatus.PENDING, VerificationStatus.VERIFIED, VerificationStatus.REJECTED)
        },
    )
    return {
        "providers": providers,
        "bookings": _counts(Booking, confirmed=BookingStatus.CONFIRMED, cancelled=BookingStatus.CANCELLED),
        "serviceRequests": _counts(ServiceRequest, open=RequestStatus.OPEN, completed=RequestStatus.COMPLETED),
    }
