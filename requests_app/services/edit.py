"""The family changes an open request (edit, delete, cancel); one whose preferred date has
passed while open expires."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db import transaction
from django.utils.translation import pgettext

from accounts.models import User
from circles.notices import notice_send
from core.addresses import PART_NAMES
from core.errors import InvalidInput
from core.notifications import NoticeKind
from requests_app.models import Repeat, RequestStatus, ServiceRequest
from requests_app.services.base import check_open, check_organizer, service_request_lock
from requests_app.services.rules import (
    EDITABLE_FIELDS,
    SERIES_FIELDS,
    address_parts,
    clean_tasks,
    series_problems,
    service_request_problems,
)


def _check_owner(service_request: ServiceRequest, actor: User) -> None:
    """Edit, delete and cancel: an organizer of the recipient's circle."""
    check_organizer(actor=actor, recipient_id=service_request.recipient_id)


def service_request_update(*, service_request_id: int, actor: User, changes: dict[str, Any]) -> ServiceRequest:
    """The client edits their open request. `changes` maps model field names (EDITABLE_FIELDS) to values.

    The repeat is checked with the request's other series fields as they will be after the edit
    (a new first date may push an end date's series past 26 visits)."""
    unknown = set(changes) - set(EDITABLE_FIELDS)
    if unknown:
        raise ValueError(f"Not editable: {sorted(unknown)}")
    if "repeat" in changes:
        changes = {**changes, "repeat": changes["repeat"] or Repeat.NONE}
    if "location" in changes or set(PART_NAMES) & set(changes):
        # Where, as parts: the parts given win over the one-line form; a one-line form alone is read.
        location = changes.get("location")
        given = {name: changes[name] for name in PART_NAMES if name in changes} or None
        if location and not (given and any(given.values())):
            InvalidInput.check(service_request_problems({"location": location}, creating=False))
        changes = {name: value for name, value in changes.items() if name != "location" and name not in PART_NAMES}
        changes.update(address_parts(location=location, parts=given) or {})
    InvalidInput.check(service_request_problems(changes, creating=False))
    if "tasks" in changes:
        changes = {**changes, "tasks": clean_tasks(changes["tasks"])}
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        check_open(service_request, pgettext("request state change", "edited"))
        if set(SERIES_FIELDS) & set(changes):
            after = {name: changes.get(name, getattr(service_request, name)) for name in SERIES_FIELDS}
            InvalidInput.check(series_problems(after))
        for name, value in changes.items():
            setattr(service_request, name, value)
        service_request.save(update_fields=[*changes, "updated_at"])
    return service_request


def service_request_delete(*, service_request_id: int, actor: User) -> None:
    """The client deletes their open request (an open request has no booking yet).

    It is gone for everyone but staff: the row stays, status "deleted" ("Deleted by client" in the
    admin's requests tab), so that staff can see what happened to it; its address and notes for
    helpers are erased now. The account purge removes the row with the rest of the client's data.
    """
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        check_open(service_request, pgettext("request state change", "deleted"))
        service_request.status = RequestStatus.DELETED
        erased = ["street", "unit", "town", "state", "zip_code", "special_requirements"]
        for name in erased:
            setattr(service_request, name, "")
        service_request.save(update_fields=["status", *erased, "updated_at"])


def service_request_cancel(*, service_request_id: int, actor: User) -> ServiceRequest:
    """The client cancels their open request (open -> cancelled); it stays in their history."""
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        _check_owner(service_request, actor)
        check_open(service_request, pgettext("request state change", "cancelled"))
        service_request.status = RequestStatus.CANCELLED
        service_request.save(update_fields=["status", "updated_at"])
    return service_request


def service_request_expire(*, service_request_id: int, today: dt.date) -> bool:
    """Cancel an open request whose preferred date is before `today` (site time zone); tell the client.

    Safe to repeat and to race with an accept: the row is re-read under lock and left alone
    (False) unless it is still open with a past preferred date.
    """
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
        notice_send(
            NoticeKind.REQUEST_EXPIRED,
            recipient_id=service_request.recipient_id,
            client=service_request.client,
            facts={
                "title": service_request.title,
                "day_on": day.isoformat(),
                "client_id": service_request.client_id,
            },
        )
    return True
