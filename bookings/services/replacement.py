"""A replacement, not a gap: when a booking's helper leaves (she cancels, staff remove her, a re-check
suspends her), the visit is offered at once to the best helpers free then, and the booking waits
("Finding a replacement") for one of them to take it; it keeps its id, task list, series place,
price and payment, and only its provider changes.

    booking   scheduled|confirmed --the helper leaves (replacement_start)--> replacing
              replacing --a helper offered it takes it--> scheduled (unpaid) | confirmed (paid)
              replacing --the family takes the refund, staff cancel, the visit's time comes--> cancelled

How fast: every search starts at once, whatever the time ahead. Less than 48 hours ahead (the family
can no longer cancel or rebook easily) a round of offers lasts ROUND_URGENT, else ROUND_NORMAL; the
first round goes to the best OFFER_FIRST, each next one to OFFER_WIDEN more. The search's deadline is
DEADLINE_BEFORE the visit (never sooner than one urgent round from now): past it with nobody, staff
are alerted and the family offered a full refund (or to keep waiting: offers go on). A visit whose
time comes with nobody is cancelled and refunded in full.
"""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy, pgettext

from accounts.models import User
from bookings import lifecycle
from bookings.models import (
    REPLACEMENT_OPEN,
    Booking,
    BookingStatus,
    Replacement,
    ReplacementCause,
    ReplacementOffer,
    ReplacementState,
)
from bookings.selectors import provider_visit_problems, replacement_candidates
from bookings.services.accept import PROVIDER_BUSY, SINGLE_PROBLEM, _provider_of, check_can_accept, check_provider_free
from bookings.services.base import (
    booking_lock,
    check_admin,
    check_booking_client,
    check_booking_provider,
    check_booking_status,
    hold_schedule,
    notify_people,
    push_update,
    refund_due_text,
    save_visit,
    tell,
    when_text,
)
from circles.notices import notice_send
from core.errors import Conflict, InvalidInput, NotFound
from core.notices.bookings import InApp
from core.notifications import NoticeKind
from requests_app.models import OFFER_FIRST, OFFER_WIDEN, WINDOW_START, TimeWindow, clock_words
from requests_app.services import direct_until_text, miles_words

URGENT_AHEAD = dt.timedelta(hours=48)
ROUND_URGENT = dt.timedelta(minutes=15)
ROUND_NORMAL = dt.timedelta(hours=2)
DEADLINE_BEFORE = dt.timedelta(hours=2)
REASON_MAX = 2000

REASON_REQUIRED = gettext_lazy("Please say why you cannot make this visit.")
REMOVE_REASON_REQUIRED = gettext_lazy("A reason is required.")
VISIT_BEGUN = gettext_lazy(
    "This visit has already begun, so it cannot be handed to another helper. Please contact support."
)
TAKEN_ALREADY = gettext_lazy("Another helper has already taken this visit. Thank you for offering.")
NOT_REPLACING = gettext_lazy("This visit is not waiting for a new helper.")
NO_QUESTION = gettext_lazy("There is nothing to decide yet: Kindly is still finding a helper.")
NO_HELPER_REASON = "No new helper could be found in time."
FAMILY_REFUND_REASON = "Cancelled with a full refund while Kindly was finding a new helper."


