"""The visit: check-in, check-out (completion), the visit report and the alerts about a visit."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, pgettext

from accounts.models import User, UserType
from bookings import lifecycle
from bookings.models import (
    CHECK_IN_FROM,
    LOCATION_KEPT,
    REPORT_EDIT_WINDOW,
    Booking,
    BookingStatus,
    PaymentStatus,
    VisitAlert,
    VisitAlertKind,
    VisitReport,
    VisitReportEdit,
    Wellbeing,
)
from bookings.selectors import visit_alert_due, visits_needing_alert
from bookings.services.base import (
    booking_lock,
    check_booking_provider,
    check_booking_status,
    notify_people,
    organizers_and_members,
    push_update,
    refund_due_text,
    tell,
    window_label,
)
from bookings.services.replacement import replacements_for_suspension
from bookings.services.visit_record import (
    place_verdict,
    task_outcome_problems,
    task_outcomes_save,
    visit_timeline_facts,
)
from core.errors import Conflict, InvalidInput
from core.events import ProviderSuspended
from core.notices.base import clock_words
from core.notices.bookings import InApp
from core.notifications import Audience, NoticeKind

# ---------------------------------------------------------------- the visit: check-in, check-out, report, alerts
#
#   confirmed --provider, from 30 min before the start--> checked in (checked_in_at)
#   confirmed (checked in or not) --provider check-out, after the start--> completed (checked_out_at)
#   an hour before the latest start that fits the window (Booking.check_in_by) -> the provider is
#   reminded; no check-in by then -> "late" alert; no check-in by the window's end (missed), or no
#   check-out 2 h after a checked-in visit should have ended -> "no check-out" alert (one of each per
#   booking: VisitAlert; bookings.selectors.visit_alert_due); the circle and the admins are told.

VISIT_REPORT_TEXT_MAX = 2000
WELLBEING_RANGE = gettext_lazy("Choose how they seemed, from 1 (not well at all) to 5 (in great spirits).")
REPORT_EMPTY = gettext_lazy("Tick what was done, or write a few words about the visit.")


def _hhmm(moment: dt.datetime, booking: Booking) -> str:
    """A time of the visit on the clock of the person cared for, as data ("14:00"): a notice's
    "<name>_clock" fact, said in each reader's words (core.notices.in_reader_words)."""
    return f"{timezone.localtime(moment, booking.time_zone):%H:%M}"


def _clock(moment: dt.datetime, booking: Booking) -> str:
    """A time of the visit on the clock of the person cared for ("2:00 PM"), in the words of the
    person reading it now (the active language)."""
    return clock_words(_hhmm(moment, booking))


