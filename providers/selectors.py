"""Reads of provider profiles, scoped to what the caller may see.

Public listings show only verified, active providers and never email or phone.
Used by the API and by pages (landing: provider_list_public(...)[:3]).
"""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Count, Exists, F, OuterRef, Prefetch, Q, QuerySet, Subquery, TextField, Value, Window
from django.db.models.functions import Cast, Concat
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import UserType
from core.errors import NotFound
from core.geo import Point, arc_miles, box_around, closeness, cos_of_miles, in_box
from core.geocoding import PlaceStatus
from providers import ports
from providers.models import TRAVEL_BANDS, VISIT_WINDOWS, Provider, Specialty, TimeOff, VerificationStatus, WeeklyHours

if TYPE_CHECKING:
    from accounts.models import User


def specialty_options() -> list[dict[str, str]]:
    """The six services as {id, name}, for forms and filters."""
    return [{"id": value, "name": label} for value, label in Specialty.choices]


SORTS = {
    # Nearest first: only with a place to be near (provider_list_public's `near`).
    "distance": [F("closeness").desc(), "id"],
    "rating": [F("rating").desc(), F("total_reviews").desc(), "id"],
    "reviews": [F("total_reviews").desc(), F("rating").desc(), "id"],
    "rate-low": [F("hourly_rate").asc(nulls_last=True), F("rating").desc(), "id"],
    "rate-high": [F("hourly_rate").desc(nulls_last=True), F("rating").desc(), "id"],
}
DEFAULT_SORT = "rating"
DISTANCE_SORT = "distance"
# The choices of the distance filter on /providers (the API takes any whole number of miles in
# the helpers' own range, 1 to TRAVEL_MILES_MAX).
WITHIN_CHOICES = (5, 10, 25, 50)


def _public() -> QuerySet[Provider]:
    """Verified, active, and her checks not expired (Provider.checks_due_by)."""
    return Provider.objects.filter(verification_status=VerificationStatus.VERIFIED, is_active=True).filter(
        Q(checks_due_by__isnull=True) | Q(checks_due_by__gt=timezone.now())
    )


def provider_rows() -> QuerySet[Provider]:
    """Providers with what a card shows loaded (their user), not filtered: in_order's rows, whose
    ids a filtered query (provider_list_public) chose."""
    return Provider.objects.select_related("user")


def provider_list_public(
    *,
    search: str = "",
    specialty: str = "",
    sort: str = DEFAULT_SORT,
    available_on: dt.date | None = None,
    time_window: str = "",
    near: Point | None = None,
    within: int | None = None,
    language: str = "",
) -> QuerySet[Provider]:
    """Verified, active providers for the browse and landing pages.

    search: case-insensitive over bio, service area and specialties (ids, and the names of the
    services, so "technology" finds tech-support). specialty: one of the six ids. sort: distance
    (with `near`), rating (default), reviews, rate-low, rate-high. available_on (and time_window,
    else any window): free then (filter_available). near: only the helpers whose travel covers
    this place (within_reach), `within` miles of it at most, each with `distance_miles`.
    language: only those who speak it (a code of core.languages.SPOKEN). All done in the database.
    """
    qs = _public().select_related("user")
    if near is not None:
        qs = within_reach(qs, center=near, within=within)
    elif sort == DISTANCE_SORT:
        sort = DEFAULT_SORT
    search = search.strip()
    if search or specialty:
        qs = qs.annotate(specialties_text=Cast("specialties", output_field=TextField()))
    if search:
        qs = qs.filter(Q(bio__icontains=search) | Q(service_area__icontains=search) | _specialty_matches(search))
    if specialty:
        qs = qs.filter(_has_specialty(specialty))
    if language:
        qs = with_languages_text(qs).filter(speaks(language))
    if available_on is not None:
        qs = filter_available(qs, day=available_on, window=time_window or None)
    return qs.order_by(*SORTS.get(sort, SORTS[DEFAULT_SORT]))


# Browse by distance. A helper is shown for a place when it lies within her own travel distance
# (and within the family's distance filter). Travel distances differ per helper (1 to 100 miles),
# so one box of 100 miles would read every helper up to 100 miles away, most of whom travel 10 or
# 25. Instead the helpers are read by band of travel distance (TRAVEL_BANDS), each band in a box of
# its own largest distance, on the index (status, travel_band, latitude, longitude): the rows read
# are those near enough to possibly come, whatever the number of helpers farther out. The exact
# test then decides: her stored point on the sphere against the place's (core.geo.closeness), at
# least the closeness of her travel distance (Provider.reach_closeness), a dot product a row. When
# PostGIS would be the next step: docs/deploy.md.
_PLACE = {"x": "place_x", "y": "place_y", "z": "place_z"}


