"""The calendar: the owner of a calendar feed's token, and the visits a user's calendar shows
(the page's month or week, the feed)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db.models import Max, OuterRef, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from bookings.models import Booking, CalendarFeed
from bookings.selectors.base import as_party
from bookings.selectors.lists import LISTED_FIELDS, with_parties
from core.errors import NotFound

if TYPE_CHECKING:
    from accounts.models import User


CALENDAR_HISTORY = dt.timedelta(days=90)  # past visits kept in a calendar feed


def calendar_feed_owner(*, token: str) -> User:
    """The user whose calendar feed this token opens; 404 for any other token or a closed account."""
    feed = (
        CalendarFeed.objects.select_related("user").filter(token=token, user__is_active=True).first() if token else None
    )
    if feed is None:
        raise NotFound(gettext("Calendar feed not found."))
    return feed.user


def calendar_visits(
    *,
    user: User,
    recipient_id: int | None = None,
    start: dt.datetime | None = None,
    end: dt.datetime | None = None,
) -> QuerySet[Booking]:
    """The visits a user makes or that are booked for the recipients in their circles (admins too:
    only their own), soonest first: those starting in [start, end) (the page's month or week), by
    default from 90 days ago on (the feed); only `recipient_id`'s when given (the caller checks the
    user is in that recipient's circle). Each visit of a series carries `series_total` (how many
    visits its request has in the series: "Visit 2 of 4"), one subquery in the same query."""
    qs = with_parties(as_party(user.pk), user.pk).filter(
        starts_at__gte=start if start is not None else timezone.now() - CALENDAR_HISTORY
    )
    if end is not None:
        qs = qs.filter(starts_at__lt=end)
    if recipient_id is not None:
        qs = qs.filter(recipient_id=recipient_id)
    series_total = (
        Booking.objects.filter(service_request_id=OuterRef("service_request_id"), series_index__isnull=False)
        .order_by()
        .values("service_request_id")
        .annotate(n=Max("series_index"))  # the last place: a series accepted without a date keeps its places
        .values("n")
    )
    return qs.annotate(series_total=Subquery(series_total)).only(*LISTED_FIELDS).order_by("starts_at", "id")
