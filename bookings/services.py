"""The booking state machine (ARCHITECTURE.md "State machines").

    request open --accept--> booked, booking scheduled (payment pending)
    scheduled --payment succeeded--> confirmed --provider, after the visit start--> completed
    scheduled|confirmed --client, >= 48 h before the visit--> cancelled
    confirmed --admin--> reassigned (still confirmed) | cancelled
    cancelled and completed are final.

A repeating request (issue 18) is accepted as one booking per visit of its series, all or none; the
request stays booked while any of its visits is ahead (_settle_request), and the client may cancel
the rest of a series at once (booking_cancel_rest_by_client).

Every transition: lock the row (booking_lock), run the small check_* functions, save with
update_fields, notify the affected people (system message) and push "booking.updated" on commit.
Payment transitions (mark paid / failed / refunded) live in this module with the same helpers;
the refund of a paid booking is requested in _cancel (one place for every cancel) and made
after the cancel commits (see "refunds" below: the gateway is never called inside a transaction).
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Avg, Count, Q
from django.utils import timezone

from accounts.models import User
from bookings.models import (
    CHECK_IN_FROM,
    LOCATION_KEPT,
    REPORT_EDIT_WINDOW,
    Booking,
    BookingStatus,
    CalendarFeed,
    PaymentStatus,
    RefundStatus,
    Review,
    VisitAlert,
    VisitAlertKind,
    VisitReport,
    VisitReportEdit,
    Wellbeing,
)
from bookings.selectors import visit_alert_due, visits_needing_alert
from circles.models import CareRecipient, CircleRole, validate_time_zone
from circles.notices import notice_send
from circles.selectors import is_organizer, member_user_ids
from core import events
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.notifications import Audience, NoticeKind, notify
from core.realtime import BOOKING_UPDATED, send_on_commit
from providers.models import Provider, VerificationStatus
from providers.selectors import BUSY, TIME_OFF, provider_offers, visit_problems
from providers.selectors import OUTSIDE_HOURS as OUTSIDE_HOURS_PROBLEM
from providers.services import ON_TIME_OFF, OUTSIDE_HOURS
from requests_app.models import CANCELLATION_WINDOW, Repeat, ServiceRequest, TimeWindow
from requests_app.selectors import direct_to_someone_else
from requests_app.services import (
    request_visit_dates,
    service_request_lock,
    service_request_mark_booked,
    service_request_mark_cancelled,
    service_request_mark_completed,
)

logger = logging.getLogger(__name__)

CANCEL_WINDOW_MESSAGE = "This booking cannot be cancelled (less than 48 hours remaining)."
PENDING_VERIFICATION_MESSAGE = (
    "Your provider profile is pending verification. You can accept requests once it has been verified."
)
CENT = Decimal("0.01")


# ---------------------------------------------------------------- helpers


def booking_lock(*, booking_id: int) -> Booking:
    """Re-read a booking under a row lock, with its request and people loaded for messages.

    Caller is inside transaction.atomic. Only the booking row is locked.
    """
    try:
        return (
            Booking.objects.select_for_update(of=("self",))
            .select_related("service_request", "client", "provider__user")
            .get(pk=booking_id)
        )
    except Booking.DoesNotExist:
        raise NotFound("Booking not found.") from None


def check_booking_status(booking: Booking, allowed: Iterable[str], doing: str) -> None:
    allowed = tuple(allowed)
    if booking.status not in allowed:
        names = " or ".join(allowed)
        raise Conflict(f"Only {names} bookings can be {doing}; this one is {booking.status}.")


def check_booking_client(booking: Booking, actor: User, doing: str) -> None:
    """The client's actions on a booking (cancel, review) are for any organizer of the recipient's
    circle (issue 16); a plain member, the provider or an admin gets 403."""
    if not is_organizer(user_id=actor.pk, recipient_id=booking.recipient_id):
        raise PermissionDenied(f"Only an organizer of this care circle can {doing} this booking.")


def check_booking_provider(booking: Booking, actor: User, doing: str) -> None:
    if booking.provider.user_id != actor.pk:
        raise PermissionDenied(f"Only the provider of this booking can {doing} it.")


def check_admin(actor: User) -> None:
    if not actor.is_admin:
        raise PermissionDenied("Admin access required")


def check_cancel_window(booking: Booking, now: dt.datetime) -> None:
    """A client may cancel up to 48 hours before the visit start (site time zone)."""
    if booking.visit_start - now < CANCELLATION_WINDOW:
        raise Conflict(CANCEL_WINDOW_MESSAGE)


def booking_can_client_cancel(booking: Booking, now: dt.datetime | None = None) -> bool:
    """For display: would the client's cancel be allowed now?"""
    now = now or timezone.now()
    return booking.status in (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED) and (
        booking.visit_start - now >= CANCELLATION_WINDOW
    )


def cancel_refund_amount(booking: Booking) -> Decimal:
    """What cancelling the booking returns to the card: a paid booking is refunded in full
    (_cancel requests it), an unpaid one was never charged, so nothing. The one rule the cancel
    and its dialogs (BookingSerializer.cancelRefund) read."""
    if booking.payment_status != PaymentStatus.PAID:
        return Decimal("0.00")
    return Decimal(booking.total_amount).quantize(CENT)


def _when(booking: Booking) -> str:
    label = TimeWindow(booking.scheduled_time).label if booking.scheduled_time in TimeWindow.values else ""
    date = f"{booking.scheduled_date:%A, %B} {booking.scheduled_date.day}, {booking.scheduled_date.year}"
    return f"{date}, {label}" if label else date


def _push(booking: Booking, extra_user_ids: Iterable[str] = (), **more: Any) -> None:
    """booking.updated, on commit, to every member of the recipient's circle and the provider
    (`more`: fields of the visit's progress to add, see _push_visit)."""
    circle = member_user_ids(recipient_id=booking.recipient_id) or [booking.client_id]
    user_ids = list(dict.fromkeys([*circle, booking.provider.user_id, *extra_user_ids]))
    send_on_commit(
        user_ids,
        BOOKING_UPDATED,
        {"id": booking.pk, "status": booking.status, "paymentStatus": booking.payment_status, **more},
    )


def _notify(receivers: Iterable[User], content: str, booking: Booking) -> None:
    """A system message without a kind (in the app only), to the people the caller names."""
    notify(receivers=receivers, content=content, booking=booking)