def within_reach(qs: QuerySet[Provider], *, center: Point, within: int | None = None) -> QuerySet[Provider]:
    """The providers of `qs` placed within their own travel distance of `center` (and `within`
    miles of it at most, when given), annotated with `closeness` (core.geo.closeness: sort it
    descending for nearest first) and `distance_miles` (exact, the great-circle distance; worked
    out by the database only for the rows read out, never for a filter or a sort)."""
    boxes: dict[float, list[int]] = {}  # radius -> the bands read in a box that large
    for band, (_first, last) in enumerate(TRAVEL_BANDS, 1):
        boxes.setdefault(min(last, within) if within is not None else last, []).append(band)
    reach = Q()
    for radius, bands in boxes.items():
        reach |= Q(travel_band__in=bands) & in_box(box_around(center, radius))
    qs = (
        qs.filter(reach)
        .annotate(closeness=closeness(center, **_PLACE), distance_miles=arc_miles(F("closeness")))
        .filter(closeness__gte=F("reach_closeness"))
    )
    if within is not None:
        qs = qs.filter(closeness__gte=cos_of_miles(within))
    return qs


def ranked_ids(qs: QuerySet[Provider]) -> QuerySet:
    """(pk, total, distance_miles) of each row of `qs` (within_reach's) in its order, `total` the
    number of rows in all (a window count over the same scan): a page of a browse by distance reads
    its ids and the count in one narrow query, then its rows by id (in_order). A page of 24 out of
    thousands in reach sorts ids, not whole profiles, and the rows in reach are read once."""
    return qs.prefetch_related(None).annotate(total=Window(Count("pk"))).values_list("pk", "total", "distance_miles")


def in_order(rows: QuerySet[Provider], ranked: list[tuple[int, int, float]]) -> list[Provider]:
    """The providers of ranked_ids' page, in its order, each with its `distance_miles`. `rows`: the
    providers with what the page shows loaded (select_related, prefetches), not filtered again: the
    ids come from the filtered query, and asking its filters a second time would only cost."""
    if not ranked:
        return []
    found = {p.pk: p for p in rows.filter(pk__in=[pk for pk, *_ in ranked])}
    page = []
    for pk, _total, miles in ranked:
        if pk in found:
            found[pk].distance_miles = miles
            page.append(found[pk])
    return page


def _specialty_matches(search: str) -> Q:
    """The specialties' ids or service names hold the text ("technology" finds tech-support);
    needs the specialties_text annotation."""
    match = Q(specialties_text__icontains=search)
    for value, label in Specialty.choices:
        if search.lower() in label.lower():
            match |= _has_specialty(value)
    return match


def _has_specialty(value: str) -> Q:
    """The provider's specialties (a JSON list of ids) hold this id; needs the specialties_text annotation.

    JSONField's `contains` lookup exists on PostgreSQL only (SQLite, the embedded default, answers
    NotSupportedError), so the list is matched on its JSON text, where each id stands in double
    quotes: '"tech-support"' matches that element and never a part of another one. The ids are
    plain ASCII slugs, written the same way by both databases.
    """
    return Q(specialties_text__contains=json.dumps(value))


def speaks(language: str) -> Q:
    """She speaks this language (a code of core.languages.SPOKEN): matched on the JSON text of her
    list, as _has_specialty is (JSONField's `contains` exists on PostgreSQL only); the codes are
    plain ASCII letters, so '"es"' matches that element and never a part of another."""
    return Q(languages_text__contains=json.dumps(language))


def with_languages_text(qs: QuerySet[Provider]) -> QuerySet[Provider]:
    """The annotation speaks() reads."""
    return qs.annotate(languages_text=Cast("languages", output_field=TextField()))


def provider_get_public(*, provider_id: int) -> Provider:
    provider = _public().select_related("user").filter(pk=provider_id).first()
    if provider is None:
        raise NotFound(gettext("Provider not found."))
    return provider


def provider_get_for_profile(*, provider_id: int, viewer: User) -> Provider:
    """The provider whose profile page `viewer` may read: a verified, active helper for anyone
    signed in; any other (pending, rejected, inactive) only for staff and for herself. Otherwise
    404, as if there were none: an application is nobody else's business."""
    provider = Provider.objects.select_related("user").filter(pk=provider_id).first()
    if provider is None or not viewer.is_authenticated:
        raise NotFound(gettext("Provider not found."))
    public = provider.is_verified and provider.is_active
    if not (public or viewer.is_admin or provider.user_id == viewer.pk):
        raise NotFound(gettext("Provider not found."))
    return provider


