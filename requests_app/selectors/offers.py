"""Offers: who is offered a request (the helpers near the person cared for who can make the
visit, ranked by one score), how long a round waits for an answer, which requests are due a round;
and a helper's answer speed."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.conf import settings
from django.db.models import Case, F, Prefetch, Q, QuerySet, Value, When, Window
from django.db.models.functions import RowNumber
from django.utils import timezone

from circles.models import CareRecipient, CircleMember
from core.geo import Point
from providers import ports as provider_ports
from providers.models import Provider, TimeOff
from providers.selectors import free_for_visit, provider_list_public, speaks, visit_problems, with_languages_text
from requests_app.models import OFFER_ANSWER_TIME, Offer, OfferAnswer, OfferedTo, RequestStatus, ServiceRequest
from requests_app.selectors.lists import request_visit_intervals

# A round of offers reads the OFFER_POOL helpers nearest the person cared for among those whose own
# travel distance covers her (providers.selectors.within_reach: a box per band of travel distance
# on an index, so the rows read do not grow with the helpers farther out), ranks them by one score
# (below), among those who can make the visit (her service, her hours, not her time off, no other
# visit then: asked in the same query for one visit, free_for_visit).
OFFER_POOL = 60
# The score, in miles: her distance, plus this many miles per star of rating below 5, plus one mile
# per this many minutes of her median answer time (a helper with no answers yet counts as
# NEW_HELPER_ANSWER_MINUTES): a helper rated 4 stars one mile nearer than one rated 5 ties with her.
RATING_MILES = 1.0
ANSWER_MINUTES_PER_MILE = 30.0
NEW_HELPER_ANSWER_MINUTES = 30.0
# A helper's answer speed: the median over her last this many answered offers.
ANSWER_SPEED_OFFERS = 25


def answer_minutes_of(provider_ids: list[int]) -> dict[int, float]:
    """Each helper's median time to answer an offer (accepted or declined), in minutes, over her
    last ANSWER_SPEED_OFFERS answered offers; a helper with none is left out. One query."""
    if not provider_ids:
        return {}
    rows = (
        Offer.objects.filter(provider_id__in=provider_ids, answered_at__isnull=False)
        .exclude(answer=OfferAnswer.CLOSED)
        .annotate(nth=Window(RowNumber(), partition_by=[F("provider_id")], order_by=F("offered_at").desc()))
        .filter(nth__lte=ANSWER_SPEED_OFFERS)
        .values_list("provider_id", "offered_at", "answered_at")
    )
    waits: dict[int, list[float]] = {}
    for provider_id, offered_at, answered_at in rows:
        waits.setdefault(provider_id, []).append(max((answered_at - offered_at).total_seconds(), 0) / 60)
    return {pk: _median(values) for pk, values in waits.items()}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def offer_score(*, miles: float, rating: float, answer_minutes: float | None) -> float:
    """The rank of a helper for an offer (lower first): distance, rating and answer speed in miles."""
    minutes = NEW_HELPER_ANSWER_MINUTES if answer_minutes is None else answer_minutes
    return miles + RATING_MILES * (5 - rating) + minutes / ANSWER_MINUTES_PER_MILE


def offer_candidates(service_request: ServiceRequest, *, count: int) -> list[tuple[Provider, float]]:
    """The best `count` helpers to offer the request to next, each with her distance in miles:
    helpers_for_visits over its visits, without those offered it before. The recipient must be
    placed (its caller checks)."""
    visits = request_visit_intervals(service_request)
    if not visits or visits[0][0] <= timezone.now():
        return []  # no date yet, or its first visit has begun: nobody can take it (provider_can_take)
    return helpers_for_visits(
        recipient=service_request.recipient,
        specialty=service_request.category.slug,
        client_id=service_request.client_id,
        visits=visits,
        excluded=Offer.objects.filter(service_request_id=service_request.pk).values("provider_id"),
        count=count,
    )


def helpers_for_visits(
    *,
    recipient: CareRecipient,
    specialty: str,
    client_id: str,
    visits: list[tuple[dt.datetime, dt.datetime]],
    excluded: QuerySet | list[int],
    count: int,
) -> list[tuple[Provider, float]]:
    """The best `count` helpers who can make these visits (for a series, one of them at least), each
    with her distance in miles: verified and active with checks current, offering the service, her
    travel distance covering the person cared for (placed: the callers check), free then (her hours,
    her time off, her other visits), not `excluded`, not the client nor in the recipient's circle;
    those who speak the recipient's language (CareRecipient.language) first, each group ranked by
    offer_score. The offers of a request and a replacement's rounds both ask this.

    Two queries whatever the helpers near, and none more per helper: the pool (the OFFER_POOL
    nearest in reach, read by travel band on the index, within_reach, and for one visit only those
    free then: providers.selectors.free_for_visit's EXISTS subqueries), then the pool's answer
    speed. A series (several visits) reads the pool's hours, time off and booked visits in one
    prefetch each and keeps those who can make one of its visits (visit_problems)."""
    center = Point(recipient.latitude, recipient.longitude)
    circle = CircleMember.objects.filter(recipient_id=recipient.pk).values("user_id")
    # A helper who speaks her language comes before any who does not: an older woman at ease in
    # Spanish is best helped in Spanish, and the pool reads the nearest speakers first.
    language = recipient.language
    qs = (
        with_languages_text(provider_list_public(specialty=specialty, near=center, sort="distance"))
        .annotate(not_speaking=Case(When(speaks(language), then=Value(0)), default=Value(1)))
        .order_by("not_speaking", "distance_miles", "pk")
        .select_related(None)
        .only("id", "user_id", "specialties", "rating", "travel_miles", "languages")
        .exclude(user_id=client_id)
        .exclude(user_id__in=circle)
        .exclude(pk__in=excluded)
    )
    start, end = min(s for s, _ in visits), max(e for _, e in visits)
    if len(visits) == 1:
        pool = list(free_for_visit(qs, start=start, end=end)[:OFFER_POOL])
    else:
        zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
        first_day, last_day = start.astimezone(zone).date(), end.astimezone(zone).date()
        everyone = qs.prefetch_related(
            "weekly_hours",
            Prefetch(
                "time_off",
                queryset=TimeOff.objects.filter(last_day__gte=first_day, first_day__lte=last_day),
                to_attr="upcoming_time_off",
            ),
            provider_ports.busy_prefetch(start, end),
        )[:OFFER_POOL]
        pool = [
            p
            for p in everyone
            if "" in visit_problems(p, visits, busy=[(v.starts_at, v.ends_at) for v in p.busy_visits])
        ]
    speed = answer_minutes_of([p.pk for p in pool])
    pool.sort(
        key=lambda p: (
            language not in (p.languages or []),
            offer_score(miles=p.distance_miles, rating=float(p.rating), answer_minutes=speed.get(p.pk)),
            p.pk,
        )
    )
    return [(provider, provider.distance_miles) for provider in pool[:count]]


def offer_answer_time(service_request: ServiceRequest) -> dt.timedelta:
    """How long the helpers offered a request have to accept it before it widens (shorter when urgent)."""
    return OFFER_ANSWER_TIME.get(service_request.urgency, OFFER_ANSWER_TIME["normal"])


def requests_to_offer(*, now: dt.datetime, posted_before: dt.datetime) -> list[int]:
    """Open requests waiting for offers (beat's sweep): never offered and posted before
    `posted_before` (a lost task, a place that took long), or whose round ended unanswered."""
    return list(
        ServiceRequest.objects.filter(status=RequestStatus.OPEN, offered_to=OfferedTo.OFFERS)
        .filter(Q(offer_round=0, created_at__lte=posted_before) | Q(offers_answer_by__lte=now))
        .order_by("pk")
        .values_list("pk", flat=True)[:500]
    )