def _tell(
    kind: str,
    booking: Booking,
    text: str,
    texts: dict[str, str] | None = None,
    *,
    helper: User | None = None,
    payer: User | None = None,
    skip: Iterable[User] = (),
    **context: Any,
) -> dict[int, str]:
    """A notice of `kind` about the booking to the audience the kind declares (the circle of its
    recipient, its helper, the payer, staff: core.notifications.AUDIENCE), each part in its
    own words (`texts`); `context` is what the email shows beyond the booking."""
    return notice_send(
        kind,
        text=text,
        texts=texts,
        booking=booking,
        context=context,
        recipient_id=booking.recipient_id,
        client=booking.client,
        helpers=[helper or booking.provider.user],
        payer=payer,
        skip=skip,
    )


def _split_by_role(booking: Booking) -> tuple[list[User], list[User]]:
    """The circle's organizers and its plain members (the organizers: the client alone if none)."""

    def with_role(role: str) -> list[User]:
        # One filter() call: the recipient and the role of the same membership row.
        return list(
            User.objects.filter(
                circle_memberships__recipient_id=booking.recipient_id, circle_memberships__role=role
            ).order_by("circle_memberships__id")
        )

    return with_role(CircleRole.ORGANIZER) or [booking.client], with_role(CircleRole.MEMBER)


def organizers_of(booking: Booking) -> list[User]:
    """Who pays: the organizers of the booking's recipient (the client alone if none)."""
    return _split_by_role(booking)[0]


def _refund_due(booking: Booking) -> str:
    """The amount a cancel refunds (for the email), "" when nothing was paid."""
    return str(booking.total_amount) if booking.refund_status == RefundStatus.PENDING else ""


def booking_total(*, hourly_rate: Decimal, duration_minutes: int) -> Decimal:
    """hourlyRate x duration / 60, rounded to cents (half up)."""
    return (Decimal(hourly_rate) * Decimal(duration_minutes) / Decimal(60)).quantize(CENT, rounding=ROUND_HALF_UP)


# ---------------------------------------------------------------- accept


def _provider_of(actor: User) -> Provider:
    try:
        return Provider.objects.select_related("user").get(user=actor)
    except Provider.DoesNotExist:
        raise PermissionDenied("Only providers can accept service requests.") from None


def check_can_accept(provider: Provider) -> None:
    if provider.verification_status == VerificationStatus.PENDING:
        raise PermissionDenied(PENDING_VERIFICATION_MESSAGE)
    if provider.verification_status != VerificationStatus.VERIFIED:
        raise PermissionDenied("Only verified providers can accept service requests.")
    if not provider.is_active:
        raise PermissionDenied("Your provider profile is inactive.")
    if provider.hourly_rate is None:
        raise Conflict("Set your hourly rate before accepting requests.")


PROVIDER_BUSY = "You already have a visit at that time."
PROVIDER_BUSY_FOR_ADMIN = "This provider already has a visit at that time."


def check_provider_free(booking: Booking, provider: Provider, message: str = PROVIDER_BUSY) -> None:
    """409 when another scheduled or confirmed visit of `provider` overlaps this booking's time.

    The services' check, for the message; on PostgreSQL the constraint Booking.NO_OVERLAP also
    refuses what a concurrent accept slips past it (_save_visit)."""
    start = booking.visit_start
    end = start + dt.timedelta(minutes=booking.duration)
    clash = Booking.objects.filter(
        provider=provider,
        status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED),
        starts_at__lt=end,
        ends_at__gt=start,
    ).exclude(pk=booking.pk)
    if clash.exists():
        raise Conflict(message)


def _save_visit(booking: Booking, message: str, **kwargs: Any) -> None:
    """booking.save(), with the overlap constraint's refusal as the 409 check_provider_free gives."""
    try:
        with transaction.atomic():
            booking.save(**kwargs)
    except IntegrityError as exc:
        if Booking.NO_OVERLAP in str(exc):
            raise Conflict(message) from None
        raise


def _day(day: dt.date) -> str:
    return f"{day:%A, %B} {day.day}"


def _days(days: list[dt.date]) -> str:
    """ "Tuesday, December 8", "... and Tuesday, December 15", "..., ... and ..."."""
    names = [_day(day) for day in days]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


# How the 409 names the dates of a series she cannot make, by why ({days}: "Tuesday, December 8").
PROBLEM_WORDS = {
    TIME_OFF: ("{days} is your time off.", "{days} are your time off."),
    OUTSIDE_HOURS_PROBLEM: ("{days} is outside your available hours.", "{days} are outside your available hours."),
    BUSY: ("You already have a visit on {days}.", "You already have a visit on {days}."),
}
SINGLE_PROBLEM = {TIME_OFF: ON_TIME_OFF, OUTSIDE_HOURS_PROBLEM: OUTSIDE_HOURS, BUSY: PROVIDER_BUSY}
NOT_OFFERED = "You do not offer {service}, so you cannot accept this request."
REASSIGN_NOT_OFFERED = "{name} does not offer {service}. Choose a provider who does."
REASSIGN_PROBLEM = {
    TIME_OFF: "This provider is on time off that day.",
    OUTSIDE_HOURS_PROBLEM: "This visit is outside this provider's available hours.",
}


def _visit_interval(visit: Booking) -> tuple[dt.datetime, dt.datetime]:
    start = visit.visit_start
    return start, start + dt.timedelta(minutes=visit.duration)


def _series_problems(visits: list[Booking], provider: Provider) -> list[str]:
    """Why the provider cannot make each visit ("" when she can): providers.selectors.visit_problems,
    the one predicate the list of open requests also asks."""
    return visit_problems(provider, [_visit_interval(v) for v in visits])


def _series_refusal(visits: list[Booking], problems: list[str]) -> Conflict:
    """409 naming the dates she cannot do and why ("on your time off" for time off). When some
    visits of a series remain, errors.unavailableDates lists the others' dates: she may accept
    the series without them (skip_unavailable)."""
    if len(visits) == 1:
        return Conflict(SINGLE_PROBLEM[problems[0]])
    parts = []
    for problem, words in PROBLEM_WORDS.items():
        days = [v.scheduled_date for v, p in zip(visits, problems, strict=True) if p == problem]
        if days:
            parts.append(words[len(days) > 1].format(days=_days(days)))
    left = sum(1 for p in problems if not p)
    unavailable = [v.scheduled_date.isoformat() for v, p in zip(visits, problems, strict=True) if p]
    if not left:
        return Conflict(f"You cannot make any visit of this series: {' '.join(parts)}")
    return Conflict(
        f"{' '.join(parts)} You can accept the other {left} visit{'s' if left != 1 else ''} without "
        f"{'it' if len(unavailable) == 1 else 'them'}; the family will be told.",
        errors={"unavailableDates": unavailable},
    )


