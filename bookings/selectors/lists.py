"""The lists and counts of bookings: the dashboard's card and tiles, staff's list, one booking a
user may see; the parties joined and the fields a listed booking's shape reads (BookingSerializer)."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db.models import Count, Exists, IntegerField, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext

from accounts.selectors import USER_SUMMARY_FIELDS
from bookings.models import (
    REPORT_EDIT_WINDOW,
    Booking,
    BookingStatus,
    PaymentStatus,
    VisitPhoto,
    VisitReport,
    VisitTaskOutcome,
)
from bookings.selectors.base import ACTIVE_STATUSES, in_circles_of, visible_to
from bookings.selectors.replacement import replacement_state_of, replacement_waits_of
from circles.selectors import organized_recipient_ids, recipient_ids_of
from core.addresses import PART_NAMES
from core.errors import NotFound
from requests_app.models import SERIES_MAX_VISITS, RequestStatus, ServiceRequest
from requests_app.selectors import RECIPIENT_SUMMARY_FIELDS, viewer_role_of

if TYPE_CHECKING:
    from accounts.models import User


# Active bookings (scheduled, confirmed) first, soonest first; then the finished ones.
_UPCOMING_ORDER = ("active_rank", "scheduled_date", "id")


def with_parties(qs: QuerySet[Booking], viewer_id: str | None = None) -> QuerySet[Booking]:
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
LISTED_FIELDS = (
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


def _listed(qs: QuerySet[Booking], viewer_id: str | None = None) -> QuerySet[Booking]:
    return with_parties(qs, viewer_id).only(*LISTED_FIELDS).order_by(*_UPCOMING_ORDER)


def booking_list_for(*, user: User) -> QuerySet[Booking]:
    """GET /api/bookings: the bookings for the recipients in the user's circles and the visits
    they make as a provider (admins: all); active ones first, soonest first (the dashboard shows
    the first 3)."""
    return _listed(visible_to(user), user.pk)


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
    return with_parties(Booking.objects.all()).order_by("-created_at", "-id")


def booking_get(*, user: User, pk: int) -> Booking:
    """One booking the user may see; otherwise 404."""
    booking = with_parties(visible_to(user), user.pk).filter(pk=pk).first()
    if booking is None:
        raise NotFound(gettext("Booking not found."))
    return booking