def provider_for_user(*, user: User) -> Provider | None:
    if not user.is_authenticated:
        return None
    return Provider.objects.select_related("user").filter(user=user).first()


def provider_pk_of(*, user_id: str) -> Subquery:
    """The pk of the user's provider profile, as a one-value subquery (NULL: they have none).
    Booking reads OR "the visits they make" (provider_id = this) with another role: PostgreSQL reads
    this first and ORs two index scans, where a join on provider.user makes it read every booking."""
    return Subquery(Provider.objects.filter(user_id=user_id).order_by().values("pk")[:1])


def provider_get_own(*, user: User) -> Provider:
    """The signed-in user's own profile; none yet is a 404."""
    provider = provider_for_user(user=user)
    if provider is None:
        raise NotFound(gettext("You do not have a provider profile yet."))
    return provider


def user_acts_as_provider(*, user: User) -> bool:
    """A provider account, or anyone with a provider profile: they may try to accept (and are
    told why not). Seeing open requests takes more: user_is_vetted_provider."""
    if not user.is_authenticated:
        return False
    return user.user_type == UserType.PROVIDER or Provider.objects.filter(user=user).exists()


def provider_vetted(*, user_id: str) -> QuerySet[Provider]:
    """The user's profile if it is verified and active (a queryset, for Exists() in other lists)."""
    return _public().filter(user_id=user_id)


def user_is_vetted_provider(*, user: User) -> bool:
    """A verified, active provider profile: only they see open requests (ARCHITECTURE.md)."""
    if not user.is_authenticated:
        return False
    return provider_vetted(user_id=user.pk).exists()


def provider_standing(*, user: User) -> str:
    """Where the user stands as a provider, for the pages: "none" (no profile), "pending",
    "rejected", "verified" (and active) or "inactive" (verified, switched off)."""
    provider = Provider.objects.filter(user=user).only("verification_status", "is_active").first()
    if provider is None:
        return "none"
    if provider.verification_status == VerificationStatus.VERIFIED and not provider.is_active:
        return "inactive"
    return str(provider.verification_status)


def provider_list_admin(*, status: str = "", search: str = "") -> QuerySet[Provider]:
    """Every provider, newest first (admin dashboard).

    search: case-insensitive over first name, last name, the full name, email and specialties
    (ids and service names), as the spec's admin search box says. All done in the database.
    """
    qs = Provider.objects.select_related("user").order_by("-created_at", "-id")
    if status:
        qs = qs.filter(verification_status=status)
    search = search.strip()
    if search:
        qs = qs.annotate(
            specialties_text=Cast("specialties", output_field=TextField()),
            full_name=Concat("user__first_name", Value(" "), "user__last_name"),
        ).filter(
            Q(user__first_name__icontains=search)
            | Q(user__last_name__icontains=search)
            | Q(full_name__icontains=search)
            | Q(user__email__icontains=search)
            | _specialty_matches(search)
        )
    return qs


# ---------------------------------------------------------------- availability
# Weekly hours and time off are wall-clock times and dates in the site's zone. A provider with no
# weekly hours at all is available at any hour (so providers from before the schedule existed keep
# working); time off applies either way. Her booked visits belong to the app above (bookings): this
# app asks for them through providers.ports, or is given them (visit_problems' `busy`).

# A visit in a window is looked for as its first hour: it starts at the window's start
# (VISIT_WINDOWS), 60 minutes being a request's usual length.
PROBE = dt.timedelta(minutes=60)
NEXT_FREE_DAYS = 14


def _zone() -> zoneinfo.ZoneInfo:
    return zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)


def _hours(provider: Provider) -> list[WeeklyHours]:
    return list(provider.weekly_hours.all())  # the prefetched list when with_schedule() ran


def _time_off(provider: Provider) -> list[TimeOff]:
    prefetched = getattr(provider, "upcoming_time_off", None)
    return list(prefetched) if prefetched is not None else list(provider.time_off.all())


def _is_off(time_off: list[TimeOff], day: dt.date) -> bool:
    return any(t.first_day <= day <= t.last_day for t in time_off)


def _in_hours(hours: list[WeeklyHours], day: dt.date, start: dt.time, end: dt.time) -> bool:
    return not hours or any(h.weekday == day.weekday() and h.start_time <= start and end <= h.end_time for h in hours)


def fits_hours(hours: list[WeeklyHours], start: dt.datetime, end: dt.datetime) -> bool:
    """A visit from `start` to `end` lies inside one of these weekly windows (read in the site's
    zone; no windows at all: any time)."""
    if not hours:
        return True
    zone = _zone()
    start, end = start.astimezone(zone), end.astimezone(zone)
    if end.date() != start.date():
        return False  # past midnight: no weekly window reaches that far
    return _in_hours(hours, start.date(), start.time(), end.time())