def series_summary(service_request: ServiceRequest, visits: int) -> str:
    """ "every week for 4 visits" (the notices' words for a series)."""
    return f"{Repeat(service_request.repeat).label.lower()} for {visits} visits"


def service_request_accept(*, service_request_id: int, actor: User, skip_unavailable: bool = False) -> Booking:
    """A verified provider accepts an open request of someone else; the booking is created. A
    repeating request (issue 18) books every visit of its series at once, each its own booking
    (series_index 1, 2, ..., priced per visit), or none: a visit outside the provider's hours or
    over another of their visits, or on their time off, refuses the whole series (409 naming the
    dates and why), unless `skip_unavailable`: then the series is booked without those dates (at
    least one visit left) and the family is told which were left out. A request for a service the
    provider does not offer is a 409 too. Returns the (first) booking.

    Race-safe: the request moves open -> booked with a conditional UPDATE, so of N concurrent
    accepts exactly one wins and the others get a 409. The overlap constraint refuses a visit that
    a concurrent accept of another request slipped past the check; the transaction then rolls
    back the whole series.
    """
    provider = _provider_of(actor)
    check_can_accept(provider)
    with transaction.atomic():
        service_request = ServiceRequest.objects.filter(pk=service_request_id).first()
        if service_request is None:
            raise NotFound("Service request not found.")
        if service_request.client_id == actor.pk:
            raise PermissionDenied("You cannot accept your own service request.")
        if direct_to_someone_else(service_request, provider_id=provider.pk, now=timezone.now()):
            raise NotFound("Service request not found.")  # sent to another provider: not open to this one
        if not provider_offers(provider, service_request.category.slug):
            raise Conflict(NOT_OFFERED.format(service=service_request.category.name))
        service_request_mark_booked(service_request_id=service_request_id)
        # The UPDATE holds the row lock until commit; re-read the values it left.
        service_request.refresh_from_db()
        if service_request.preferred_date is None:
            raise Conflict("This request has no preferred date yet.")
        dates = request_visit_dates(service_request)
        in_series = bool(service_request.repeat) and len(dates) > 1
        total = booking_total(hourly_rate=provider.hourly_rate, duration_minutes=service_request.estimated_duration)
        # Read once: each visit's start is on the clock of the person cared for (her time_zone).
        recipient = service_request.recipient
        visits = [
            Booking(
                service_request=service_request,
                provider=provider,
                client_id=service_request.client_id,
                recipient=recipient,
                scheduled_date=day,
                scheduled_time=service_request.preferred_time or TimeWindow.FLEXIBLE,
                duration=service_request.estimated_duration,
                total_amount=total,
                series_index=index if in_series else None,
            )
            for index, day in enumerate(dates, start=1)
        ]
        if visits[0].visit_start <= timezone.now():
            raise Conflict("The preferred date of this request has passed.")
        problems = _series_problems(visits, provider)
        left_out = [v.scheduled_date for v, p in zip(visits, problems, strict=True) if p]
        if left_out and not (skip_unavailable and in_series and len(left_out) < len(visits)):
            raise _series_refusal(visits, problems)
        visits = [v for v, p in zip(visits, problems, strict=True) if not p]
        # The visits kept keep their places in the series ("Visit 3 of 4": the family was told which
        # dates were left out).
        booking = visits[0]
        for visit in visits:
            _save_visit(visit, PROVIDER_BUSY)
        name = provider.user.full_name or "A verified provider"
        if in_series:
            series = series_summary(service_request, len(visits))
            # Organizers pay, so they are asked to; plain members hear who will visit. A series
            # accepted without the dates the helper cannot make names them to everyone.
            not_booked = f" {name} cannot come on {_days(left_out)}, so those dates are not booked." if left_out else ""
            _tell(
                NoticeKind.REQUEST_ACCEPTED,
                booking,
                f'Good news: {name} accepted the request "{service_request.title}". The visits are booked '
                f"{series}, starting {_when(booking)}." + not_booked,
                {
                    Audience.ORGANIZERS: f'Good news: {name} accepted your request "{service_request.title}". '
                    f"The visits are booked {series}, starting {_when(booking)}. Each visit: "
                    f"${booking.total_amount}, paid per visit." + not_booked,
                },
                left_out=_days(left_out) if left_out else "",
            )
            _notify(
                [provider.user],
                f'You accepted "{service_request.title}" {series}, starting {_when(booking)}. '
                + (f"Not booked (you are unavailable): {_days(left_out)}. " if left_out else "")
                + "You can now contact the client.",
                booking,
            )
        else:
            _tell(
                NoticeKind.REQUEST_ACCEPTED,
                booking,
                f'Good news: {name} accepted the request "{service_request.title}". '
                f"The visit is booked for {_when(booking)}.",
                {
                    Audience.ORGANIZERS: f'Good news: {name} accepted your request "{service_request.title}". '
                    f"The visit is booked for {_when(booking)}. Total: ${booking.total_amount}, to pay to "
                    "confirm it.",
                },
            )
            _notify(
                [provider.user],
                f'You accepted "{service_request.title}" for {_when(booking)}. You can now contact the client.',
                booking,
            )
        for visit in visits:
            _push(visit)
    return booking


# ---------------------------------------------------------------- cancel


def _cancel(booking: Booking, *, actor: User, reason: str) -> None:
    """Cancel a booking. Caller holds the row lock and has checked actor, state and rules.

    The one place every cancel goes through. A paid booking's full refund is requested here and
    made once the caller's transaction has committed (_refund_request): the cancel stands
    whatever the gateway answers, and a cancel that rolls back never refunds.
    """
    booking.status = BookingStatus.CANCELLED
    booking.cancelled_at = timezone.now()
    booking.cancellation_reason = reason
    booking.cancelled_by = actor
    booking.save(update_fields=["status", "cancelled_at", "cancellation_reason", "cancelled_by", "updated_at"])
    _settle_request(booking)
    if cancel_refund_amount(booking):
        _refund_request(booking)