def rounded_location(latitude: Any, longitude: Any) -> tuple[Decimal | None, Decimal | None]:
    """A browser position rounded to 3 decimals (about 100 m); none when either is missing.

    Out-of-range or non-numeric values are a 400, never stored.
    """
    if latitude in (None, "") and longitude in (None, ""):
        return None, None
    if str(latitude).strip() in ("0", "0.0") and str(longitude).strip() in ("0", "0.0"):
        return None, None  # 0,0 is a browser's "unknown", not a place: nothing kept
    problems: dict[str, list[str]] = {}
    values: list[Decimal] = []
    for name, raw, limit in (("latitude", latitude, 90), ("longitude", longitude, 180)):
        try:
            value = Decimal(str(raw))
            if not value.is_finite() or abs(value) > limit:
                raise ValueError
        except (ArithmeticError, ValueError):
            problems[name] = [gettext("Must be a number from -%(limit)s to %(limit)s.") % {"limit": limit}]
            continue
        values.append(value.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
    if problems:
        raise InvalidInput(gettext("The location could not be read."), errors=problems)
    return values[0], values[1]


def _raw_position(rounded: Decimal | None, latitude: Any, longitude: Any) -> dict[str, Any]:
    """The position as the browser gave it (compared unrounded), none when rounded_location kept none."""
    if rounded is None:
        return {"latitude": None, "longitude": None}
    return {"latitude": latitude, "longitude": longitude}


def _push_visit(booking: Booking) -> None:
    """booking.updated with the visit's times, to the circle and the provider."""
    push_update(
        booking,
        checkedInAt=booking.checked_in_at.isoformat() if booking.checked_in_at else None,
        checkedOutAt=booking.checked_out_at.isoformat() if booking.checked_out_at else None,
        hasReport=VisitReport.objects.filter(booking_id=booking.pk).exists(),
        checkInVerified=booking.check_in_verified,
        tasksDone=booking.task_outcomes.filter(done=True).count() if booking.checked_out_at else None,
    )


def booking_check_in(
    *,
    booking_id: int,
    actor: User,
    latitude: Any = None,
    longitude: Any = None,
    accuracy: Any = None,
    reason: str = "",
    now: dt.datetime | None = None,
) -> Booking:
    """The provider arrives: from 30 minutes before the window starts, once, on a confirmed visit.
    Away from the home (or without a usable position) she says why: the visit is unverified, never
    blocked (bookings.services.visit_record)."""
    now = now or timezone.now()
    lat, lng = rounded_location(latitude, longitude)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, pgettext("booking action", "check in to"))
        check_booking_status(booking, (BookingStatus.CONFIRMED,), pgettext("booking state change", "checked in"))
        if booking.checked_in_at is not None:
            raise Conflict(
                gettext("You already checked in at %(time)s.") % {"time": _clock(booking.checked_in_at, booking)}
            )
        if now < booking.starts_at - CHECK_IN_FROM:
            raise Conflict(
                gettext("You can check in from 30 minutes before the visit starts (%(time)s on %(day)s).")
                % {
                    "time": _clock(booking.starts_at, booking),
                    "day": date_format(booking.scheduled_date, pgettext("day in a message", "F j")),
                }
            )
        position = _raw_position(lat, latitude, longitude)
        verified, why = place_verdict(booking, **position, accuracy=accuracy, reason=reason)
        booking.checked_in_at = now
        booking.check_in_latitude, booking.check_in_longitude = lat, lng
        booking.check_in_verified, booking.check_in_reason = verified, why
        booking.save(
            update_fields=[
                "checked_in_at",
                "check_in_latitude",
                "check_in_longitude",
                "check_in_verified",
                "check_in_reason",
                "updated_at",
            ]
        )
        tell(
            NoticeKind.VISIT_UPDATES,
            booking,
            event="checked_in",
            name=booking.provider.user.first_name,
            time_clock=_hhmm(now, booking),
        )
        _push_visit(booking)
    return booking


NOBODY_HOME_CHECK_IN_FIRST = gettext_lazy("Check in first: nobody home is reported from the door, after checking in.")


def booking_report_nobody_home(
    *, booking_id: int, actor: User, latitude: Any = None, longitude: Any = None, now: dt.datetime | None = None
) -> Booking:
    """The provider checked in and found nobody home: the visit is cancelled with the time (and
    where she was, when her browser gave it), and she is paid the cancellation policy's late fee
    (lifecycle.late_fee_policy_amount) from the payment; the family is told and may dispute it
    (payments.latefees). 403 for anyone but the provider, 409 before check-in or after check-out."""
    now = now or timezone.now()
    lat, lng = rounded_location(latitude, longitude)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, pgettext("booking action", "report nobody home for"))
        check_booking_status(
            booking, (BookingStatus.CONFIRMED,), pgettext("booking state change", "reported as nobody home")
        )
        if booking.checked_in_at is None:
            raise Conflict(NOBODY_HOME_CHECK_IN_FIRST)
        amount = lifecycle.late_fee_policy_amount(booking) if booking.payment_status == PaymentStatus.PAID else None
        fee = lifecycle.LateFee(amount=amount, kind=lifecycle.NOBODY_HOME) if amount else None
        # Where she was: the visit's check-out position (kept 90 days, visit_locations_purge).
        booking.check_out_latitude, booking.check_out_longitude = lat, lng
        booking.save(update_fields=["check_out_latitude", "check_out_longitude", "updated_at"])
        reason = f"Nobody was home when the helper arrived ({_clock(now, booking)})."
        lifecycle.cancel(booking, actor=actor, reason=reason, late_fee=fee)
        kept = fee.amount if fee is not None else Decimal("0.00")
        tell(
            NoticeKind.BOOKING_CANCELLED,
            booking,
            how="nobody_home",
            reason=reason,
            by=booking.provider.user.first_name or "your helper",
            late_fee=str(kept) if kept else "",
            refund=refund_due_text(booking, kept),
        )
        _push_visit(booking)
    return booking


