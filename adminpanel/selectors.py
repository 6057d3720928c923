"""Reads of the admin panel (admins only; the views check the role).

The lists are searched, filtered and counted in the database: /admin asks for one page at a time.
"""

from __future__ import annotations

import datetime as dt
import statistics
import zoneinfo
from collections import Counter
from typing import Any

from django.conf import settings
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Concat
from django.utils import timezone

from adminpanel.models import AuditLog
from bookings.models import Booking, BookingStatus
from bookings.selectors import booking_list_admin as _bookings
from bookings.selectors import replacement_counts
from providers.models import Provider, VerificationStatus
from providers.selectors import provider_list_admin
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.selectors import service_request_list_admin as _service_requests

__all__ = [
    "admin_counts",
    "audit_log_list",
    "booking_list_admin",
    "market_summary",
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


# ---------------------------------------------------------------- the market (/admin's Market tab)
# Do families find a helper? Over the requests posted in the last 7 and 30 days (a request deleted
# by its family left out; one it cancelled counted, as nobody came in time is one reason families
# cancel): the share booked within FILL_WITHIN of being posted (of those whose first FILL_WITHIN is
# over: a request posted an hour ago is not yet filled nor unfilled), the median time from posting
# to a helper's accept (the request's first booking), where the unfilled ones were (by the first
# three digits of the ZIP code, named by their most frequent town), and the replacements needed (a
# booked helper cancelled, was removed or suspended) and found (bookings.selectors.replacement_counts).
FILL_WITHIN = dt.timedelta(hours=24)
MARKET_PERIODS = (7, 30)
MARKET_AREAS = 8


def _first_booked_at() -> Subquery:
    """When a helper first accepted the request (its first booking's creation; a series' bookings
    are made together)."""
    return Subquery(
        Booking.objects.filter(service_request_id=OuterRef("pk")).order_by("created_at").values("created_at")[:1]
    )


def _area_label(places: Counter) -> str:
    town, state = places.most_common(1)[0][0]
    return ", ".join(part for part in (town, state) if part) or "Town not given"


def market_summary(*, now: dt.datetime | None = None) -> dict[str, Any]:
    """The Market tab: for each period of MARKET_PERIODS days, the requests posted, those judged
    (their first FILL_WITHIN over), filled within it, the fill rate (null: none judged), the median
    minutes to accept (null: none accepted) and the unfilled by area (most first, MARKET_AREAS at
    most), the replacements needed and found; and, day by day over the longest period (the site's
    dates), the requests posted and those filled within FILL_WITHIN, for the chart. A query for the
    requests of the longest period, and one per period for its replacements."""
    now = now or timezone.now()
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    longest = max(MARKET_PERIODS)
    rows = list(
        ServiceRequest.objects.filter(created_at__gt=now - dt.timedelta(days=longest), created_at__lte=now)
        .annotate(booked_at=_first_booked_at())
        .values_list("created_at", "booked_at", "town", "state", "zip_code")
    )
    periods = []
    for days in MARKET_PERIODS:
        since = now - dt.timedelta(days=days)
        posted = judged = filled = 0
        waits: list[float] = []
        unfilled: dict[str, Counter] = {}
        for created_at, booked_at, town, state, zip_code in rows:
            if created_at <= since:
                continue
            posted += 1
            if booked_at is not None:
                waits.append(max((booked_at - created_at).total_seconds(), 0) / 60)
            if created_at + FILL_WITHIN > now:
                continue  # its first day is not over: neither filled nor unfilled yet
            judged += 1
            if booked_at is not None and booked_at - created_at <= FILL_WITHIN:
                filled += 1
            else:
                unfilled.setdefault(zip_code.strip()[:3], Counter())[(town.strip(), state.strip())] += 1
        areas = sorted(unfilled.items(), key=lambda item: (-item[1].total(), item[0]))[:MARKET_AREAS]
        replacements = replacement_counts(since=since)
        periods.append(
            {
                "days": days,
                "posted": posted,
                "judged": judged,
                "filled": filled,
                "fill_rate": filled / judged if judged else None,
                "accepted": len(waits),
                "median_minutes_to_accept": statistics.median(waits) if waits else None,
                "replacements_needed": replacements["needed"],
                "replacements_found": replacements["found"],
                "unfilled_by_area": [
                    {"zip_prefix": prefix, "place": _area_label(places), "unfilled": places.total()}
                    for prefix, places in areas
                ],
            }
        )
    today = now.astimezone(zone).date()
    daily = {today - dt.timedelta(days=n): [0, 0] for n in range(longest - 1, -1, -1)}
    for created_at, booked_at, *_ in rows:
        counts = daily.get(created_at.astimezone(zone).date())
        if counts is None:
            continue
        counts[0] += 1
        if booked_at is not None and booked_at - created_at <= FILL_WITHIN:
            counts[1] += 1
    return {
        "fill_within_hours": int(FILL_WITHIN.total_seconds() // 3600),
        "periods": periods,
        "daily": [{"date": day, "posted": posted, "filled": filled} for day, (posted, filled) in daily.items()],
    }