def _settle_request(booking: Booking) -> None:
    """The request's status once one of its visits ended (cancelled or completed; caller's transaction).

    A series (issue 18) stays booked while any visit is still ahead; after its last one the request
    is completed when any visit took place, cancelled when none did. A one-off visit is the last
    one. The request's row is locked first, so two visits ending at once see each other's end.
    """
    service_request_lock(service_request_id=booking.service_request_id)
    visits = Booking.objects.filter(service_request_id=booking.service_request_id)
    statuses = set(visits.values_list("status", flat=True))
    if statuses & {BookingStatus.SCHEDULED, BookingStatus.CONFIRMED}:
        return
    if BookingStatus.COMPLETED in statuses:
        service_request_mark_completed(service_request_id=booking.service_request_id)
    else:
        service_request_mark_cancelled(service_request_id=booking.service_request_id)


def _after_refund_sent(booking: Booking) -> Booking:
    """The booking as the refund after the commit left it (when that ran: outside any outer transaction)."""
    if booking.refund_status == RefundStatus.PENDING:
        booking.refresh_from_db(fields=["payment_status", "refund_status", "updated_at"])
    return booking


def _cancel_by_client(booking_id: int, actor: User, reason: str, *, tell: bool = True) -> Booking:
    """booking_cancel_by_client; without `tell`, nobody is told (cancel-rest tells once for the batch)."""
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, "cancel")
        check_booking_status(booking, (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED), "cancelled")
        check_cancel_window(booking, timezone.now())
        _cancel(booking, actor=actor, reason=reason.strip())
        if tell:
            title = booking.service_request.title
            by = actor.full_name or "an organizer"
            _tell(
                NoticeKind.BOOKING_CANCELLED,
                booking,
                f'The booking for "{title}" was cancelled by {by}.',
                {
                    f"user:{actor.pk}": f'Your booking for "{title}" was cancelled.',
                    Audience.HELPER: f'The client cancelled the booking for "{title}" on {_when(booking)}.'
                    + (f" Reason: {booking.cancellation_reason}" if booking.cancellation_reason else ""),
                },
                by=by,
                by_helper="the client",
                actor=actor.pk,
                refund=_refund_due(booking),
            )
        _push(booking)
    return _after_refund_sent(booking)


def booking_cancel_by_client(*, booking_id: int, actor: User, reason: str = "") -> Booking:
    """The client cancels a scheduled or confirmed booking at least 48 hours before the visit. One
    visit of a series (issue 18) leaves the others, and the request, booked."""
    return _cancel_by_client(booking_id, actor, reason)


NOT_IN_SERIES = "This visit is not part of a series."
NOTHING_TO_CANCEL = "None of the remaining visits can be cancelled."


def _stays(visit: Booking) -> str:
    return f"The visit on {_day(visit.scheduled_date)} is less than 48 hours away and stays booked."


def _series_rest(booking: Booking) -> list[Booking]:
    """This visit of a series and every later one still to come, in order."""
    return list(
        Booking.objects.filter(
            service_request_id=booking.service_request_id,
            series_index__gte=booking.series_index,
            status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED),
        ).order_by("series_index")
    )


def booking_cancel_rest_preview(*, booking_id: int, actor: User) -> dict[str, Any]:
    """What cancelling the rest of the series from this visit would do now, for its dialog: the
    visits it would cancel and keep (booking_cancel_rest_by_client's rules) and what comes back to
    the card (cancel_refund_amount of each visit cancelled). The same checks as the cancel: the
    organizer (403), a visit of a series (409).

    Returns {"cancelled": [booking ids], "kept": [booking ids], "refund": Decimal}.
    """
    booking = Booking.objects.get(pk=booking_id)
    check_booking_client(booking, actor, "cancel")
    if booking.series_index is None:
        raise Conflict(NOT_IN_SERIES)
    now = timezone.now()
    rest = _series_rest(booking)
    cancelled = [visit for visit in rest if booking_can_client_cancel(visit, now)]
    return {
        "cancelled": [visit.pk for visit in cancelled],
        "kept": [visit.pk for visit in rest if visit not in cancelled],
        "refund": sum((cancel_refund_amount(visit) for visit in cancelled), Decimal("0.00")),
    }


def booking_cancel_rest_by_client(*, booking_id: int, actor: User, reason: str = "") -> dict[str, Any]:
    """The client cancels this visit of a series and every later one still ahead (issue 18), each
    through the one-visit cancel (its own transaction, the 48-hour rule, a refund when paid). Visits
    less than 48 hours away stay booked, and the answer says which; 409 when none can be cancelled.
    The provider and the circle are told once for the batch.

    Returns {"message", "cancelled": [booking ids], "kept": [booking ids]}.
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, "cancel")
        if booking.series_index is None:
            raise Conflict(NOT_IN_SERIES)
        rest = _series_rest(booking)
    now = timezone.now()
    cancelled: list[Booking] = []
    kept: list[Booking] = []
    for visit in rest:
        if not booking_can_client_cancel(visit, now):
            kept.append(visit)
            continue
        try:
            cancelled.append(_cancel_by_client(visit.pk, actor, reason, tell=False))
        except Conflict:
            continue  # cancelled meanwhile (another tab), or its 48 hours began: not this batch's
    notes = [_stays(visit) for visit in kept]
    if not cancelled:
        raise Conflict(" ".join([NOTHING_TO_CANCEL, *notes]))
    first, last = cancelled[0], cancelled[-1]
    title = first.service_request.title
    count = len(cancelled)
    visits = "1 visit" if count == 1 else f"{count} visits"
    span = _day(first.scheduled_date) if count == 1 else f"{_day(first.scheduled_date)} to {_day(last.scheduled_date)}"
    refund = sum((b.total_amount for b in cancelled if b.refund_status != RefundStatus.NONE), Decimal(0))
    refund_text = str(refund) if refund else ""
    with transaction.atomic():
        by = actor.full_name or "an organizer"
        reason_text = first.cancellation_reason
        _tell(
            NoticeKind.BOOKING_CANCELLED,
            first,
            f'The rest of the series "{title}" was cancelled by {by}: {visits} ({span}).',
            {
                f"user:{actor.pk}": f'You cancelled the rest of the series "{title}": {visits} ({span}).',
                Audience.HELPER: f'The client cancelled the rest of the series "{title}": {visits} ({span}).'
                + (f" Reason: {reason_text}" if reason_text else ""),
            },
            by=by,
            by_helper="the client",
            actor=actor.pk,
            refund=refund_text,
        )
    message = " ".join([f"{visits.capitalize()} cancelled.", *notes])
    return {"message": message, "cancelled": [b.pk for b in cancelled], "kept": [b.pk for b in kept]}


def booking_cancel_by_admin(*, booking_id: int, actor: User, reason: str) -> Booking:
    """An admin cancels a confirmed booking; a reason is required (audited by adminpanel.services)."""
    check_admin(actor)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(
            "A cancellation reason is required.", errors={"reason": ["A cancellation reason is required."]}
        )
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_status(booking, (BookingStatus.CONFIRMED,), "cancelled by an admin")
        _cancel(booking, actor=actor, reason=reason)
        _tell(
            NoticeKind.BOOKING_CANCELLED,
            booking,
            f'The booking for "{booking.service_request.title}" on {_when(booking)} was cancelled by Kindly '
            f"support. Reason: {reason}",
            by="Kindly support",
            refund=_refund_due(booking),
        )
        _push(booking)
    return _after_refund_sent(booking)


def booking_cancel_on_account_closure(*, booking_id: int, actor: User) -> Booking:
    """The client or the provider of a booking closes their Kindly account: the booking is cancelled.

    Only for a scheduled or confirmed booking that starts at least 48 hours from now (closing
    an account never undoes the 48-hour rule; marketplace.account_lifecycle.services.account_close refuses to close
    while a visit is nearer). A paid booking is refunded in full after the commit; the other party is told.
    A client's own closure goes through booking_cancel_by_client; this covers both parties.
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        is_client = booking.client_id == actor.pk
        if not is_client and booking.provider.user_id != actor.pk:
            raise PermissionDenied("Only the parties of this booking can cancel it.")
        check_booking_status(booking, (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED), "cancelled")
        check_cancel_window(booking, timezone.now())
        party = "client" if is_client else "provider"
        _cancel(booking, actor=actor, reason=f"The {party} closed their Kindly account.")
        title = booking.service_request.title
        gone = (
            f'The booking for "{title}" on {_when(booking)} was cancelled because the {party} closed their '
            "Kindly account."
        )
        # Who closed the account hears nothing; the rest of the kind's audience is told.
        _tell(
            NoticeKind.BOOKING_CANCELLED,
            booking,
            gone,
            {
                Audience.ORGANIZERS: gone
                + ("" if is_client else " Any payment will be refunded in full. You are welcome to post a new request.")
            },
            skip=[actor],
            by=f"the {party}, who closed their Kindly account",
            refund=_refund_due(booking),
        )
        _push(booking)
    return _after_refund_sent(booking)


