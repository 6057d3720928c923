"""The visit: where it stands (VisitState), when its alerts are due, the day's visits (a helper's,
staff's Today tab), its report, and what a series' visit says about paying."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from bookings.models import NO_CHECK_OUT_AFTER, REMIND_BEFORE_LATE, Booking, BookingStatus, VisitAlertKind, VisitReport
from bookings.selectors.lists import booking_get
from core.errors import NotFound
from requests_app.selectors import RECIPIENT_SUMMARY_FIELDS

if TYPE_CHECKING:
    from accounts.models import User


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
