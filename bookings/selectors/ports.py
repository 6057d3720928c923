"""What the apps below ask of the bookings table (core.ports): whether a helper is busy, her
visits, a request's booking and who may see its address. providers and requests_app never read this
table themselves; marketplace/ports.py plugs these answers into the ports they declare."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable

from django.db.models import Case, Exists, F, IntegerField, OuterRef, Prefetch, Q, QuerySet, Subquery, When

from bookings.models import Booking, BookingStatus
from bookings.selectors.base import ACTIVE_STATUSES
from providers.models import Provider
from providers.selectors import visit_problems
from requests_app.models import ADDRESS_KEPT_AFTER_VISIT

# providers and requests_app never read this table themselves: they ask the ports they declare
# (providers/ports.py, requests_app/ports.py), and marketplace/ports.py plugs in these answers.
# A visit holds its helper's time while it is scheduled or confirmed (ACTIVE_STATUSES).


def _holding_time() -> QuerySet[Booking]:
    return Booking.objects.filter(status__in=ACTIVE_STATUSES)


def provider_busy_at(start: dt.datetime, end: dt.datetime) -> Exists:
    """providers.ports.busy_at: the outer provider has a visit holding her time over [start, end)."""
    return Exists(_holding_time().filter(provider=OuterRef("pk"), starts_at__lt=end, ends_at__gt=start))


def provider_busy_prefetch(start: dt.datetime, end: dt.datetime) -> Prefetch:
    """providers.ports.busy_prefetch: each provider's visits holding her time over [start, end), as
    provider.busy_visits (one query for the whole page)."""
    visits = (
        _holding_time()
        .filter(ends_at__gt=start, starts_at__lt=end)
        .only("id", "provider_id", "starts_at", "ends_at")
        .order_by()
    )
    return Prefetch("bookings", queryset=visits, to_attr="busy_visits")


def provider_busy_intervals(
    provider: Provider, *, start: dt.datetime, end: dt.datetime, exclude_booking_ids: Iterable[int] = ()
) -> list[tuple[dt.datetime, dt.datetime]]:
    """providers.ports.busy_intervals: (start, end) of the provider's visits holding her time that
    overlap [start, end), except those of `exclude_booking_ids`."""
    rows = (
        _holding_time()
        .filter(provider=provider, starts_at__lt=end, ends_at__gt=start)
        .exclude(pk__in=list(exclude_booking_ids))
        .order_by()
        .values_list("starts_at", "ends_at")
    )
    return list(rows)


def provider_visits_between(provider: Provider, *, start: dt.datetime, end: dt.datetime) -> list[Booking]:
    """providers.ports.visits_between: the provider's visits holding her time that overlap
    [start, end), soonest first, with their recipient and client."""
    return list(
        _holding_time()
        .filter(provider=provider, starts_at__lt=end, ends_at__gt=start)
        .select_related("recipient", "client")
        .order_by("starts_at", "id")
    )


def provider_visit_problems(
    provider: Provider, visits: list[tuple[dt.datetime, dt.datetime]], *, exclude_booking_ids: Iterable[int] = ()
) -> list[str]:
    """providers.selectors.visit_problems with her booked visits read here: the accept, an admin's
    reassignment and the Django admin's booking form (`exclude_booking_ids`: the visit being moved)."""
    if not visits:
        return []
    busy = provider_busy_intervals(
        provider,
        start=min(start for start, _ in visits),
        end=max(end for _, end in visits),
        exclude_booking_ids=exclude_booking_ids,
    )
    return visit_problems(provider, visits, busy=busy)


def request_shown_booking(field: str) -> Subquery:
    """requests_app.ports.shown_booking: one field of the booking the outer request shows, its next
    visit still ahead, else its last one (one-off requests have one booking)."""
    next_or_last = Case(
        When(active_rank=0, then=F("series_index")), default=-F("series_index"), output_field=IntegerField()
    )
    shown = Booking.objects.filter(service_request=OuterRef("pk")).order_by("active_rank", next_or_last, "-id")
    return Subquery(shown.values(field)[:1])


def request_booked_with(user_id: object) -> Exists:
    """requests_app.ports.booked_with: the outer request has a booking whose helper is this user."""
    return Exists(Booking.objects.filter(service_request=OuterRef("pk"), provider__user_id=user_id))


def request_address_held_by(user_id: object, now: dt.datetime) -> Exists:
    """requests_app.ports.address_held_by: requests_app.selectors.booking_holds_address as a query
    (the same rule, on the rows): a booking of the outer request whose helper is this user and that
    is scheduled or confirmed, or completed within ADDRESS_KEPT_AFTER_VISIT (after her check-out,
    or its planned end when she did not check out)."""
    recent = now - ADDRESS_KEPT_AFTER_VISIT
    done_recently = Q(status=BookingStatus.COMPLETED) & (
        Q(checked_out_at__gte=recent) | Q(checked_out_at__isnull=True, ends_at__gte=recent)
    )
    return Exists(
        Booking.objects.filter(service_request=OuterRef("pk"), provider__user_id=user_id).filter(
            Q(status__in=ACTIVE_STATUSES) | done_recently
        )
    )


def request_of_booking(booking_id: int) -> Subquery:
    """requests_app.ports.request_of_booking: the id of this booking's request."""
    return Subquery(Booking.objects.filter(pk=booking_id).values("service_request_id")[:1])
