"""What the booking services share: the row lock, the small checks every transition runs, the
words for a visit's date, and how the people of a booking are told (a notice of a kind to its
audience, a system message, the live "booking.updated" push)."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from bookings.models import CENT, Booking, RefundStatus
from circles.models import CircleRole
from circles.notices import notice_send
from circles.selectors import is_organizer, member_user_ids
from core.errors import Conflict, NotFound, PermissionDenied
from core.notices import day_words
from core.notifications import notify
from core.realtime import BOOKING_UPDATED, send_on_commit
from providers.models import Provider
from requests_app.models import TimeWindow

logger = logging.getLogger(__name__)

PENDING_VERIFICATION_MESSAGE = gettext_lazy(
    "Your provider profile is pending verification. You can accept requests once it has been verified."
)


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
        raise NotFound(gettext("Booking not found.")) from None


def hold_schedule(provider_id: int) -> None:
    """Take the provider's row lock before her calendar is checked and a visit is put on it (caller
    is inside transaction.atomic; PostgreSQL's FOR NO KEY UPDATE, which her time off and a review
    wait on too: providers.services.provider_lock). Two accepts of overlapping visits then run one
    after the other: the second sees the first's visit and gets the 409. Without it both insert,
    each waits on the other's row in the overlap constraint, and PostgreSQL kills one as a
    deadlock. It also orders an accept against her adding time off that day: one sees the other."""
    Provider.objects.select_for_update(no_key=True).filter(pk=provider_id).values_list("pk").first()


def check_booking_status(booking: Booking, allowed: Iterable[str], doing: str) -> None:
    allowed = tuple(allowed)
    if booking.status not in allowed:
        # Translators: joins the states a booking must be in ("scheduled or confirmed").
        names = (" " + gettext("or") + " ").join(allowed)
        raise Conflict(
            gettext("Only %(allowed)s bookings can be %(doing)s; this one is %(status)s.")
            % {"allowed": names, "doing": doing, "status": booking.status}
        )


def check_booking_client(booking: Booking, actor: User, doing: str) -> None:
    """The client's actions on a booking (cancel, review) are for any organizer of the recipient's
    circle; a plain member, the provider or an admin gets 403."""
    if not is_organizer(user_id=actor.pk, recipient_id=booking.recipient_id):
        raise PermissionDenied(
            gettext("Only an organizer of this care circle can %(doing)s this booking.") % {"doing": doing}
        )


def check_booking_provider(booking: Booking, actor: User, doing: str) -> None:
    if booking.provider.user_id != actor.pk:
        raise PermissionDenied(gettext("Only the provider of this booking can %(doing)s it.") % {"doing": doing})


def check_admin(actor: User) -> None:
    if not actor.is_admin:
        raise PermissionDenied(gettext("Admin access required"))


def window_label(booking: Booking) -> str:
    """The visit's window as the site's language names it ("Morning (8AM - 12PM)"): a fact kept with
    a notice, put in each reader's words when it is read (core.notices)."""
    if booking.scheduled_time not in TimeWindow.values:
        return ""
    with translation.override(settings.LANGUAGE_CODE):
        return str(TimeWindow(booking.scheduled_time).label)


def when_text(booking: Booking) -> str:
    label = window_label(booking)
    date = f"{booking.scheduled_date:%A, %B} {booking.scheduled_date.day}, {booking.scheduled_date.year}"
    return f"{date}, {label}" if label else date


def push_update(booking: Booking, extra_user_ids: Iterable[str] = (), **more: Any) -> None:
    """booking.updated, on commit, to every member of the recipient's circle and the provider
    (`more`: fields of the visit's progress to add, see _push_visit)."""
    circle = member_user_ids(recipient_id=booking.recipient_id) or [booking.client_id]
    user_ids = list(dict.fromkeys([*circle, booking.provider.user_id, *extra_user_ids]))
    send_on_commit(
        user_ids,
        BOOKING_UPDATED,
        {"id": booking.pk, "status": booking.status, "paymentStatus": booking.payment_status, **more},
    )


def notify_people(
    receivers: Iterable[User], notice: str, booking: Booking, *, roles: dict[Any, str] | None = None, **facts: Any
) -> None:
    """A notice in the app only (core.notices' InApp) to the people the caller names, in the
    catalogue's words from `facts` (the request's title and the visit's time are added)."""
    notify(receivers=receivers, notice=notice, facts=booking_facts(booking, **facts), booking=booking, roles=roles)


def tell(
    kind: str,
    booking: Booking,
    *,
    helper: User | None = None,
    payer: User | None = None,
    skip: Iterable[User] = (),
    **facts: Any,
) -> dict[int, str]:
    """A notice of `kind` about the booking to the audience the kind declares (the circle of its
    recipient, its helper, the payer, staff: core.notifications.AUDIENCE), each part in the
    catalogue's words (core.notices) from `facts` (the request's title and the visit's time are
    added); the email is written from the same facts."""
    return notice_send(
        kind,
        facts=booking_facts(booking, **facts),
        booking=booking,
        recipient_id=booking.recipient_id,
        client=booking.client,
        helpers=[helper or booking.provider.user],
        payer=payer,
        skip=skip,
    )


def booking_facts(booking: Booking, **more: Any) -> dict[str, Any]:
    """What every notice of a booking may say: the request's title and the visit's time in words (and
    its day and window, from which core.notices writes them again in each reader's language)."""
    return {
        "title": booking.service_request.title,
        "when": when_text(booking),
        "when_on": booking.scheduled_date.isoformat(),
        "when_window": window_label(booking),
        **more,
    }


def organizers_and_members(booking: Booking) -> tuple[list[User], list[User]]:
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
    return organizers_and_members(booking)[0]


def refund_due_text(booking: Booking, kept: Decimal = Decimal("0.00")) -> str:
    """The amount a cancel refunds (for the email): the total less a late fee `kept` for the
    helper, "" when nothing was paid (or the fee kept all of it)."""
    return str(booking.total_amount - kept) if booking.refund_status == RefundStatus.PENDING else ""


def booking_total(*, hourly_rate: Decimal, duration_minutes: int) -> Decimal:
    """hourlyRate x duration / 60, rounded to cents (half up)."""
    return (Decimal(hourly_rate) * Decimal(duration_minutes) / Decimal(60)).quantize(CENT, rounding=ROUND_HALF_UP)


def save_visit(booking: Booking, message: str, **kwargs: Any) -> None:
    """booking.save(), with the overlap constraint's refusal as the 409 check_provider_free gives."""
    try:
        with transaction.atomic():
            booking.save(**kwargs)
    except IntegrityError as exc:
        if Booking.NO_OVERLAP in str(exc):
            raise Conflict(message) from None
        raise


def day_text(day: dt.date) -> str:
    """ "Tuesday, December 8", in the active language (core.notices.day_words)."""
    return day_words(day)


def days_text(days: list[dt.date]) -> str:
    """ "Tuesday, December 8", "... and Tuesday, December 15", "..., ... and ...", in the active language."""
    names = [day_text(day) for day in days]
    if len(names) == 1:
        return names[0]
    return gettext("%(days)s and %(last)s") % {"days": ", ".join(names[:-1]), "last": names[-1]}