def is_available(provider: Provider, start: dt.datetime, end: dt.datetime) -> bool:
    """The provider works from `start` to `end` (aware datetimes): inside one of their weekly
    windows that day (or they set none at all) and not on time off. Bookings are not looked at
    (bookings.services.check_provider_free does that)."""
    zone = _zone()
    start, end = start.astimezone(zone), end.astimezone(zone)
    if end <= start:
        return False
    last_day = (end - dt.timedelta(microseconds=1)).date()
    time_off = _time_off(provider)
    day = start.date()
    while day <= last_day:
        if _is_off(time_off, day):
            return False
        day += dt.timedelta(days=1)
    hours = _hours(provider)
    if not hours:
        return True
    if last_day != start.date() or end.date() != start.date():
        return False  # past midnight: no weekly window reaches that far
    return _in_hours(hours, start.date(), start.time(), end.time())


def provider_schedule(*, provider: Provider) -> dict:
    """The weekly hours and the time off that is not over yet, for /schedule and its API."""
    today = timezone.localdate()
    return {
        "weekly_hours": list(provider.weekly_hours.all()),
        "time_off": list(provider.time_off.filter(last_day__gte=today).order_by("first_day", "id")),
    }


def filter_available(qs: QuerySet[Provider], *, day: dt.date, window: str | None = None) -> QuerySet[Provider]:
    """The providers of `qs` free for a visit in `window` (morning, afternoon, evening; None: any of
    them) on `day`: their hours cover the window's first hour (or they set no hours), no time off
    that day, no scheduled or confirmed visit in that hour. EXISTS subqueries, no extra query."""
    own = {"provider": OuterRef("pk")}
    no_hours = ~Exists(WeeklyHours.objects.filter(**own))
    off = Exists(TimeOff.objects.filter(**own, first_day__lte=day, last_day__gte=day))
    free = None
    for name in [window] if window else list(VISIT_WINDOWS):
        window_start = VISIT_WINDOWS[name][0]
        start = dt.datetime.combine(day, window_start, tzinfo=_zone())
        end = start + PROBE
        covering = Exists(
            WeeklyHours.objects.filter(
                **own, weekday=day.weekday(), start_time__lte=window_start, end_time__gte=end.time()
            )
        )
        this_window = (no_hours | covering) & ~ports.busy_at(start, end)
        free = this_window if free is None else free | this_window
    return qs.filter(free & ~off)


def with_schedule(qs: QuerySet[Provider], *, now: dt.datetime | None = None) -> QuerySet[Provider]:
    """Prefetch what next_free_window() reads: three more queries for the whole page, whatever its size."""
    now = now or timezone.now()
    today = now.astimezone(_zone()).date()
    horizon = now + dt.timedelta(days=NEXT_FREE_DAYS + 1)
    time_off = TimeOff.objects.filter(last_day__gte=today, first_day__lte=today + dt.timedelta(days=NEXT_FREE_DAYS))
    return qs.prefetch_related(
        Prefetch("weekly_hours", queryset=WeeklyHours.objects.all()),
        Prefetch("time_off", queryset=time_off, to_attr="upcoming_time_off"),
        ports.busy_prefetch(now, horizon),
    )


def next_free_window(provider: Provider, *, now: dt.datetime | None = None) -> dict | None:
    """The first visit window, from now to NEXT_FREE_DAYS days ahead, that starts later than now
    and where the provider is available (is_available) with no visit of theirs in its first hour:
    {"date": date, "time_window": "morning" | "afternoon" | "evening"}, or None. Reads the
    prefetched lists of with_schedule() when there (the browse list), else queries."""
    now = now or timezone.now()
    zone = _zone()
    today = now.astimezone(zone).date()
    hours = _hours(provider)
    time_off = _time_off(provider)
    visits = getattr(provider, "busy_visits", None)
    if visits is None:
        busy = ports.busy_intervals(provider, start=now, end=now + dt.timedelta(days=NEXT_FREE_DAYS + 1))
    else:
        busy = [(visit.starts_at, visit.ends_at) for visit in visits]
    for offset in range(NEXT_FREE_DAYS):
        day = today + dt.timedelta(days=offset)
        if _is_off(time_off, day):
            continue
        for window, (window_start, _end) in VISIT_WINDOWS.items():
            start = dt.datetime.combine(day, window_start, tzinfo=zone)
            end = start + PROBE
            if start <= now or not _in_hours(hours, day, window_start, end.time()):
                continue
            if any(s < end and e > start for s, e in busy):
                continue
            return {"date": day, "time_window": window}
    return None