def _reason(reason: str, message: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput(message, errors={"reason": [message]})
    if len(reason) > REASON_MAX:
        too_long = gettext("Please keep the reason under %(count)s characters.") % {"count": REASON_MAX}
        raise InvalidInput(too_long, errors={"reason": [too_long]})
    return reason


def round_time(booking: Booking, now: dt.datetime) -> dt.timedelta:
    """How long one round of offers waits for an answer: short when the visit is less than 48 hours away."""
    return ROUND_URGENT if booking.visit_start - now < URGENT_AHEAD else ROUND_NORMAL


def replacement_deadline(booking: Booking, now: dt.datetime) -> dt.datetime:
    """Until when a search runs before staff are alerted and the family asked: DEADLINE_BEFORE the
    visit, and never sooner than one urgent round from now (nor later than the visit's start)."""
    return min(max(booking.visit_start - DEADLINE_BEFORE, now + ROUND_URGENT), booking.visit_start)


def arrival_words(booking: Booking) -> str:
    """ "2:00 PM": the arrival time the family was told (else the window's start)."""
    start = booking.arrival_time or WINDOW_START.get(booking.scheduled_time, WINDOW_START[TimeWindow.FLEXIBLE])
    return clock_words(start)


def replacement_start(booking: Booking, *, cause: str, reason: str, now: dt.datetime) -> Replacement:
    """The booking's helper leaves: the booking waits for a new one (replacing) and the first round of
    offers goes out at once; the circle is told "Finding a replacement". Caller holds the booking's
    row lock inside its transaction and checked the actor and that the visit is ahead."""
    left = booking.provider
    booking.status = BookingStatus.REPLACING
    booking.save(update_fields=["status", "updated_at"])
    replacement = Replacement.objects.create(
        booking=booking,
        left_provider=left,
        cause=cause,
        reason=reason,
        started_at=now,
        deadline=replacement_deadline(booking, now),
    )
    tell(NoticeKind.REPLACEMENT_UPDATES, booking, stage="seeking")
    _offer_round(replacement, booking, now)
    push_update(booking)
    return replacement


def _offer_round(replacement: Replacement, booking: Booking, now: dt.datetime) -> int:
    """The next round of offers (the best OFFER_FIRST, then OFFER_WIDEN more each round), each helper
    told. With nobody free now the round still runs its time: someone may be free later."""
    round_ = replacement.round + 1
    offered = ReplacementOffer.objects.filter(replacement__booking_id=booking.pk).values_list("provider_id", flat=True)
    picks = replacement_candidates(
        booking, count=OFFER_FIRST if round_ == 1 else OFFER_WIDEN, excluded=[replacement.left_provider_id, *offered]
    )
    answer_by = min(now + round_time(booking, now), booking.visit_start)
    ReplacementOffer.objects.bulk_create(
        [
            ReplacementOffer(
                replacement=replacement, provider=provider, round=round_, rank=rank, miles=miles, offered_at=now
            )
            for rank, (provider, miles) in enumerate(picks, start=1)
        ]
    )
    replacement.round = round_
    replacement.answer_by = answer_by
    replacement.save(update_fields=["round", "answer_by"])
    request = booking.service_request
    for provider, miles in picks:
        notice_send(
            NoticeKind.REPLACEMENT_OFFERED,
            helpers=[provider.user],
            facts={
                "title": request.title,
                "when": when_text(booking),
                "town": request.town or request.zip_code,
                "miles": miles_words(miles),
                "answer_by": direct_until_text(answer_by),
            },
            key=f"replacement:{replacement.pk}:provider:{provider.pk}",
        )
    return len(picks)


def _alert_staff(replacement: Replacement, booking: Booking) -> None:
    request = booking.service_request
    notice_send(
        NoticeKind.MATCHING_ALERTS,
        facts={
            "title": request.title,
            "town": request.town,
            "when": when_text(booking),
            "booking_id": booking.pk,
            "reason": "no_replacement",
        },
        key=f"replacement:{replacement.pk}:unfilled",
    )


def _end(booking: Booking, *, actor: User | None, reason: str, left: User) -> None:
    """Cancel a booking still waiting for a helper (lifecycle.cancel ends its search and refunds a
    paid one in full: the family is never charged for a helper who left); the circle is told, the
    helper who left is not (it is no longer hers)."""
    lifecycle.cancel(booking, actor=actor, reason=reason)
    tell(
        NoticeKind.BOOKING_CANCELLED,
        booking,
        skip=[left],
        how="client" if actor is not None else "support",
        reason=reason,
        by=(actor.full_name or "an organizer") if actor is not None else "Kindly",
        by_helper="the client",
        actor=actor.pk if actor is not None else "",
        refund=refund_due_text(booking),
    )
    push_update(booking)


# ---------------------------------------------------------------- who leaves


def booking_cancel_by_provider(*, booking_id: int, actor: User, reason: str) -> Booking:
    """The booked helper cancels a scheduled or confirmed visit still ahead (a reason is required):
    the visit is offered to other helpers at once (replacement_start). 403 for anyone but its helper,
    409 for a visit not ahead or not active."""
    reason = _reason(reason, REASON_REQUIRED)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_provider(booking, actor, pgettext("booking action", "cancel"))
        check_booking_status(
            booking, (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED), pgettext("booking state change", "cancelled")
        )
        now = timezone.now()
        if booking.visit_start <= now:
            raise Conflict(VISIT_BEGUN)
        replacement_start(booking, cause=ReplacementCause.HELPER_CANCELLED, reason=reason, now=now)
        notify_people([actor], InApp.HELPER_LEFT, booking)
    return booking


def booking_remove_provider(*, booking_id: int, actor: User, reason: str) -> Booking:
    """Staff take the helper off a scheduled or confirmed visit still ahead (a reason is required;
    audited by adminpanel.services.admin_booking_remove_provider): the visit is offered to other
    helpers at once, as when she cancels."""
    check_admin(actor)
    reason = _reason(reason, REMOVE_REASON_REQUIRED)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_status(
            booking,
            (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED),
            pgettext("booking state change", "given a new helper"),
        )
        now = timezone.now()
        if booking.visit_start <= now:
            raise Conflict(VISIT_BEGUN)
        left = booking.provider.user
        replacement_start(booking, cause=ReplacementCause.STAFF_REMOVED, reason=reason, now=now)
        notify_people([left], InApp.REMOVED_FROM_VISIT, booking, reason=reason)
        push_update(booking, extra_user_ids=[left.pk])
    return booking


def replacements_for_suspension(*, provider_id: int, reason: str) -> list[int]:
    """A re-check suspended the helper (bookings.services.on_provider_suspended, inside vetting's
    transaction): each of her visits still ahead is offered to other helpers. Returns their ids."""
    now = timezone.now()
    ids = list(
        Booking.objects.filter(
            provider_id=provider_id,
            status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED),
            starts_at__gt=now,
        )
        .order_by("starts_at", "id")
        .values_list("pk", flat=True)
    )
    for pk in ids:
        booking = booking_lock(booking_id=pk)
        replacement_start(booking, cause=ReplacementCause.SUSPENDED, reason=reason, now=now)
    return ids