# ---------------------------------------------------------------- complete, reassign


def booking_complete(*, booking_id: int, actor: User) -> Booking:
    """The spec's "Mark as Completed": a check-out without a report (the provider may add it within 24 hours)."""
    return booking_check_out(booking_id=booking_id, actor=actor)


def booking_reassign(*, booking_id: int, actor: User, new_provider_id: int, reason: str = "") -> Booking:
    """An admin moves a confirmed booking to another verified provider (the price stays as booked).

    Audited by adminpanel.services.admin_booking_reassign.
    """
    check_admin(actor)
    reason = (reason or "").strip()
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_status(booking, (BookingStatus.CONFIRMED,), "reassigned")
        new_provider = Provider.objects.select_related("user").filter(pk=new_provider_id).first()
        if new_provider is None:
            raise InvalidInput("Provider not found.", errors={"newProviderId": ["Provider not found."]})
        if new_provider.verification_status != VerificationStatus.VERIFIED or not new_provider.is_active:
            raise InvalidInput("Choose a verified provider.", errors={"newProviderId": ["Choose a verified provider."]})
        if new_provider.pk == booking.provider_id:
            raise InvalidInput(
                "This provider already has the booking.",
                errors={"newProviderId": ["This provider already has the booking."]},
            )
        if new_provider.user_id == booking.client_id:
            raise InvalidInput(
                "A provider cannot be booked by themselves.",
                errors={"newProviderId": ["A provider cannot be booked by themselves."]},
            )
        service = booking.service_request.category
        if not provider_offers(new_provider, service.slug):
            name = new_provider.user.first_name or "This provider"
            message = REASSIGN_NOT_OFFERED.format(name=name, service=service.name)
            raise InvalidInput(message, errors={"newProviderId": [message]})
        problem = visit_problems(new_provider, [_visit_interval(booking)])[0]
        if problem in REASSIGN_PROBLEM:
            raise Conflict(REASSIGN_PROBLEM[problem])
        check_provider_free(booking, new_provider, PROVIDER_BUSY_FOR_ADMIN)
        old_provider = booking.provider
        booking.provider = new_provider
        _save_visit(booking, PROVIDER_BUSY_FOR_ADMIN, update_fields=["provider", "updated_at"])
        title = booking.service_request.title
        new_name = new_provider.user.full_name or "a verified provider"
        # The helper taken off hears it in the app only: the booking is no longer hers.
        _notify([old_provider.user], f'Your booking for "{title}" was reassigned to another provider.', booking)
        _tell(
            NoticeKind.BOOKING_REASSIGNED,
            booking,
            f'The booking for "{title}" on {_when(booking)} has a new provider: {new_name}.',
            {Audience.HELPER: f'You have been assigned the booking for "{title}" on {_when(booking)}.'},
            helper=new_provider.user,
        )
        _push(booking, extra_user_ids=[old_provider.user_id])
    return booking


# ---------------------------------------------------------------- payment (driven by payments.services)
#
# Called for gateway events, which may repeat and arrive out of order, so each one is safe to
# repeat and never moves paymentStatus backwards: pending -> failed -> paid -> refunded, where
# a failure only follows pending/failed and refunded is final. Each returns what it did:
# "paid", "failed", "refunded", "ignored" (nothing to change) or "unknown" (no such intent).


def booking_lock_by_payment_intent(*, payment_intent_id: str) -> Booking | None:
    """Like booking_lock, found by its payment intent id; None when no booking has it."""
    if not payment_intent_id:
        return None
    return (
        Booking.objects.select_for_update(of=("self",))
        .select_related("service_request", "client", "provider__user")
        .filter(payment_intent_id=payment_intent_id)
        .first()
    )


