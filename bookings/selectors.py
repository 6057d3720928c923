"""Reads of bookings, scoped: the recipient's care circle (every member) and the booked
provider see a booking, admins see all; others get 404."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db.models import (
    Case,
    Count,
    Exists,
    F,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.selectors import USER_SUMMARY_FIELDS
from bookings.models import (
    NO_CHECK_OUT_AFTER,
    REMIND_BEFORE_LATE,
    REPLACEMENT_OPEN,
    REPORT_EDIT_WINDOW,
    Booking,
    BookingStatus,
    CalendarFeed,
    PaymentStatus,
    Replacement,
    ReplacementOffer,
    ReplacementOfferAnswer,
    ReplacementState,
    Review,
    VisitAlertKind,
    VisitPhoto,
    VisitReport,
    VisitTaskOutcome,
)
from circles.selectors import is_organizer, organized_recipient_ids, recipient_get, recipient_id_list, recipient_ids_of
from core.addresses import PART_NAMES
from core.errors import InvalidInput, NotFound, PermissionDenied
from providers.models import Provider, VerificationStatus
from providers.ports import TrackRecord
from providers.selectors import provider_get_for_profile, provider_pk_of, visit_problems
from requests_app.models import (
    ADDRESS_KEPT_AFTER_VISIT,
    SERIES_MAX_VISITS,
    WINDOW_START,
    RequestStatus,
    ServiceRequest,
    TimeWindow,
    clock_words,
)
from requests_app.selectors import (
    RECIPIENT_SUMMARY_FIELDS,
    answer_minutes_of,
    helpers_for_visits,
    viewer_role_of,
)

if TYPE_CHECKING:
    from accounts.models import User
    from circles.models import CareRecipient


ACTIVE_STATUSES = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED)

# Active bookings (scheduled, confirmed) first, soonest first; then the finished ones.
_UPCOMING_ORDER = ("active_rank", "scheduled_date", "id")


def _with_parties(qs: QuerySet[Booking], viewer_id: str | None = None) -> QuerySet[Booking]:
    """The parties and the recipient joined, and whether the visit has its report; with a viewer,
    their role in the recipient's circle (viewer_role: "organizer", "member" or None), which the
    shape reads."""
    qs = qs.select_related("client", "recipient", "provider__user", "service_request__category").annotate(
        has_report=Exists(VisitReport.objects.filter(booking_id=OuterRef("pk"))),
        tasks_done_count=tasks_done_count(),
        replacement_state=replacement_state_of(),
        replacement_waits=replacement_waits_of(),
        has_photo=Exists(VisitPhoto.objects.filter(booking_id=OuterRef("pk"))),
    )
    if viewer_id is not None:
        qs = qs.annotate(viewer_role=viewer_role_of(viewer_id))
    return qs


def tasks_done_count() -> Subquery:
    """How many of the visit's tasks were marked done at check-out (null before), for annotate()."""
    done = (
        VisitTaskOutcome.objects.filter(booking_id=OuterRef("pk"), done=True)
        .order_by()
        .values("booking_id")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Subquery(done, output_field=IntegerField())


def task_outcomes_of(booking: Booking) -> list[VisitTaskOutcome]:
    """The visit's task outcomes in the list's order (the caller may see the booking)."""
    return list(VisitTaskOutcome.objects.filter(booking_id=booking.pk).order_by("position"))


# What a listed booking's shape reads (BookingSerializer), and nothing else: six joined tables'
# every column made the dashboard's bookings call mostly SQL compiling. A field the shape starts
# reading must be added here, or each row costs a query (adminpanel's query-count test fails).
_LISTED_FIELDS = (
    *(f.name for f in Booking._meta.concrete_fields if not f.generated),
    *(f"client__{f}" for f in USER_SUMMARY_FIELDS),
    *(
        f"provider__{f}"
        for f in (
            "id",
            "user_id",
            "specialties",
            "hourly_rate",
            "verification_status",
            "identity_verified_at",
            "background_checked_at",
            "rating",
            "total_reviews",
        )
    ),
    *(f"provider__user__{f}" for f in USER_SUMMARY_FIELDS),
    *(
        f"service_request__{f}"
        for f in (
            "id",
            "title",
            "description",
            "category_id",
            *PART_NAMES,
            "special_requirements",
            "tasks",
            "status",
            # booking.series: the series' length from its request's repeat
            "preferred_date",
            "repeat",
            "repeat_count",
            "repeat_until",
        )
    ),
    "service_request__category__id",
    "service_request__category__name",
    *(f"recipient__{f}" for f in RECIPIENT_SUMMARY_FIELDS),
)


def in_circles_of(user_id: str) -> Q:
    """Bookings for a recipient in whose circle the user is (any role)."""
    return Q(recipient_id__in=recipient_ids_of(user_id=user_id))


def as_party_of(user_id: str) -> Q:
    """Bookings for a recipient in the user's circles, or visits they make as a provider: whose
    thread they take part in, and what they may see (admins aside).

    The recipient ids are read first, as values, and the provider profile's pk is a one-value
    subquery: PostgreSQL then ORs two index scans. A join on provider.user or a subquery of the
    circles, ORed, makes it read every booking (about 20 ms at 10,000)."""
    return Q(recipient_id__in=recipient_id_list(user_id=user_id)) | Q(provider_id=provider_pk_of(user_id=user_id))


def _as_party(user_id: str) -> QuerySet[Booking]:
    return Booking.objects.filter(as_party_of(user_id))


def _visible_to(user: User) -> QuerySet[Booking]:
    return Booking.objects.all() if user.is_admin else _as_party(user.pk)


def _listed(qs: QuerySet[Booking], viewer_id: str | None = None) -> QuerySet[Booking]:
    return _with_parties(qs, viewer_id).only(*_LISTED_FIELDS).order_by(*_UPCOMING_ORDER)


def booking_list_for(*, user: User) -> QuerySet[Booking]:
    """GET /api/bookings: the bookings for the recipients in the user's circles and the visits
    they make as a provider (admins: all); active ones first, soonest first (the dashboard shows
    the first 3)."""
    return _listed(_visible_to(user), user.pk)


def provider_to_come(*, now: dt.datetime) -> Q:
    """A helper's upcoming visits: those still to make (scheduled or confirmed), and a visit she
    checked out of while its report may still be corrected (the card offers it). Finished and
    cancelled visits are not "upcoming" (her calendar and /earnings keep them)."""
    return Q(status__in=ACTIVE_STATUSES) | Q(
        status=BookingStatus.COMPLETED, checked_out_at__gt=now - REPORT_EDIT_WINDOW
    )


def booking_list_as(
    *, user: User, as_provider: bool, recipient_id: int | None = None, now: dt.datetime | None = None
) -> QuerySet[Booking]:
    """The dashboard's bookings card: the visits a provider has to come (provider_to_come), or
    the visits booked for the recipients in the user's circles (only `recipient_id`'s when given:
    the dashboard's switcher), whatever the account's type: a client who became a helper keeps her
    own bookings. In booking_list_for's order."""
    if as_provider:
        mine = Q(provider__user_id=user.pk) & provider_to_come(now=now or timezone.now())
    else:
        mine = in_circles_of(user.pk)
    qs = Booking.objects.filter(mine)
    if recipient_id is not None and not as_provider:
        qs = qs.filter(recipient_id=recipient_id)
    return _listed(qs, user.pk)


def booking_list_as_items(
    *, user: User, as_provider: bool, recipient_id: int | None = None, items: int = 3
) -> list[Booking]:
    """The dashboard's bookings card, `items` at most, where a series counts as one item
    with its visits (the card groups them): booking_list_as's rows, in its order, from a window
    wide enough for `items` whole series. One query."""
    window = booking_list_as(user=user, as_provider=as_provider, recipient_id=recipient_id)[
        : items * (SERIES_MAX_VISITS + 1)
    ]
    chosen: list[tuple[str, int]] = []
    out: list[Booking] = []
    for booking in window:
        key = ("series", booking.service_request_id) if booking.series_index is not None else ("one", booking.pk)
        if key not in chosen:
            if len(chosen) == items:
                continue
            chosen.append(key)
        out.append(booking)
    return out


def booking_counts_as_provider(*, user: User, day: dt.date | None = None) -> dict[str, int]:
    """The provider's tiles (one COUNT query): "today", her visits of the day (site time zone) still
    to make or under way (scheduled or confirmed, paid or not); "completed", all she completed."""
    site = timezone.get_default_timezone()  # the site's day, whoever looks
    start = dt.datetime.combine(day or timezone.localdate(timezone=site), dt.time.min, tzinfo=site)
    end = start + dt.timedelta(days=1)
    return Booking.objects.filter(provider__user_id=user.pk).aggregate(
        today=Count("pk", filter=Q(status__in=ACTIVE_STATUSES, starts_at__gte=start, starts_at__lt=end)),
        completed=Count("pk", filter=Q(status=BookingStatus.COMPLETED)),
    )


def client_side_counts(*, user: User) -> dict[str, int]:
    """What a person has on the client side (the requests and bookings for the recipients in her
    circles), for the helper view of someone who is both, in one COUNT query: "requests" still open,
    "bookings" still to come (scheduled or confirmed) and "unpaid", those of them waiting for a
    payment she, an organizer, can make."""
    organizes = Q(recipient_id__in=organized_recipient_ids(user_id=user.pk))
    active = Q(bookings__status__in=ACTIVE_STATUSES)
    unpaid = Q(
        bookings__status=BookingStatus.SCHEDULED,
        bookings__payment_status__in=(PaymentStatus.PENDING, PaymentStatus.FAILED),
    )
    # Named apart from the relation they count ("bookings" would hide it in the other filters).
    counts = ServiceRequest.objects.filter(recipient_id__in=recipient_ids_of(user_id=user.pk)).aggregate(
        open_requests=Count("pk", filter=Q(status=RequestStatus.OPEN), distinct=True),
        to_come=Count("bookings", filter=active),
        to_pay=Count("bookings", filter=organizes & unpaid),
    )
    return {"requests": counts["open_requests"], "bookings": counts["to_come"], "unpaid": counts["to_pay"]}


def booking_list_admin() -> QuerySet[Booking]:
    return _with_parties(Booking.objects.all()).order_by("-created_at", "-id")


def booking_get(*, user: User, pk: int) -> Booking:
    """One booking the user may see; otherwise 404."""
    booking = _with_parties(_visible_to(user), user.pk).filter(pk=pk).first()
    if booking is None:
        raise NotFound(gettext("Booking not found."))
    return booking


# What a public review shows (bookings.api.serializers.PublicReviewSerializer): no ids of people.
PUBLIC_REVIEW_FIELDS = (
    "id",
    "rating",
    "comment",
    "created_at",
    "reviewer__first_name",
    "reviewer__last_name",
    "booking__service_request__category__name",
)


def provider_reviews_public(*, provider: Provider) -> QuerySet[Review]:
    """The public reviews of a provider, newest first (their profile page)."""
    return (
        Review.objects.filter(reviewed_id=provider.user_id, is_public=True)
        .select_related("reviewer", "booking__service_request__category")
        .only(*PUBLIC_REVIEW_FIELDS)
        .order_by("-created_at", "-id")
    )


# A helper's completion: of her last COMPLETION_VISITS visits over (completed, or handed on because
# she cancelled, was removed or was suspended), those she completed; shown from COMPLETION_MIN_VISITS
# (fewer: "New helper").
COMPLETION_VISITS = 25
COMPLETION_MIN_VISITS = 5


def track_records_of(provider_ids: list[int]) -> dict[int, TrackRecord]:
    """providers.ports.track_records: each helper's answer speed (requests_app's answer_minutes_of)
    and completion: her last COMPLETION_VISITS visits that are over, by their start, each either
    completed or one she left (a Replacement names her: she cancelled, was removed or suspended; a
    visit the family cancelled is not hers to keep). Two queries for any number of helpers; a
    helper with no answer and fewer than COMPLETION_MIN_VISITS visits is left out."""
    if not provider_ids:
        return {}
    newest = {"order_by": F("starts_at").desc()}
    completed = (
        Booking.objects.filter(provider_id__in=provider_ids, status=BookingStatus.COMPLETED)
        .annotate(nth=Window(RowNumber(), partition_by=[F("provider_id")], **newest))
        .filter(nth__lte=COMPLETION_VISITS)
    )
    left = (
        Replacement.objects.filter(left_provider_id__in=provider_ids)
        .annotate(
            starts_at=F("booking__starts_at"),
            nth=Window(RowNumber(), partition_by=[F("left_provider_id")], order_by=F("booking__starts_at").desc()),
        )
        .filter(nth__lte=COMPLETION_VISITS)
    )
    visits: dict[int, list[tuple[dt.datetime, bool]]] = {}
    kept, went = completed.annotate(kept=Value(True)).order_by(), left.annotate(kept=Value(False)).order_by()
    for provider_id, starts_at, was_kept in kept.values_list("provider_id", "starts_at", "kept").union(
        went.values_list("left_provider_id", "starts_at", "kept"), all=True
    ):
        visits.setdefault(provider_id, []).append((starts_at, was_kept))
    speed = answer_minutes_of(provider_ids)
    records = {}
    for pk in provider_ids:
        last = sorted(visits.get(pk, []), reverse=True)[:COMPLETION_VISITS]
        judged = len(last) >= COMPLETION_MIN_VISITS
        if pk in speed or judged:
            records[pk] = TrackRecord(
                answer_minutes=speed.get(pk),
                completed=sum(kept for _, kept in last) if judged else 0,
                visits=len(last) if judged else 0,
            )
    return records


PROFILE_REVIEWS = 10  # the newest public reviews a provider's profile page shows


def provider_profile(*, provider_id: int, viewer: User) -> Provider:
    """A provider's profile page as `viewer` may read it (who may: providers.selectors
    .provider_get_for_profile), with `visits_completed` (her completed visits), `track_record`
    (track_records_of, None when she has none yet) and `profile_reviews` (her newest public
    reviews) set on it."""
    provider = provider_get_for_profile(provider_id=provider_id, viewer=viewer)
    provider.visits_completed = Booking.objects.filter(provider=provider, status=BookingStatus.COMPLETED).count()
    provider.track_record = track_records_of([provider.pk]).get(provider.pk)
    provider.profile_reviews = list(provider_reviews_public(provider=provider)[:PROFILE_REVIEWS])
    return provider


FEATURED_REVIEW_MIN_RATING = 4


def reviews_featured(*, limit: int) -> list[Review]:
    """Real reviews for the landing page's "What Families Say", newest first: public, 4 stars or
    more, with words, by an open account, of a verified, active provider."""
    return list(
        Review.objects.filter(
            is_public=True,
            rating__gte=FEATURED_REVIEW_MIN_RATING,
            reviewer__is_active=True,
            reviewer__closed_at__isnull=True,
            booking__provider__verification_status=VerificationStatus.VERIFIED,
            booking__provider__is_active=True,
        )
        .exclude(comment="")
        .select_related("reviewer", "booking__service_request__category")
        .only(*PUBLIC_REVIEW_FIELDS)
        .order_by("-created_at", "-id")[:limit]
    )


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
    qs = _with_parties(_as_party(user.pk), user.pk).filter(
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
    return qs.annotate(series_total=Subquery(series_total)).only(*_LISTED_FIELDS).order_by("starts_at", "id")


# ---------------------------------------------------------------- the visit


class VisitState:
    """Where a visit stands, as the admins' Today tab and the booking cards show it."""

    UPCOMING = "upcoming"
    IN_PROGRESS = "in_progress"
    LATE = "late"
    DONE = "done"
    MISSED = "missed"
    CANCELLED = "cancelled"


VISIT_STATES = [
    VisitState.UPCOMING,
    VisitState.IN_PROGRESS,
    VisitState.LATE,
    VisitState.MISSED,
    VisitState.DONE,
    VisitState.CANCELLED,
]


def visit_state(booking: Booking, *, now: dt.datetime) -> str:
    """upcoming (not checked in, and still able to arrive and finish inside the window the family
    was told), in progress (checked in), late (past Booking.check_in_by, the latest start that fits
    the window), missed (no check-in by the window's end), done, cancelled."""
    if booking.status == BookingStatus.CANCELLED:
        return VisitState.CANCELLED
    if booking.status == BookingStatus.COMPLETED:
        return VisitState.DONE
    if booking.checked_in_at is not None:
        return VisitState.IN_PROGRESS
    if now >= booking.window_ends_at:
        return VisitState.MISSED
    if now >= booking.check_in_by:
        return VisitState.LATE
    return VisitState.UPCOMING


def visit_alert_due(booking: Booking, kind: str, *, now: dt.datetime) -> bool:
    """Whether an alert of this kind is due now about a confirmed visit: the helper's reminder an
    hour before she would be late (while she still can arrive in time), "late" past the latest
    start that fits the window, "no check-out" once the window is over without a check-in (missed)
    or 2 hours after a checked-in visit should have ended. Nothing fires inside the window the
    family was told while the helper can still keep it."""
    if booking.status != BookingStatus.CONFIRMED:
        return False
    if kind == VisitAlertKind.CHECK_IN_SOON:
        return booking.checked_in_at is None and booking.check_in_by - REMIND_BEFORE_LATE <= now < booking.check_in_by
    if kind == VisitAlertKind.LATE:
        return booking.checked_in_at is None and now >= booking.check_in_by
    if kind == VisitAlertKind.NO_CHECK_OUT:
        if booking.checked_out_at is not None:
            return False
        if booking.checked_in_at is None:
            return now >= booking.window_ends_at
        return now >= booking.check_out_due + NO_CHECK_OUT_AFTER
    raise ValueError(kind)


def _day_bounds(day: dt.date) -> tuple[dt.datetime, dt.datetime]:
    zone = timezone.get_current_timezone()
    start = dt.datetime.combine(day, dt.time.min, tzinfo=zone)
    return start, start + dt.timedelta(days=1)


_VISIT_DAY_STATUSES = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED, BookingStatus.COMPLETED)


# What the day's visit shape reads (bookings.api.serializers.VisitSerializer), and nothing else.
_PERSON = ("id", "first_name", "last_name", "profile_image_url")
_VISIT_FIELDS = (
    *(
        f.name
        for f in Booking._meta.concrete_fields
        if f.name
        in {
            "id",
            "service_request",
            "provider",
            "client",
            "recipient",
            "scheduled_date",
            "scheduled_time",
            "duration",
            "status",
            "payment_status",
            "starts_at",
            "ends_at",
            "checked_in_at",
            "checked_out_at",
        }
    ),
    "service_request__id",
    "service_request__title",
    *(f"client__{f}" for f in _PERSON),
    "provider__id",
    "provider__user_id",
    *(f"provider__user__{f}" for f in _PERSON),
    *(f"recipient__{f}" for f in RECIPIENT_SUMMARY_FIELDS),
)


def _day_of_visits(qs: QuerySet[Booking], day: dt.date) -> QuerySet[Booking]:
    # The visits dated that day on the clock of the person cared for (scheduled_date), whatever her
    # zone; the start's index narrows to a day either side first.
    start, end = _day_bounds(day)
    return (
        qs.filter(starts_at__gte=start - dt.timedelta(days=1), starts_at__lt=end + dt.timedelta(days=1))
        .filter(scheduled_date=day)
        .select_related("client", "recipient", "provider__user", "service_request")
        .annotate(has_report=Exists(VisitReport.objects.filter(booking_id=OuterRef("pk"))))
        .only(*_VISIT_FIELDS)
        .order_by("starts_at", "id")
    )


def provider_visits_on(*, user: User, day: dt.date) -> QuerySet[Booking]:
    """The provider's visits of a day (site time zone), earliest first, cancelled ones left out."""
    return _day_of_visits(Booking.objects.filter(provider__user_id=user.pk, status__in=_VISIT_DAY_STATUSES), day)


def visits_on(*, day: dt.date) -> QuerySet[Booking]:
    """Every visit of a day, cancelled ones too (the admins' Today tab), earliest first."""
    return _day_of_visits(Booking.objects.all(), day)


def visits_needing_alert(*, now: dt.datetime) -> list[tuple[int, str]]:
    """Confirmed visits with an alert due now (visit_alert_due) and not raised yet.

    Looks back two days only: an older visit nobody closed is the admins' to sort out, not an alert.
    The database narrows to visits already begun or about to (no window is longer than a day);
    visit_alert_due, the rule the raise checks again, decides.
    """
    since = now - dt.timedelta(days=2)
    candidates = (
        Booking.objects.filter(
            status=BookingStatus.CONFIRMED,
            checked_out_at__isnull=True,
            starts_at__gte=since,
            starts_at__lte=now + dt.timedelta(days=1),
        )
        .select_related("recipient")
        .prefetch_related("alerts")
        .order_by("starts_at", "id")
    )
    due = []
    for booking in candidates:
        raised = {alert.kind for alert in booking.alerts.all()}
        for kind in (VisitAlertKind.CHECK_IN_SOON, VisitAlertKind.LATE, VisitAlertKind.NO_CHECK_OUT):
            if kind not in raised and visit_alert_due(booking, kind, now=now):
                due.append((booking.pk, kind))
    return due


def visit_report_get(*, user: User, booking_id: int) -> VisitReport:
    """The report of a booking the user may see (its circle, its provider, admins); otherwise 404."""
    booking = booking_get(user=user, pk=booking_id)
    report = VisitReport.objects.filter(booking=booking).prefetch_related("edits").first()
    if report is None:
        raise NotFound(gettext("This visit has no report yet."))
    return report


# The series' rhythm in the sentence below ("a weekly series").
_SERIES_WORD = {"weekly": "weekly", "every_2_weeks": "every-2-weeks", "monthly": "monthly"}


def series_pay_note(*, index: int, count: int, repeat: str) -> str:
    """What the organizer must know before paying one visit of a series: each visit is its own
    payment (payments charge one booking's total), so the others still need paying. The dashboard
    (BookingSerializer.series.payNote) and the checkout say the same."""
    word = _SERIES_WORD.get(repeat, "")
    series = f"a {word} series" if word else "a series"
    return f"This is visit {index} of {count} in {series}; each visit is paid separately."


# ---------------------------------------------------------------- what the apps below ask (core.ports)
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


# ---------------------------------------------------------------- the visit record export

VISIT_RECORD_ORGANIZERS_ONLY = gettext_lazy("Only an organizer of this care circle can export its visit record.")
VISIT_RECORD_MONTH = gettext_lazy("Choose a month as YYYY-MM, for example 2026-11.")


def visit_record_month(*, user: User, recipient_id: object, month: str) -> tuple[CareRecipient, list[Booking]]:
    """A recipient's visits of one month (by the visit's date), for the organizers' export: the
    visits that happened or were booked (confirmed, completed), with their task outcomes. 404 for
    someone outside the circle, 403 for a plain member, 400 for a month not read."""
    recipient = recipient_get(user=user, pk=recipient_id)
    if not is_organizer(user_id=user.pk, recipient_id=recipient.pk):
        raise PermissionDenied(VISIT_RECORD_ORGANIZERS_ONLY)
    try:
        first = dt.datetime.strptime(month or "", "%Y-%m").date()
    except ValueError:
        raise InvalidInput(VISIT_RECORD_MONTH, errors={"month": [VISIT_RECORD_MONTH]}) from None
    after = (first + dt.timedelta(days=32)).replace(day=1)
    visits = list(
        Booking.objects.filter(
            recipient_id=recipient.pk,
            scheduled_date__gte=first,
            scheduled_date__lt=after,
            status__in=[BookingStatus.CONFIRMED, BookingStatus.COMPLETED],
        )
        .select_related("provider__user", "service_request__category")
        .prefetch_related(Prefetch("task_outcomes", queryset=VisitTaskOutcome.objects.order_by("position")))
        .order_by("starts_at", "id")
    )
    return recipient, visits


VERIFIED_SHARE_DAYS = 90


def verified_share_by_helper(*, now: dt.datetime | None = None) -> list[dict]:
    """Staff's view of the visit record: per helper, her checked-in visits of the last 90 days and
    how many were checked in at the home (verified; "not compared" visits are counted apart),
    the lowest share first."""
    since = (now or timezone.now()) - dt.timedelta(days=VERIFIED_SHARE_DAYS)
    rows = (
        Booking.objects.filter(checked_in_at__gte=since)
        .values("provider_id", "provider__user__first_name", "provider__user__last_name")
        .annotate(
            visits=Count("id"),
            verified=Count("id", filter=Q(check_in_verified=True)),
            unverified=Count("id", filter=Q(check_in_verified=False)),
        )
        .order_by("provider_id")
    )
    out = []
    for row in rows:
        compared = row["verified"] + row["unverified"]
        out.append(
            {
                "providerId": row["provider_id"],
                "name": f"{row['provider__user__first_name']} {row['provider__user__last_name']}".strip(),
                "visits": row["visits"],
                "verified": row["verified"],
                "unverified": row["unverified"],
                "share": round(row["verified"] / compared, 3) if compared else None,
            }
        )
    return sorted(out, key=lambda r: (r["share"] is None, r["share"] or 0, r["name"]))


# ---------------------------------------------------------------- replacements


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