# ---------------------------------------------------------------- who steps in


def booking_replacement_accept(*, booking_id: int, actor: User) -> Booking:
    """A helper offered the visit takes it: she becomes its provider, arriving when the family was
    told; the booking goes back to scheduled (unpaid) or confirmed (paid: its payment stays, her
    share is paid to her after the visit, never to the helper who left). The circle reads
    "Replacement confirmed: Ana will arrive at 2:00 PM".

    404 when it was never offered to her; 403 for a helper who may not accept now; 409 when another
    took it first, when she is no longer free then, or the visit has begun. Race-safe: the booking's
    row lock orders two accepts, the second finds it taken.
    """
    provider = _provider_of(actor)
    if not ReplacementOffer.objects.filter(replacement__booking_id=booking_id, provider=provider).exists():
        raise NotFound(gettext("Booking not found."))
    check_can_accept(provider)
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        replacement = (
            Replacement.objects.select_for_update().filter(booking_id=booking_id, state__in=REPLACEMENT_OPEN).first()
        )
        offer_waiting = (
            replacement is not None
            and ReplacementOffer.objects.filter(replacement=replacement, provider=provider).exists()
        )
        if booking.status != BookingStatus.REPLACING or not offer_waiting:
            raise Conflict(TAKEN_ALREADY)
        now = timezone.now()
        if booking.visit_start <= now:
            raise Conflict(VISIT_BEGUN)
        start = booking.visit_start
        hold_schedule(provider.pk)
        problem = provider_visit_problems(provider, [(start, start + dt.timedelta(minutes=booking.duration))])[0]
        if problem:
            raise Conflict(SINGLE_PROBLEM[problem])
        check_provider_free(booking, provider)
        left_user_id = booking.provider.user_id
        booking.provider = provider
        lifecycle.replacement_found(booking, provider_id=provider.pk, now=now, accepted_by=provider.pk)
        save_visit(booking, PROVIDER_BUSY, update_fields=["provider", "status", "updated_at"])
        tell(
            NoticeKind.REPLACEMENT_UPDATES,
            booking,
            stage="found",
            name=provider.user.first_name or "A verified helper",
            arrival=arrival_words(booking),
        )
        notify_people([actor], InApp.REPLACEMENT_TAKEN, booking)
        push_update(booking, extra_user_ids=[left_user_id])
    return booking