def visit_report_problems(values: dict[str, Any], *, checklist: Iterable[str]) -> dict[str, list[str]]:
    """The report's rules: a wellbeing of 1-5, checklist items of the category, texts of at most 2,000."""
    problems: dict[str, list[str]] = {}
    wellbeing = values.get("wellbeing")
    if isinstance(wellbeing, bool) or wellbeing not in Wellbeing.values:
        problems["wellbeing"] = [WELLBEING_RANGE]
    tasks = values.get("tasks_done", [])
    allowed = set(checklist)
    if not isinstance(tasks, list) or not all(isinstance(t, str) and t in allowed for t in tasks):
        problems["tasksDone"] = [gettext("Choose what was done from the list.")]
    for name, label in (("notes", "notes"), ("for_family", "forFamily")):
        text = values.get(name, "")
        if not isinstance(text, str):
            problems[label] = [gettext("Must be text.")]
        elif len(text) > VISIT_REPORT_TEXT_MAX:
            problems[label] = [
                gettext("Can be at most %(count)s characters.") % {"count": f"{VISIT_REPORT_TEXT_MAX:,}"}
            ]
    if not isinstance(values.get("follow_up_suggested", False), bool):
        problems["followUpSuggested"] = [gettext("Must be true or false.")]
    if not problems and not values.get("tasks_done") and not values.get("notes", "").strip():
        problems["notes"] = [REPORT_EMPTY]
    return problems


def visit_checklist(booking: Booking) -> list[str]:
    """What a report may tick as done: the features of the request's category."""
    category = booking.service_request.category
    return [str(f) for f in (category.features if category else [])]


def _report_fields(values: dict[str, Any]) -> dict[str, Any]:
    return {
        "tasks_done": list(values.get("tasks_done", [])),
        "notes": values.get("notes", "").strip(),
        "wellbeing": values["wellbeing"],
        "for_family": values.get("for_family", "").strip(),
        "follow_up_suggested": bool(values.get("follow_up_suggested", False)),
    }


def _announce_report(booking: Booking, report: VisitReport) -> None:
    tell(
        NoticeKind.VISIT_UPDATES,
        booking,
        event="report",
        name=booking.provider.user.first_name,
        wellbeing_level=report.wellbeing,
        **visit_timeline_facts(booking),
    )


def booking_check_out(
    *,
    booking_id: int,
    actor: User,
    report: dict[str, Any] | None = None,
    latitude: Any = None,
    longitude: Any = None,
    accuracy: Any = None,
    reason: str = "",
    tasks: list[dict[str, Any]] | None = None,
    now: dt.datetime | None = None,
) -> Booking:
    """The provider leaves: the booking is completed, with the visit report when given (it may also be
    written afterwards, within 24 hours). The spec's "Mark as Completed" is this without a report.
    A visit with a task list needs each task marked done, or not done with a reason (`tasks`, in the
    list's order); the place is checked as at check-in."""
    now = now or timezone.now()
    lat, lng = rounded_location(latitude, longitude)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, pgettext("booking action", "check out of"))
        check_booking_status(booking, (BookingStatus.CONFIRMED,), pgettext("booking state change", "completed"))
        if now < booking.visit_start:
            raise Conflict(gettext("This visit has not started yet; it can be completed after it starts."))
        written = None
        if report is not None:
            InvalidInput.check(visit_report_problems(report, checklist=visit_checklist(booking)))
        task_list = list(booking.service_request.tasks or [])
        InvalidInput.check(task_outcome_problems(task_list, tasks))
        position = _raw_position(lat, latitude, longitude)
        verified, why = place_verdict(booking, **position, accuracy=accuracy, reason=reason)
        lifecycle.complete(booking, now=now, latitude=lat, longitude=lng)
        booking.check_out_verified, booking.check_out_reason = verified, why
        booking.save(update_fields=["check_out_verified", "check_out_reason", "updated_at"])
        if task_list:
            task_outcomes_save(booking, task_list, tasks or [])
        if report is not None:
            written = VisitReport.objects.create(booking=booking, **_report_fields(report))
        # Organizers review a visit; a plain member is not asked to do what she cannot.
        organizers, members = organizers_and_members(booking)
        notify_people(
            [*organizers, *members],
            InApp.VISIT_COMPLETED,
            booking,
            roles=dict.fromkeys((user.pk for user in organizers), Audience.ORGANIZERS),
        )
        if written is not None:
            _announce_report(booking, written)
        _push_visit(booking)
    return booking


