"""Who makes the visit: a helper accepts an open request (one booking, or one per visit of a series),
or an admin reassigns a confirmed booking to another helper. Both ask the one predicate of
availability (providers.selectors.visit_problems) and the no-overlap rule."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, ngettext, pgettext

from accounts.models import User
from bookings import lifecycle
from bookings.models import Booking, BookingStatus
from bookings.selectors import provider_visit_problems
from bookings.services.base import (
    PENDING_VERIFICATION_MESSAGE,
    booking_lock,
    booking_total,
    check_admin,
    check_booking_status,
    days_text,
    hold_schedule,
    notify_people,
    push_update,
    save_visit,
    tell,
)
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.events import VisitsBooked, publish
from core.notices.bookings import InApp
from core.notifications import NoticeKind
from providers.models import Provider, VerificationStatus
from providers.selectors import BUSY, TIME_OFF, provider_offers
from providers.selectors import OUTSIDE_HOURS as OUTSIDE_HOURS_PROBLEM
from providers.services import ON_TIME_OFF, OUTSIDE_HOURS
from requests_app.models import Repeat, ServiceRequest, TimeWindow, arrival_time_problem
from requests_app.selectors import direct_to_someone_else, offered_to_others
from requests_app.series import request_visit_dates
from requests_app.services import offer_accepted


def _provider_of(actor: User) -> Provider:
    try:
        return Provider.objects.select_related("user").get(user=actor)
    except Provider.DoesNotExist:
        raise PermissionDenied(gettext("Only providers can accept service requests.")) from None


def check_can_accept(provider: Provider) -> None:
    if provider.verification_status == VerificationStatus.PENDING:
        raise PermissionDenied(PENDING_VERIFICATION_MESSAGE)
    if provider.verification_status != VerificationStatus.VERIFIED:
        raise PermissionDenied(gettext("Only verified providers can accept service requests."))
    if not provider.is_active:
        raise PermissionDenied(gettext("Your provider profile is inactive."))
    if provider.hourly_rate is None:
        raise Conflict(gettext("Set your hourly rate before accepting requests."))


PROVIDER_BUSY = gettext_lazy("You already have a visit at that time.")
PROVIDER_BUSY_FOR_ADMIN = gettext_lazy("This provider already has a visit at that time.")


def check_provider_free(booking: Booking, provider: Provider, message: str = PROVIDER_BUSY) -> None:
    """409 when another scheduled or confirmed visit of `provider` overlaps this booking's time.

    The services' check, for the message; on PostgreSQL the constraint Booking.NO_OVERLAP also
    refuses what a concurrent accept slips past it (save_visit)."""
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


# How the 409 names the dates of a series she cannot make, by why ({days}: "Tuesday, December 8").
PROBLEM_WORDS = {
    TIME_OFF: (gettext_lazy("{days} is your time off."), gettext_lazy("{days} are your time off.")),
    OUTSIDE_HOURS_PROBLEM: (
        gettext_lazy("{days} is outside your available hours."),
        gettext_lazy("{days} are outside your available hours."),
    ),
    BUSY: (gettext_lazy("You already have a visit on {days}."), gettext_lazy("You already have a visit on {days}.")),
}
SINGLE_PROBLEM = {TIME_OFF: ON_TIME_OFF, OUTSIDE_HOURS_PROBLEM: OUTSIDE_HOURS, BUSY: PROVIDER_BUSY}
NOT_OFFERED = gettext_lazy("You do not offer {service}, so you cannot accept this request.")
REASSIGN_NOT_OFFERED = gettext_lazy("{name} does not offer {service}. Choose a provider who does.")
REASSIGN_PROBLEM = {
    TIME_OFF: gettext_lazy("This provider is on time off that day."),
    OUTSIDE_HOURS_PROBLEM: gettext_lazy("This visit is outside this provider's available hours."),
}


def _visit_interval(visit: Booking) -> tuple[dt.datetime, dt.datetime]:
    start = visit.visit_start
    return start, start + dt.timedelta(minutes=visit.duration)


def _series_problems(visits: list[Booking], provider: Provider) -> list[str]:
    """Why the provider cannot make each visit ("" when she can): providers.selectors.visit_problems,
    the one predicate the list of open requests also asks."""
    return provider_visit_problems(provider, [_visit_interval(v) for v in visits])


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
            parts.append(words[len(days) > 1].format(days=days_text(days)))
    left = sum(1 for p in problems if not p)
    unavailable = [v.scheduled_date.isoformat() for v, p in zip(visits, problems, strict=True) if p]
    if not left:
        return Conflict(gettext("You cannot make any visit of this series: %(why)s") % {"why": " ".join(parts)})
    rest = (
        ngettext(
            "You can accept the other %(count)s visit without it; the family will be told.",
            "You can accept the other %(count)s visits without it; the family will be told.",
            left,
        )
        if len(unavailable) == 1
        else ngettext(
            "You can accept the other %(count)s visit without them; the family will be told.",
            "You can accept the other %(count)s visits without them; the family will be told.",
            left,
        )
    )
    return Conflict(f"{' '.join(parts)} {rest % {'count': left}}", errors={"unavailableDates": unavailable})


def series_summary(service_request: ServiceRequest, visits: int) -> str:
    """ "every week for 4 visits" (the notices' words for a series)."""
    return f"{Repeat(service_request.repeat).label.lower()} for {visits} visits"


def service_request_accept(
    *,
    service_request_id: int,
    actor: User,
    skip_unavailable: bool = False,
    arrival_time: dt.time | None = None,
) -> Booking:
    """A verified provider accepts an open request of someone else; the booking is created. A
    repeating request books every visit of its series at once, each its own booking
    (series_index 1, 2, ..., priced per visit), or none: a visit outside the provider's hours or
    over another of their visits, or on their time off, refuses the whole series (409 naming the
    dates and why), unless `skip_unavailable`: then the series is booked without those dates (at
    least one visit left) and the family is told which were left out. `arrival_time`: when she
    will arrive (each visit of a series), inside the family's window (400 on arrivalTime
    otherwise, nothing saved); None: the window's start. A request for a service the
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
            raise NotFound(gettext("Service request not found."))
        if service_request.client_id == actor.pk:
            raise PermissionDenied(gettext("You cannot accept your own service request."))
        if direct_to_someone_else(service_request, provider_id=provider.pk, now=timezone.now()):
            raise NotFound(gettext("Service request not found."))  # sent to another provider: not open to this one
        if offered_to_others(service_request, provider_id=provider.pk):
            raise NotFound(gettext("Service request not found."))  # offered to a few helpers near, not her
        if not provider_offers(provider, service_request.category.slug):
            raise Conflict(NOT_OFFERED.format(service=service_request.category.display_name))
        lifecycle.take_request(service_request_id=service_request_id)
        # The UPDATE holds the row lock until commit; re-read the values it left.
        service_request.refresh_from_db()
        offer_accepted(service_request=service_request, provider=provider, now=timezone.now())
        if service_request.preferred_date is None:
            raise Conflict(gettext("This request has no preferred date yet."))
        problem = arrival_time_problem(
            arrival_time, preferred_time=service_request.preferred_time, duration=service_request.estimated_duration
        )
        if problem:
            raise InvalidInput(problem, errors={"arrivalTime": [problem]})
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
                arrival_time=arrival_time,
                duration=service_request.estimated_duration,
                total_amount=total,
                series_index=index if in_series else None,
            )
            for index, day in enumerate(dates, start=1)
        ]
        if visits[0].visit_start <= timezone.now():
            raise Conflict(gettext("The preferred date of this request has passed."))
        hold_schedule(provider.pk)
        problems = _series_problems(visits, provider)
        left_out = [v.scheduled_date for v, p in zip(visits, problems, strict=True) if p]
        if left_out and not (skip_unavailable and in_series and len(left_out) < len(visits)):
            raise _series_refusal(visits, problems)
        visits = [v for v, p in zip(visits, problems, strict=True) if not p]
        # The visits kept keep their places in the series ("Visit 3 of 4": the family was told which
        # dates were left out).
        booking = visits[0]
        for visit in visits:
            save_visit(visit, PROVIDER_BUSY)
        accepted = {
            "name": provider.user.full_name or "A verified provider",
            "total": str(booking.total_amount),
            # The series and the days left out are kept as data, put into each reader's words
            # (core.notices.in_reader_words).
            "series_repeat": service_request.repeat if in_series else "",
            "series_count": len(visits) if in_series else 0,
            "left_out_days": [day.isoformat() for day in left_out],
        }
        tell(NoticeKind.REQUEST_ACCEPTED, booking, **accepted)
        notify_people([provider.user], InApp.ACCEPTED_BY_YOU, booking, **accepted)
        for visit in visits:
            push_update(visit)
        publish(VisitsBooked(booking_ids=tuple(v.pk for v in visits), series=in_series))
    return booking


def booking_reassign(*, booking_id: int, actor: User, new_provider_id: int, reason: str = "") -> Booking:
    """An admin moves a confirmed booking to another verified provider (the price stays as booked).

    Audited by adminpanel.services.admin_booking_reassign.
    """
    check_admin(actor)
    reason = (reason or "").strip()
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        # A visit waiting for a new helper (bookings.services.replacement) may be given one by staff too.
        check_booking_status(
            booking, (BookingStatus.CONFIRMED, BookingStatus.REPLACING), pgettext("booking state change", "reassigned")
        )
        replacing = booking.status == BookingStatus.REPLACING
        new_provider = Provider.objects.select_related("user").filter(pk=new_provider_id).first()
        if new_provider is None:
            raise InvalidInput(
                gettext("Provider not found."), errors={"newProviderId": [gettext("Provider not found.")]}
            )
        if new_provider.verification_status != VerificationStatus.VERIFIED or not new_provider.is_active:
            raise InvalidInput(
                gettext("Choose a verified provider."),
                errors={"newProviderId": [gettext("Choose a verified provider.")]},
            )
        if new_provider.pk == booking.provider_id:
            raise InvalidInput(
                gettext("This provider already has the booking."),
                errors={"newProviderId": [gettext("This provider already has the booking.")]},
            )
        if new_provider.user_id == booking.client_id:
            raise InvalidInput(
                gettext("A provider cannot be booked by themselves."),
                errors={"newProviderId": [gettext("A provider cannot be booked by themselves.")]},
            )
        service = booking.service_request.category
        if not provider_offers(new_provider, service.slug):
            name = new_provider.user.first_name or "This provider"
            message = REASSIGN_NOT_OFFERED.format(name=name, service=service.name)
            raise InvalidInput(message, errors={"newProviderId": [message]})
        hold_schedule(new_provider.pk)
        problem = provider_visit_problems(new_provider, [_visit_interval(booking)])[0]
        if problem in REASSIGN_PROBLEM:
            raise Conflict(REASSIGN_PROBLEM[problem])
        check_provider_free(booking, new_provider, PROVIDER_BUSY_FOR_ADMIN)
        old_provider = booking.provider
        booking.provider = new_provider
        if replacing:
            lifecycle.replacement_found(booking, provider_id=new_provider.pk, now=timezone.now())
        save_visit(booking, PROVIDER_BUSY_FOR_ADMIN, update_fields=["provider", "status", "updated_at"])
        # The helper taken off hears it in the app only: the booking is no longer hers (one who
        # left a visit being replaced was told when she left).
        if not replacing:
            notify_people([old_provider.user], InApp.REASSIGNED_AWAY, booking)
        tell(
            NoticeKind.BOOKING_REASSIGNED,
            booking,
            helper=new_provider.user,
            new_name=new_provider.user.full_name or "a verified provider",
        )
        push_update(booking, extra_user_ids=[old_provider.user_id])
    return booking