# ---------------------------------------------------------------- the family's choice, and the clock


def booking_replacement_refund(*, booking_id: int, actor: User) -> Booking:
    """An organizer cancels a visit waiting for a new helper, with a full refund when paid (the
    48-hour rule does not apply: the helper left, not the family). 403 for anyone else of the
    circle, 409 when the visit is not waiting for a helper."""
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, pgettext("booking action", "cancel"))
        check_booking_status(
            booking, (BookingStatus.REPLACING,), pgettext("booking state change", "cancelled this way")
        )
        _end(booking, actor=actor, reason=FAMILY_REFUND_REASON, left=booking.provider.user)
    return booking


def booking_replacement_wait(*, booking_id: int, actor: User) -> Booking:
    """An organizer chooses to keep waiting after the search's deadline: the refund question is
    not asked again; offers go on until the visit's time. 409 unless the search is unfilled."""
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        check_booking_client(booking, actor, pgettext("booking action", "decide about"))
        replacement = (
            Replacement.objects.select_for_update()
            .filter(booking_id=booking_id, state=ReplacementState.UNFILLED)
            .first()
        )
        if booking.status != BookingStatus.REPLACING or replacement is None:
            raise Conflict(NO_QUESTION if booking.status == BookingStatus.REPLACING else NOT_REPLACING)
        replacement.family_waits = True
        replacement.save(update_fields=["family_waits"])
        push_update(booking)
    return booking


def replacement_offers_send(*, replacement_id: int, now: dt.datetime | None = None) -> str:
    """Beat's step of one search (bookings.tasks.replacements_due): the visit's time came with
    nobody: cancelled and refunded ("ended"); its deadline passed: staff alerted and the family
    offered the refund ("unfilled"), offers going on; its round ran out: the next round ("round").
    Safe to repeat: the rows are re-read under lock. Returns what it did ("" for nothing)."""
    now = now or timezone.now()
    with transaction.atomic():
        replacement = Replacement.objects.select_for_update().filter(pk=replacement_id).first()
        if replacement is None or replacement.state not in REPLACEMENT_OPEN:
            return ""
        booking = booking_lock(booking_id=replacement.booking_id)
        if booking.status != BookingStatus.REPLACING:
            return ""
        if booking.visit_start <= now:
            _end(booking, actor=None, reason=NO_HELPER_REASON, left=replacement.left_provider.user)
            return "ended"
        did = ""
        if replacement.state == ReplacementState.SEEKING and replacement.deadline <= now:
            replacement.state = ReplacementState.UNFILLED
            replacement.save(update_fields=["state"])
            _alert_staff(replacement, booking)
            tell(NoticeKind.REPLACEMENT_UPDATES, booking, stage="unfilled")
            push_update(booking)
            did = "unfilled"
        if replacement.answer_by is None or replacement.answer_by <= now:
            _offer_round(replacement, booking, now)
            did = did or "round"
        return did