def booking_payment_succeeded(*, payment_intent_id: str, card_last4: str = "", payer: User | None = None) -> str:
    """The gateway took the money: paymentStatus paid, and a scheduled booking becomes confirmed.

    A booking already paid or refunded is left alone. A booking cancelled before the money
    arrived (paid in another tab) is refunded in full right after this transaction commits.
    Returns "refunding" for that one. `payer`: who paid, when known (thanked; the other organizers
    read that they paid).
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        if booking.payment_status in (PaymentStatus.PAID, PaymentStatus.REFUNDED):
            return "ignored"
        booking.payment_status = PaymentStatus.PAID
        fields = ["payment_status", "updated_at"]
        if booking.status == BookingStatus.SCHEDULED:
            booking.status = BookingStatus.CONFIRMED
            fields.append("status")
        booking.save(update_fields=fields)
        title = booking.service_request.title
        if booking.status == BookingStatus.CANCELLED:
            _refund_request(booking)
            # Money news goes to those who pay, never to the circle's plain members.
            _notify(
                organizers_of(booking),
                f'Your payment of ${booking.total_amount} for "{title}" arrived after the booking was cancelled, '
                "so it will be refunded in full.",
                booking,
            )
            _push(booking)
            return "refunding"
        # The payer is thanked (with the card, when the gateway said which); the other organizers
        # read who paid; plain members get no money news (they see the booking confirmed).
        paid = (
            f'Payment of ${booking.total_amount} received for "{title}". The booking on {_when(booking)} is confirmed.'
        )
        payer_name = (payer.full_name or payer.email) if payer is not None else ""
        _tell(
            NoticeKind.PAYMENT_RECEIVED,
            booking,
            f'{payer_name} paid ${booking.total_amount} for "{title}". The booking on {_when(booking)} is confirmed.'
            if payer is not None
            else paid,
            {
                Audience.PAYER: f'Thank you: your payment of ${booking.total_amount} for "{title}" was received. '
                f"The booking on {_when(booking)} is confirmed."
            },
            payer=payer,
            last4=card_last4,
            payer_name=payer_name,
        )
        _tell(
            NoticeKind.BOOKING_PAID,
            booking,
            f'The client paid for "{title}". Your booking on {_when(booking)} is confirmed.',
        )
        _push(booking)
    return "paid"


def booking_payment_failed(*, payment_intent_id: str, message: str = "", payer: User | None = None) -> str:
    """A payment attempt was declined: paymentStatus failed (the client may try again).

    Ignored once the booking is paid or refunded (a late failure of an earlier attempt). `payer`:
    who tried, when known (told alone: the other organizers did not try).
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        if booking.payment_status not in (PaymentStatus.PENDING, PaymentStatus.FAILED):
            return "ignored"
        if booking.payment_status != PaymentStatus.FAILED:
            booking.payment_status = PaymentStatus.FAILED
            booking.save(update_fields=["payment_status", "updated_at"])
        _notify(
            [payer] if payer is not None else organizers_of(booking),
            f'Your payment for "{booking.service_request.title}" did not go through'
            + (f": {message}" if message else ".")
            + " You can try again from the payment page.",
            booking,
        )
        _push(booking)
    return "failed"


def booking_refunded(*, payment_intent_id: str) -> str:
    """The gateway says the payment was refunded in full: paymentStatus refunded, refundStatus succeeded.

    Confirms a refund asked for on cancel (pending, or failed when the answer never arrived) and
    records one made elsewhere (e.g. Stripe's dashboard). Final: a late "succeeded" for the same
    intent changes nothing afterwards.
    """
    with transaction.atomic():
        booking = booking_lock_by_payment_intent(payment_intent_id=payment_intent_id)
        if booking is None:
            return "unknown"
        if booking.payment_status == PaymentStatus.REFUNDED:
            if booking.refund_status != RefundStatus.SUCCEEDED:
                booking.refund_status = RefundStatus.SUCCEEDED
                booking.save(update_fields=["refund_status", "updated_at"])
            return "ignored"
        ours = booking.refund_status in (RefundStatus.PENDING, RefundStatus.FAILED)
        booking.payment_status = PaymentStatus.REFUNDED
        booking.refund_status = RefundStatus.SUCCEEDED
        booking.save(update_fields=["payment_status", "refund_status", "updated_at"])
        if ours:
            _notify_refunded(booking)
        else:
            _notify(
                [*organizers_of(booking), booking.provider.user],
                f'The payment of ${booking.total_amount} for "{booking.service_request.title}" was refunded in full.',
                booking,
            )
        _push(booking)
    return "refunded"


# ---------------------------------------------------------------- refunds
#
# A paid booking that is cancelled is refunded in full. The booking's side lives here: in the
# cancel's transaction (_refund_request) refundStatus becomes pending and payments is asked,
# through the core.events.RefundRequested event, to record the refund and send it to the
# gateway once the transaction has committed (payments.refunds: the gateway is never called
# inside a transaction, and a cancel that rolls back never returns money). The gateway's answer
# comes back through booking_refund_succeeded / booking_refund_failed below.


def _refund_request(booking: Booking) -> None:
    """Ask for the full refund of a paid booking. Caller holds its row lock inside transaction.atomic."""
    booking.refund_status = RefundStatus.PENDING
    booking.save(update_fields=["refund_status", "updated_at"])
    # payments records the refund now (with the cancel) and calls the gateway after the commit.
    events.publish(events.RefundRequested(booking_id=booking.pk))


def _notify_refunded(booking: Booking) -> None:
    _notify(
        organizers_of(booking),
        f'Your payment of ${booking.total_amount} for "{booking.service_request.title}" has been refunded in full.',
        booking,
    )


def booking_refund_succeeded(booking: Booking) -> bool:
    """The gateway refunded a pending refund: paymentStatus refunded, refundStatus succeeded; the
    client is told. Caller holds the row lock. False when the webhook was quicker (nothing changes)."""
    if booking.payment_status == PaymentStatus.REFUNDED:
        return False
    booking.payment_status = PaymentStatus.REFUNDED
    booking.refund_status = RefundStatus.SUCCEEDED
    booking.save(update_fields=["payment_status", "refund_status", "updated_at"])
    _notify_refunded(booking)
    _push(booking)
    return True


def booking_refund_failed(booking: Booking) -> None:
    """The refund failed: refundStatus failed; the client hears that support will see to it.
    Caller holds the row lock (payments.refunds records why and how to retry)."""
    booking.refund_status = RefundStatus.FAILED
    booking.save(update_fields=["refund_status", "updated_at"])
    _notify(
        organizers_of(booking),
        f'We could not refund your payment of ${booking.total_amount} for "{booking.service_request.title}" '
        "right away. Kindly support has been told and will make sure it is refunded in full; you do not "
        "need to do anything.",
        booking,
    )
    _push(booking)