def visit_report_save(
    *, booking_id: int, actor: User, values: dict[str, Any], now: dt.datetime | None = None
) -> VisitReport:
    """The provider writes the report of a completed visit, or corrects it, within 24 hours of check-out.
    A correction keeps what the report said before (VisitReportEdit)."""
    now = now or timezone.now()
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, pgettext("booking action", "report on"))
        check_booking_status(booking, (BookingStatus.COMPLETED,), pgettext("booking state change", "reported on"))
        if booking.checked_out_at is None or now - booking.checked_out_at > REPORT_EDIT_WINDOW:
            raise Conflict(gettext("A visit report can be written or corrected for 24 hours after the visit."))
        InvalidInput.check(visit_report_problems(values, checklist=visit_checklist(booking)))
        fields = _report_fields(values)
        report = VisitReport.objects.select_for_update().filter(booking=booking).first()
        if report is None:
            report = VisitReport.objects.create(booking=booking, **fields)
            _announce_report(booking, report)
        else:
            before = {name: getattr(report, name) for name in fields}
            if before != fields:
                VisitReportEdit.objects.create(report=report, edited_by=actor, before=before)
                for name, value in fields.items():
                    setattr(report, name, value)
                report.save(update_fields=[*fields, "updated_at"])
        _push_visit(booking)
    return report


def visit_alerts_due(*, now: dt.datetime) -> list[tuple[int, str]]:
    """(booking id, kind) of every alert due now and not raised yet (the beat job's list)."""
    return visits_needing_alert(now=now)


def visit_alert_raise(*, booking_id: int, kind: str, now: dt.datetime | None = None) -> bool:
    """Raise one alert about a visit, at most once per booking and kind; False when not (or no longer) due."""
    now = now or timezone.now()
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        if not visit_alert_due(booking, kind, now=now):
            return False
        try:
            with transaction.atomic():
                VisitAlert.objects.create(booking=booking, kind=kind)
        except IntegrityError:
            return False  # raised already (by another run)
        window = window_label(booking) or booking.scheduled_time
        if kind == VisitAlertKind.CHECK_IN_SOON:
            # The helper hears first, while she can still keep the window the family was told.
            notify_people(
                [booking.provider.user],
                InApp.CHECK_IN_REMINDER,
                booking,
                by_clock=_hhmm(booking.check_in_by, booking),
                window=window,
            )
            _push_visit(booking)
            return True
        tell(
            NoticeKind.VISIT_ALERTS,
            booking,
            alert=kind,
            provider=booking.provider.user.full_name or "The provider",
            window=window,
            by_clock=_hhmm(booking.check_in_by, booking),
            checked_in=booking.checked_in_at is not None,
            due_clock=_hhmm(booking.check_out_due, booking) if booking.checked_in_at is not None else "",
        )
        _push_visit(booking)
    return True


def visit_locations_purge(*, now: dt.datetime | None = None) -> int:
    """Clear the check-in and check-out positions of visits over 90 days old; returns how many."""
    now = now or timezone.now()
    cutoff = now - LOCATION_KEPT
    old = Q(checked_in_at__lt=cutoff) | Q(checked_in_at__isnull=True, checked_out_at__lt=cutoff)
    has_position = Q(check_in_latitude__isnull=False) | Q(check_out_latitude__isnull=False)
    return Booking.objects.filter(old & has_position).update(
        check_in_latitude=None, check_in_longitude=None, check_out_latitude=None, check_out_longitude=None
    )


def booking_complete(*, booking_id: int, actor: User) -> Booking:
    """The spec's "Mark as Completed": a check-out without a report (the provider may add it within 24 hours)."""
    return booking_check_out(booking_id=booking_id, actor=actor)


def on_provider_suspended(event: ProviderSuspended) -> None:
    """A helper was suspended by a re-check (vetting), inside the suspension's transaction: each of
    her visits still ahead is offered to other helpers at once and its family told "Finding a
    replacement" (bookings.services.replacement, as when a helper cancels); staff see each visit
    flagged, with the reason."""
    ids = replacements_for_suspension(provider_id=event.provider_id, reason=event.reason)
    staff = list(User.objects.filter(user_type=UserType.ADMIN, is_active=True))
    for booking in Booking.objects.filter(pk__in=ids).select_related("provider__user", "service_request", "client"):
        notify_people(
            staff,
            InApp.VISIT_NEEDS_HELPER,
            booking,
            booking_id=booking.pk,
            name=booking.provider.user.full_name or "The helper",
            reason=event.reason,
        )