# ---------------------------------------------------------------- can she make these visits?
# One predicate for "may this provider take these visits": the open requests a helper is shown, her
# accept, an admin's reassignment and a family's warning all ask it, so a helper is never offered a
# visit she would be refused. Each visit is (start, end), aware datetimes; the answer says, per
# visit, why she cannot make it ("" when she can), in the words a person reads.

TIME_OFF = "time_off"
OUTSIDE_HOURS = "outside_hours"
BUSY = "busy"


def provider_offers(provider: Provider, service: str) -> bool:
    """The provider offers this service (a specialty id, which is also the category's slug)."""
    return service in (provider.specialties or [])


def visit_problems(
    provider: Provider,
    visits: list[tuple[dt.datetime, dt.datetime]],
    *,
    busy: list[tuple[dt.datetime, dt.datetime]],
) -> list[str]:
    """For each visit, why the provider cannot make it: TIME_OFF (a day of it is her time off),
    OUTSIDE_HOURS (not inside one of her weekly windows), BUSY (over another visit of hers), or ""
    (she can). Time off wins over hours: "time off" is what she is told when it is time off.

    `busy`: her booked visits over those times, as (start, end), given by the caller (this app never
    reads them itself): bookings.selectors.provider_visit_problems reads them for the accept and
    the reassignment, the lists of open requests ask providers.ports.busy_intervals."""
    if not visits:
        return []
    zone = _zone()
    time_off, hours = _time_off(provider), _hours(provider)  # read once for all the visits
    answers = []
    for start, end in visits:
        local_start = start.astimezone(zone)
        last_day = (end.astimezone(zone) - dt.timedelta(microseconds=1)).date()
        days = [local_start.date() + dt.timedelta(days=n) for n in range((last_day - local_start.date()).days + 1)]
        if any(_is_off(time_off, day) for day in days):
            answers.append(TIME_OFF)
        elif not fits_hours(hours, start, end):
            answers.append(OUTSIDE_HOURS)
        elif any(s < end and e > start for s, e in busy):
            answers.append(BUSY)
        else:
            answers.append("")
    return answers


def free_for_visit(qs: QuerySet[Provider], *, start: dt.datetime, end: dt.datetime) -> QuerySet[Provider]:
    """The providers of `qs` who can make one visit from `start` to `end`: visit_problems() says ""
    for it, asked in the database (EXISTS subqueries, no extra query) so a search reads only the
    helpers free then: no time off on a day the visit touches, inside one of her weekly windows
    that day (or she set none; never past midnight), no other visit holding her time over it."""
    zone = _zone()
    local_start, local_end = start.astimezone(zone), end.astimezone(zone)
    last_day = (local_end - dt.timedelta(microseconds=1)).date()
    own = {"provider": OuterRef("pk")}
    off = Exists(TimeOff.objects.filter(**own, first_day__lte=last_day, last_day__gte=local_start.date()))
    in_hours = ~Exists(WeeklyHours.objects.filter(**own))
    if local_end.date() == local_start.date():
        in_hours |= Exists(
            WeeklyHours.objects.filter(
                **own, weekday=local_start.weekday(), start_time__lte=local_start.time(), end_time__gte=local_end.time()
            )
        )
    return qs.filter(in_hours & ~off & ~ports.busy_at(start, end))


def provider_visits_between(provider: Provider, *, first_day: dt.date, last_day: dt.date):
    """The provider's scheduled and confirmed visits starting from now on and touching the days
    first_day to last_day (site's zone), soonest first (bookings' rows, with the recipient)."""
    zone = _zone()
    start = max(dt.datetime.combine(first_day, dt.time.min, tzinfo=zone), timezone.now())
    end = dt.datetime.combine(last_day + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
    return ports.visits_between(provider, start=start, end=end)


def time_off_between(provider: Provider, *, first_day: dt.date, last_day: dt.date) -> list[TimeOff]:
    """The provider's time off touching first_day to last_day, first first (the calendar)."""
    return list(provider.time_off.filter(first_day__lte=last_day, last_day__gte=first_day).order_by("first_day", "id"))


def providers_to_place(*, before: dt.datetime, limit: int = 500) -> list[int]:
    """Helpers whose home ZIP still waits to be placed, unchanged since `before` (beat's sweep)."""
    return list(
        Provider.objects.filter(place_status=PlaceStatus.PENDING, updated_at__lt=before)
        .order_by("updated_at")
        .values_list("pk", flat=True)[:limit]
    )