def booking_refund_retried(booking: Booking) -> None:
    """An admin retries a failed refund: refundStatus pending again. Caller holds the row lock."""
    booking.refund_status = RefundStatus.PENDING
    booking.save(update_fields=["refund_status", "updated_at"])


# ---------------------------------------------------------------- reviews


def review_create(*, booking_id: int, actor: User, rating: int, comment: str = "") -> Review:
    """An organizer of the recipient's circle reviews a completed booking, once per booking; the
    provider's rating and totalReviews are recomputed.

    Locks the booking (one review per booking) then the provider row, and recomputes with an
    aggregate, so concurrent reviews of one provider stay right.
    """
    if isinstance(rating, bool) or not isinstance(rating, int) or not 1 <= rating <= 5:
        raise InvalidInput("Rating must be a whole number from 1 to 5.", errors={"rating": ["Must be 1 to 5."]})
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, "review")
        check_booking_status(booking, (BookingStatus.COMPLETED,), "reviewed")
        # Any organizer of the circle may review, once per booking for the whole circle (the row
        # lock above orders two organizers' attempts): one visit counts once in the provider's rating.
        earlier = Review.objects.filter(booking=booking).values_list("reviewer_id", flat=True).first()
        if earlier == actor.pk:
            raise Conflict("You have already reviewed this booking.")
        if earlier is not None:
            raise Conflict("Someone in this care circle has already reviewed this booking.")
        provider = Provider.objects.select_for_update().get(pk=booking.provider_id)
        review = Review.objects.create(
            booking=booking, reviewer=actor, reviewed_id=provider.user_id, rating=rating, comment=comment.strip()
        )
        stats = Review.objects.filter(reviewed_id=provider.user_id).aggregate(avg=Avg("rating"), n=Count("id"))
        provider.rating = Decimal(stats["avg"] or 0).quantize(CENT, rounding=ROUND_HALF_UP)
        provider.total_reviews = stats["n"]
        provider.save(update_fields=["rating", "total_reviews", "updated_at"])
        _notify(
            [booking.provider.user],
            f'You received a {rating}-star review for "{booking.service_request.title}".',
            booking,
        )
    return review


__all__ = [
    "CANCEL_WINDOW_MESSAGE",
    "PENDING_VERIFICATION_MESSAGE",
    "booking_can_client_cancel",
    "booking_cancel_by_admin",
    "booking_cancel_by_client",
    "booking_cancel_rest_by_client",
    "booking_cancel_on_account_closure",
    "booking_complete",
    "booking_lock",
    "booking_lock_by_payment_intent",
    "booking_payment_failed",
    "booking_payment_succeeded",
    "booking_refund_failed",
    "booking_refund_retried",
    "booking_refund_succeeded",
    "booking_refunded",
    "booking_reassign",
    "booking_total",
    "check_admin",
    "check_booking_client",
    "check_booking_provider",
    "check_booking_status",
    "check_cancel_window",
    "review_create",
    "service_request_accept",
]


# ---------------------------------------------------------------- calendar feed


def calendar_feed_token(*, user: User) -> str:
    """The user's private calendar feed token (bookings.models.CalendarFeed), made on first use."""
    feed, _ = CalendarFeed.objects.get_or_create(user=user, defaults={"token": secrets.token_urlsafe(32)})
    return feed.token


@transaction.atomic
def calendar_feed_reset(*, user: User) -> str:
    """A new token: the old feed address stops working at once."""
    feed, created = CalendarFeed.objects.select_for_update().get_or_create(
        user=user, defaults={"token": secrets.token_urlsafe(32)}
    )
    if not created:
        feed.token = secrets.token_urlsafe(32)
        feed.save(update_fields=["token", "updated_at"])
    return feed.token


# ---------------------------------------------------------------- the visit: check-in, check-out, report, alerts
#
#   confirmed --provider, from 30 min before the start--> checked in (checked_in_at)
#   confirmed (checked in or not) --provider check-out, after the start--> completed (checked_out_at)
#   an hour before the latest start that fits the window (Booking.check_in_by) -> the provider is
#   reminded; no check-in by then -> "late" alert; no check-in by the window's end (missed), or no
#   check-out 2 h after a checked-in visit should have ended -> "no check-out" alert (one of each per
#   booking: VisitAlert; bookings.selectors.visit_alert_due); the circle and the admins are told.

VISIT_REPORT_TEXT_MAX = 2000
WELLBEING_RANGE = "Choose how they seemed, from 1 (not well at all) to 5 (in great spirits)."
REPORT_EMPTY = "Tick what was done, or write a few words about the visit."


def _clock(moment: dt.datetime, booking: Booking) -> str:
    """A time of the visit on the clock of the person cared for ("2:00 PM"), whoever reads it."""
    local = timezone.localtime(moment, booking.time_zone)
    return f"{local:%I:%M %p}".lstrip("0")


def rounded_location(latitude: Any, longitude: Any) -> tuple[Decimal | None, Decimal | None]:
    """A browser position rounded to 3 decimals (about 100 m); none when either is missing.

    Out-of-range or non-numeric values are a 400, never stored.
    """
    if latitude in (None, "") and longitude in (None, ""):
        return None, None
    problems: dict[str, list[str]] = {}
    values: list[Decimal] = []
    for name, raw, limit in (("latitude", latitude, 90), ("longitude", longitude, 180)):
        try:
            value = Decimal(str(raw))
            if not value.is_finite() or abs(value) > limit:
                raise ValueError
        except (ArithmeticError, ValueError):
            problems[name] = [f"Must be a number from -{limit} to {limit}."]
            continue
        values.append(value.quantize(Decimal("0.001"), rounding=ROUND_HALF_UP))
    if problems:
        raise InvalidInput("The location could not be read.", errors=problems)
    return values[0], values[1]


def _push_visit(booking: Booking) -> None:
    """booking.updated with the visit's times, to the circle and the provider."""
    _push(
        booking,
        checkedInAt=booking.checked_in_at.isoformat() if booking.checked_in_at else None,
        checkedOutAt=booking.checked_out_at.isoformat() if booking.checked_out_at else None,
        hasReport=VisitReport.objects.filter(booking_id=booking.pk).exists(),
    )


