"""Writes of service requests: create, edit and delete while open (ARCHITECTURE.md "State machines").

Accepting a request creates a booking, so it lives with the booking state machine:
bookings.services.service_request_accept (re-exported here for discoverability).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.utils import timezone

from accounts.models import UserType
from marketplace.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from requests_app.models import RequestStatus, ServiceCategory, ServiceRequest, Urgency

if TYPE_CHECKING:
    from accounts.models import User

# Fields a client may change on an open request (model field names).
EDITABLE_FIELDS = (
    "category",
    "title",
    "description",
    "preferred_date",
    "preferred_time",
    "urgency",
    "location",
    "special_requirements",
    "estimated_duration",
    "max_budget",
)


PREFERRED_DATE_REQUIRED = "Please choose a preferred date."
PREFERRED_DATE_PAST = "Preferred date cannot be in the past."
PREFERRED_DATE_TOO_FAR = "Preferred date must be within the next 12 months."


def preferred_date_latest(today: dt.date) -> dt.date:
    """The last day a visit may be asked for: the same day next year (February 28 for the 29th)."""
    try:
        return today.replace(year=today.year + 1)
    except ValueError:
        return today.replace(year=today.year + 1, day=28)


def preferred_date_problem(value: dt.date | None, *, today: dt.date | None = None) -> str:
    """What is wrong with a preferred date, or "": from today (site time zone) to a year ahead.

    No date is fine here; whether one is required is the caller's rule (create requires one).
    """
    if value is None:
        return ""
    today = today or timezone.localdate()
    if value < today:
        return PREFERRED_DATE_PAST
    if value > preferred_date_latest(today):
        return PREFERRED_DATE_TOO_FAR
    return ""


def _check_preferred_date(value: dt.date | None, *, required: bool) -> None:
    problem = PREFERRED_DATE_REQUIRED if required and value is None else preferred_date_problem(value)
    if problem:
        raise InvalidInput(problem, errors={"preferredDate": [problem]})


def _check_can_request(actor: User) -> None:
    if actor.is_admin or actor.user_type == UserType.PROVIDER:
        raise PermissionDenied("Only client accounts can request services. Switch to Client to request a service.")


def _check_owner(service_request: ServiceRequest, actor: User) -> None:
    if service_request.client_id != actor.pk:
        raise PermissionDenied("Only the client who made this request can change it.")


def _check_open(service_request: ServiceRequest, doing: str) -> None:
    if service_request.status != RequestStatus.OPEN:
        raise Conflict(f"Only open requests can be {doing}; this one is {service_request.status}.")


def service_request_lock(*, service_request_id: int) -> ServiceRequest:
    """Re-read a request under a row lock (caller is inside transaction.atomic)."""
    try:
        return ServiceRequest.objects.select_for_update(of=("self",)).get(pk=service_request_id)
    except ServiceRequest.DoesNotExist:
        raise NotFound("Service request not found.") from None


def service_request_create(
    *,
    client: User,
    category: ServiceCategory,
    title: str,
    description: str,
    preferred_date: dt.date | None,
    location: str,
    preferred_time: str = "",
    urgency: str = Urgency.NORMAL,
    special_requirements: str = "",
    estimated_duration: int = 60,
    max_budget: Decimal | None = None,
) -> ServiceRequest:
    """A client posts a request; it starts open. The preferred date is required, within a year."""
    _check_can_request(client)
    _check_preferred_date(preferred_date, required=True)
    return ServiceRequest.objects.create(
        client=client,
        category=category,
        title=title,
        description=description,
        preferred_date=preferred_date,
        preferred_time=preferred_time,
        urgency=urgency,
        location=location,
        special_requirements=special_requirements,
        estimated_duration=estimated_duration,
        max_budget=max_budget,
    )


def service_request_update(*, service_request_id: int, actor: User, changes: dict[str, Any]) -> ServiceRequest:
    """The client edits their open request. `changes` maps model field names (EDITABLE_FIELDS) to values."""
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"Not editable: {sorted(unknown)}")
    if "preferred_date" in changes:
        _check_preferred_date(changes["preferred_date"], required=False)
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        _check_open(service_request, "edited")
        for name, value in changes.items():
            setattr(service_request, name, value)
        service_request.save(update_fields=[*changes, "updated_at"])
    return service_request


def service_request_delete(*, service_request_id: int, actor: User) -> None:
    """The client deletes their open request (an open request has no booking yet)."""
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        _check_open(service_request, "deleted")
        service_request.delete()


def service_request_cancel(*, service_request_id: int, actor: User) -> ServiceRequest:
    """The client cancels their open request (open -> cancelled); it stays in their history."""
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        _check_open(service_request, "cancelled")
        service_request.status = RequestStatus.CANCELLED
        service_request.save(update_fields=["status", "updated_at"])
    return service_request


def service_request_expire(*, service_request_id: int, today: dt.date) -> bool:
    """Cancel an open request whose preferred date is before `today` (site time zone); tell the client.

    Safe to repeat and to race with an accept: the row is re-read under lock and left alone
    (False) unless it is still open with a past preferred date.
    """
    from messaging.services import system_notify

    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_for_update(of=("self",))
            .select_related("client")
            .filter(pk=service_request_id)
            .first()
        )
        if (
            service_request is None
            or service_request.status != RequestStatus.OPEN
            or service_request.preferred_date is None
            or service_request.preferred_date >= today
        ):
            return False
        service_request.status = RequestStatus.CANCELLED
        service_request.save(update_fields=["status", "updated_at"])
        day = service_request.preferred_date
        system_notify(
            receivers=[service_request.client],
            content=(
                f'Your request "{service_request.title}" was cancelled because its preferred date '
                f"({day:%B} {day.day}, {day.year}) has passed without a provider accepting it. "
                "You are welcome to post it again with a new date."
            ),
        )
    return True


def __getattr__(name: str):
    # Lazy re-export: bookings.services imports this module's helpers.
    if name == "service_request_accept":
        from bookings.services import service_request_accept

        return service_request_accept
    raise AttributeError(name)
