"""Replacements (a helper who left a visit): who is offered it, the open searches and those due,
the offers a helper sees, staff's numbers, and what the booking's circle reads of it."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from bookings.models import (
    REPLACEMENT_OPEN,
    Booking,
    BookingStatus,
    Replacement,
    ReplacementOffer,
    ReplacementOfferAnswer,
    ReplacementState,
)
from bookings.selectors.base import ACTIVE_STATUSES
from providers.models import Provider
from requests_app.models import WINDOW_START, TimeWindow, clock_words
from requests_app.selectors import helpers_for_visits

if TYPE_CHECKING:
    from accounts.models import User


def replacement_candidates(booking: Booking, *, count: int, excluded: Iterable[int]) -> list[tuple[Provider, float]]:
    """The best `count` helpers to offer a booking whose helper left, with their distance in miles:
    the request's offers rule for one visit (requests_app.selectors.helpers_for_visits: verified and
    active with checks current, the service, her travel distance covering the person cared for, free
    then under her hours and time off and visits; not the client nor the circle; her language
    first, then offer_score), without the helpers `excluded` (the one who left, those offered it
    already). The same two queries whatever the helpers near. A recipient not placed yet has nobody
    near: []."""
    recipient = booking.recipient
    if recipient.latitude is None or recipient.longitude is None:
        return []
    start = booking.visit_start
    return helpers_for_visits(
        recipient=recipient,
        specialty=booking.service_request.category.slug,
        client_id=booking.client_id,
        visits=[(start, start + dt.timedelta(minutes=booking.duration))],
        excluded=list(excluded),
        count=count,
    )


def replacement_open_of(booking_id: int) -> Replacement | None:
    """The search still running for the booking (seeking, or unfilled while the family waits)."""
    return Replacement.objects.filter(booking_id=booking_id, state__in=REPLACEMENT_OPEN).first()


def replacements_due(*, now: dt.datetime) -> list[int]:
    """The searches beat moves on (bookings.services.replacement_offers_send): a round run out, a
    deadline passed while seeking, or the visit's time come."""
    return list(
        Replacement.objects.filter(state__in=REPLACEMENT_OPEN)
        .filter(
            Q(answer_by__lte=now)
            | Q(answer_by__isnull=True)
            | Q(state=ReplacementState.SEEKING, deadline__lte=now)
            | Q(booking__starts_at__lte=now)
        )
        .order_by("id")
        .values_list("id", flat=True)
    )


def replacement_offers_for(*, user: User) -> QuerySet[ReplacementOffer]:
    """GET /api/replacement-offers: the visits offered to this helper that still need one (her
    offer unanswered, its search open, the visit ahead), soonest first."""
    return (
        ReplacementOffer.objects.filter(
            provider__user_id=user.pk,
            answer=ReplacementOfferAnswer.WAITING,
            replacement__state__in=REPLACEMENT_OPEN,
            replacement__booking__status=BookingStatus.REPLACING,
            replacement__booking__starts_at__gt=timezone.now(),
        )
        .select_related("replacement__booking__service_request__category", "replacement__booking__recipient")
        .order_by("replacement__booking__starts_at", "id")
    )


def replacement_state_of() -> Subquery:
    """The state of the booking's newest replacement (null: none), for annotate()."""
    newest = Replacement.objects.filter(booking_id=OuterRef("pk")).order_by("-started_at", "-id")
    return Subquery(newest.values("state")[:1])


def replacement_waits_of() -> Subquery:
    """Whether the family chose to keep waiting in the booking's newest replacement, for annotate()."""
    return Subquery(
        Replacement.objects.filter(booking_id=OuterRef("pk")).order_by("-started_at", "-id").values("family_waits")[:1]
    )


def replacement_counts(*, since: dt.datetime) -> dict[str, int]:
    """Staff's market numbers: replacements needed (searches started since `since`: a helper
    cancelled, was removed or suspended) and found (of those, the ones a new helper took)."""
    return Replacement.objects.filter(started_at__gte=since).aggregate(
        needed=Count("pk"), found=Count("pk", filter=Q(state=ReplacementState.FOUND))
    )


_UNSET = object()


def replacement_of(booking: Booking, *, organizes: bool) -> dict | None:
    """What a booking's circle reads of its replacement (BookingReplacementSerializer): while it is
    being replaced, "Finding a replacement" (and, past its deadline, the question for the
    organizers); once a new helper took the visit and it is still ahead, "Replacement confirmed:
    Ana will arrive at 2:00 PM"; null otherwise. Reads the list's annotations when there."""
    state = getattr(booking, "replacement_state", _UNSET)
    waits = getattr(booking, "replacement_waits", False)
    if state is _UNSET:
        newest = Replacement.objects.filter(booking_id=booking.pk).order_by("-started_at", "-id").first()
        state, waits = (newest.state, newest.family_waits) if newest else (None, False)
    if booking.status == BookingStatus.REPLACING and state in REPLACEMENT_OPEN:
        return {
            "state": state,
            "note": "Finding a replacement",
            "askFamily": organizes and state == ReplacementState.UNFILLED and not waits,
            "canRefund": organizes,
        }
    if state == ReplacementState.FOUND and booking.status in ACTIVE_STATUSES:
        name = booking.provider.user.first_name or "Your new helper"
        start = booking.arrival_time or WINDOW_START.get(booking.scheduled_time, WINDOW_START[TimeWindow.FLEXIBLE])
        return {
            "state": state,
            "note": f"Replacement confirmed: {name} will arrive at {clock_words(start)}",
            "askFamily": False,
            "canRefund": False,
        }
    return None
