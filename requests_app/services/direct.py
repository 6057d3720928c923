"""A request sent to one helper (a direct request): her decline, with a reason, and its
opening to every helper when her window ends unanswered."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import timezone
from django.utils.translation import pgettext

from accounts.models import User
from circles.notices import notice_send
from core.errors import Conflict, InvalidInput, PermissionDenied
from core.notifications import NoticeKind
from providers.models import Provider
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.services.base import check_open, service_request_lock
from requests_app.services.rules import (
    DECLINE_NOT_YOURS,
    DECLINE_REASON_MAX,
    DECLINE_REASON_REQUIRED,
    DECLINE_REASON_TOO_LONG,
    DECLINE_TWICE,
)


def decline_reason_problem(reason: str) -> str:
    text = (reason or "").strip()
    if not text:
        return DECLINE_REASON_REQUIRED
    if len(text) > DECLINE_REASON_MAX:
        return DECLINE_REASON_TOO_LONG
    return ""


def service_request_decline(*, service_request_id: int, actor: User, reason: str) -> ServiceRequest:
    """The provider a request was sent to declines it, saying why. It is cancelled when the client
    asked for only them; otherwise it opens to every provider at once. The circle is told why."""
    InvalidInput.check({"reason": [problem]} if (problem := decline_reason_problem(reason)) else {})
    reason = reason.strip()
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        provider = (
            Provider.objects.select_related("user").filter(pk=service_request.requested_provider_id).first()
            if service_request.requested_provider_id
            else None
        )
        if provider is None or provider.user_id != actor.pk:
            raise PermissionDenied(DECLINE_NOT_YOURS)
        check_open(service_request, pgettext("request state change", "declined"))
        if service_request.declined_at is not None:
            raise Conflict(DECLINE_TWICE)
        now = timezone.now()
        service_request.declined_at = now
        service_request.decline_reason = reason
        fields = ["declined_at", "decline_reason", "updated_at"]
        cancelled = service_request.only_requested_provider
        if cancelled:
            service_request.status = RequestStatus.CANCELLED
            fields.append("status")
        else:
            service_request.direct_opened_at = now
            fields.append("direct_opened_at")
        service_request.save(update_fields=fields)
        notice_send(
            NoticeKind.DIRECT_REQUEST_DECLINED,
            recipient_id=service_request.recipient_id,
            client=service_request.client,
            facts={
                "title": service_request.title,
                "client_id": service_request.client_id,
                "provider": provider.user.first_name or "The helper",
                "reason": reason,
                "cancelled": cancelled,
            },
        )
    return service_request


def service_request_open_to_all(*, service_request_id: int, now: dt.datetime) -> bool:
    """A direct request's window ended without an answer: it is open to every provider now (by the
    clock already: requests_app.selectors.open_to_all); tell the circle, once. From here providers
    hear of it as a new request (notifications' new-request notices read direct_opened_at).

    Safe to repeat and to race with an accept or a decline: the row is re-read under lock and left
    alone (False) unless it is still open, lapsed, unanswered and not opened yet.
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
            or service_request.only_requested_provider
            or service_request.direct_until is None
            or service_request.direct_until > now
            or service_request.declined_at is not None
            or service_request.direct_opened_at is not None
        ):
            return False
        service_request.direct_opened_at = now
        service_request.save(update_fields=["direct_opened_at", "updated_at"])
        provider = (
            Provider.objects.select_related("user").filter(pk=service_request.requested_provider_id).first()
            if service_request.requested_provider_id
            else None
        )
        notice_send(
            NoticeKind.DIRECT_REQUEST_OPENED,
            recipient_id=service_request.recipient_id,
            client=service_request.client,
            facts={
                "title": service_request.title,
                "client_id": service_request.client_id,
                "provider": (provider.user.first_name if provider else "") or "The helper you asked for",
            },
        )
    return True
