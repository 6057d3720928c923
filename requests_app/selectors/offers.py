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
# visit then: free_for_visit, asked of the nearest only, helpers_for_visits).
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

    Four queries whatever the helpers near, and none more per helper: the ranking (the helpers in
    reach, those who speak her language first, then nearest first: read by travel band on the
    index, within_reach, a dot product a row), who of its first OFFER_POOL_READ can make the visit
    (for one visit providers.selectors.free_for_visit's EXISTS subqueries, asked of those only, not
    of everyone in reach; a series reads their hours, time off and booked visits in one prefetch
    each and keeps those who can make one of its visits, visit_problems), the answer speed of the
    first OFFER_POOL of them who could be chosen (_best), and the rows of the `count` chosen. When
    more than OFFER_POOL_READ - OFFER_POOL of the nearest are busy, the next OFFER_POOL_READ are
    asked, and so on; when a slow answerer near leaves room, more answer speeds are read."""
    center = Point(recipient.latitude, recipient.longitude)
    circle = CircleMember.objects.filter(recipient_id=recipient.pk).values("user_id")
    # A helper who speaks her language comes before any who does not: an older woman at ease in
    # Spanish is best helped in Spanish, and the pool reads the nearest speakers first.
    ranking = (
        with_languages_text(provider_list_public(specialty=specialty, near=center, sort="distance"))
        .annotate(speaks_hers=Case(When(speaks(recipient.language), then=Value(1)), default=Value(0)))
        .order_by("-speaks_hers", "-closeness", "pk")
        .exclude(user_id=client_id)
        .exclude(user_id__in=circle)
        .exclude(pk__in=excluded)
        .values_list("pk", "distance_miles", "rating", "speaks_hers")
    )
    start, end = min(s for s, _ in visits), max(e for _, e in visits)
    if len(visits) == 1:
        pool = _free_in_order(ranking, free_for_visit(Provider.objects.order_by(), start=start, end=end))
    else:
        zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
        first_day, last_day = start.astimezone(zone).date(), end.astimezone(zone).date()
        nearest = list(ranking[:OFFER_POOL])
        schedules = Provider.objects.order_by().prefetch_related(
            "weekly_hours",
            Prefetch(
                "time_off",
                queryset=TimeOff.objects.filter(last_day__gte=first_day, first_day__lte=last_day),
                to_attr="upcoming_time_off",
            ),
            provider_ports.busy_prefetch(start, end),
        )
        can = {
            p.pk
            for p in schedules.filter(pk__in=[row[0] for row in nearest])
            if "" in visit_problems(p, visits, busy=[(v.starts_at, v.ends_at) for v in p.busy_visits])
        }
        pool = [row for row in nearest if row[0] in can]
    chosen = _best(pool, count)
    rows = Provider.objects.select_related("user").in_bulk([pk for pk, *_ in chosen])
    return [(rows[pk], miles) for pk, miles, *_ in chosen if pk in rows]


# How many helpers' answer speeds _best reads at a time (most rounds: once, of the pool's sixty).
SPEED_READ = 24


def _best(pool: list[tuple], count: int) -> list[tuple]:
    """The `count` best rows of the pool (pk, miles, rating, speaks her language: 1 or 0): those who
    speak her language first, then by offer_score, then by pk. A score is at least her distance and
    rating's miles (no answer is quicker than at once), so the answer speeds are read SPEED_READ
    helpers at a time, lowest such bound first, and no more once the `count` best read are better
    than the bound of everyone left: the same choice as reading all of them, in one query mostly."""

    def key(row: tuple, minutes: float | None) -> tuple:
        return (-row[3], offer_score(miles=row[1], rating=float(row[2]), answer_minutes=minutes), row[0])

    ordered = sorted(pool, key=lambda row: key(row, 0.0))
    known: list[tuple[tuple, tuple]] = []  # (her key, row), for those whose answer speed was read
    read = 0
    while read < len(ordered):
        if len(known) >= count and key(ordered[read], 0.0) > sorted(known)[count - 1][0]:
            break  # nobody left could be among the best
        batch = ordered[read : read + SPEED_READ]
        speed = answer_minutes_of([row[0] for row in batch])
        known += [(key(row, speed.get(row[0])), row) for row in batch]
        read += len(batch)
    return [row for _key, row in sorted(known)[:count]]


# How many of the ranking a round asks "free then?" at a time: most helpers near are free at any
# one time, so the first OFFER_POOL_READ nearly always hold the OFFER_POOL it needs.
OFFER_POOL_READ = 2 * OFFER_POOL


def _free_in_order(ranking: QuerySet, free: QuerySet[Provider]) -> list[tuple]:
    """The first OFFER_POOL rows of the ranking (pk first) who are in `free` (the helpers free for
    the visit), the ranking read OFFER_POOL_READ rows at a time."""
    pool: list[tuple] = []
    read = 0
    while len(pool) < OFFER_POOL:
        rows = list(ranking[read : read + OFFER_POOL_READ])
        if rows:
            can = set(free.filter(pk__in=[row[0] for row in rows]).values_list("pk", flat=True))
            pool += [row for row in rows if row[0] in can]
        if len(rows) < OFFER_POOL_READ:
            break
        read += OFFER_POOL_READ
    return pool[:OFFER_POOL]


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