def booking_check_in(
    *, booking_id: int, actor: User, latitude: Any = None, longitude: Any = None, now: dt.datetime | None = None
) -> Booking:
    """The provider arrives: from 30 minutes before the window starts, once, on a confirmed visit."""
    now = now or timezone.now()
    lat, lng = rounded_location(latitude, longitude)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, "check in to")
        check_booking_status(booking, (BookingStatus.CONFIRMED,), "checked in")
        if booking.checked_in_at is not None:
            raise Conflict(f"You already checked in at {_clock(booking.checked_in_at, booking)}.")
        if now < booking.starts_at - CHECK_IN_FROM:
            raise Conflict(
                f"You can check in from 30 minutes before the visit starts ({_clock(booking.starts_at, booking)} "
                f"on {booking.scheduled_date:%B} {booking.scheduled_date.day})."
            )
        booking.checked_in_at = now
        booking.check_in_latitude, booking.check_in_longitude = lat, lng
        booking.save(update_fields=["checked_in_at", "check_in_latitude", "check_in_longitude", "updated_at"])
        name = booking.provider.user.first_name or "Your provider"
        _tell(
            NoticeKind.VISIT_UPDATES,
            booking,
            f'{name} checked in at {_clock(now, booking)} for "{booking.service_request.title}".',
            event="checked_in",
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
        problems["tasksDone"] = ["Choose what was done from the list."]
    for name, label in (("notes", "notes"), ("for_family", "forFamily")):
        text = values.get(name, "")
        if not isinstance(text, str):
            problems[label] = ["Must be text."]
        elif len(text) > VISIT_REPORT_TEXT_MAX:
            problems[label] = [f"Can be at most {VISIT_REPORT_TEXT_MAX:,} characters."]
    if not isinstance(values.get("follow_up_suggested", False), bool):
        problems["followUpSuggested"] = ["Must be true or false."]
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
    name = booking.provider.user.first_name or "Your provider"
    _tell(
        NoticeKind.VISIT_UPDATES,
        booking,
        f'Visit report ready: {name} wrote how the visit for "{booking.service_request.title}" went. '
        f"They seemed: {Wellbeing(report.wellbeing).label.lower()}.",
        event="report",
    )


def booking_check_out(
    *,
    booking_id: int,
    actor: User,
    report: dict[str, Any] | None = None,
    latitude: Any = None,
    longitude: Any = None,
    now: dt.datetime | None = None,
) -> Booking:
    """The provider leaves: the booking is completed, with the visit report when given (it may also be
    written afterwards, within 24 hours). The spec's "Mark as Completed" is this without a report."""
    now = now or timezone.now()
    lat, lng = rounded_location(latitude, longitude)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, "check out of")
        check_booking_status(booking, (BookingStatus.CONFIRMED,), "completed")
        if now < booking.visit_start:
            raise Conflict("This visit has not started yet; it can be completed after it starts.")
        written = None
        if report is not None:
            InvalidInput.check(visit_report_problems(report, checklist=visit_checklist(booking)))
        booking.status = BookingStatus.COMPLETED
        booking.checked_out_at = now
        booking.check_out_latitude, booking.check_out_longitude = lat, lng
        booking.save(
            update_fields=["status", "checked_out_at", "check_out_latitude", "check_out_longitude", "updated_at"]
        )
        if report is not None:
            written = VisitReport.objects.create(booking=booking, **_report_fields(report))
        _settle_request(booking)
        events.publish(events.BookingCompleted(booking_id=booking.pk))
        done = f'Your booking for "{booking.service_request.title}" was marked completed.'
        # Organizers review a visit; a plain member is not asked to do what she cannot.
        organizers, members = _split_by_role(booking)
        _notify(organizers, f"{done} Thank you for using Kindly! You can now leave a review.", booking)
        if members:
            _notify(members, done, booking)
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
        check_booking_provider(booking, actor, "report on")
        check_booking_status(booking, (BookingStatus.COMPLETED,), "reported on")
        if booking.checked_out_at is None or now - booking.checked_out_at > REPORT_EDIT_WINDOW:
            raise Conflict("A visit report can be written or corrected for 24 hours after the visit.")
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
        provider = booking.provider.user.full_name or "The provider"
        title = booking.service_request.title
        window = booking.get_scheduled_time_display()
        if kind == VisitAlertKind.CHECK_IN_SOON:
            # The helper hears first, while she can still keep the window the family was told.
            _notify(
                [booking.provider.user],
                f'Reminder: please check in for "{title}" by {_clock(booking.check_in_by, booking)}, '
                f"so the visit fits the window the family was told ({window}). "
                "If you cannot make it, message the family from the booking now.",
                booking,
            )
            _push_visit(booking)
            return True
        if kind == VisitAlertKind.LATE:
            content = (
                f'{provider} has not checked in for "{title}" ({window}), and the visit no longer fits '
                f"that window without a check-in by {_clock(booking.check_in_by, booking)}. "
                "We are looking into it; you can message them from the booking."
            )
        elif booking.checked_in_at is None:
            content = (
                f'{provider} never checked in for "{title}", and its window ({window}) is over: '
                "the visit looks missed. We are looking into it."
            )
        else:
            content = (
                f'{provider} checked in for "{title}" but has not checked out, 2 hours after the visit '
                f"should have ended ({_clock(booking.check_out_due, booking)}). We are looking into it."
            )
        _tell(NoticeKind.VISIT_ALERTS, booking, content, alert=kind)
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


# ---------------------------------------------------------------- the recipient's clock


def recipient_time_zone_set(*, recipient_id: int, time_zone: str) -> CareRecipient:
    """The person cared for lives in another zone: her visits still ahead (scheduled, confirmed)
    keep their date and window on her new clock, so their stored start and end move with it (a 409
    when that makes a helper's two visits overlap). Past visits keep the instants they happened at."""
    try:
        validate_time_zone(time_zone)
    except ValidationError as exc:
        raise InvalidInput(exc.messages[0], errors={"timeZone": exc.messages}) from None
    with transaction.atomic():
        recipient = CareRecipient.objects.select_for_update().get(pk=recipient_id)
        if recipient.time_zone == time_zone:
            return recipient
        recipient.time_zone = time_zone
        recipient.save(update_fields=["time_zone", "updated_at"])
        ahead = (
            Booking.objects.select_for_update()
            .filter(recipient=recipient, status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED))
            .filter(starts_at__gte=timezone.now() - dt.timedelta(days=1))
        )
        for booking in ahead:
            booking.recipient = recipient
            _save_visit(
                booking,
                "In the new time zone one of these visits would overlap another visit of its helper.",
                update_fields=["starts_at", "ends_at", "updated_at"],
            )
    return recipient
