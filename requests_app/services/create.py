"""A family posts a request: checked by the rules, placed at the recipient's address, then
offered to the helpers near her (ServiceRequestPosted) or sent to one helper, who is told at once."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User, UserType
from circles.models import CareRecipient
from circles.notices import notice_send
from circles.selectors import is_organizer
from circles.services import address_moved
from core.addresses import PART_NAMES
from core.errors import InvalidInput, NotFound, PermissionDenied
from core.events import ServiceRequestPosted, publish
from core.notifications import NoticeKind
from providers.models import Provider, Specialty
from providers.selectors import provider_get_public, provider_offers
from requests_app.models import DIRECT_WINDOW, OfferedTo, Repeat, ServiceCategory, ServiceRequest, Urgency
from requests_app.services.base import direct_until_text, recipient_for_request
from requests_app.services.rules import (
    RECIPIENT_UNKNOWN,
    REQUESTED_PROVIDER_SELF,
    REQUESTED_PROVIDER_UNKNOWN,
    REQUESTED_SERVICE_NOT_OFFERED,
    address_parts,
    clean_tasks,
    service_request_problems,
)


def _check_can_request(actor: User) -> None:
    if actor.is_admin or actor.user_type == UserType.PROVIDER:
        raise PermissionDenied(
            gettext("Only client accounts can request services. Switch to Client to request a service.")
        )


def service_request_create(
    *,
    client: User,
    category: ServiceCategory,
    title: str,
    description: str,
    preferred_date: dt.date | None,
    location: str = "",
    preferred_time: str = "",
    urgency: str = Urgency.NORMAL,
    special_requirements: str = "",
    tasks: list[str] | None = None,
    estimated_duration: int = 60,
    max_budget: Decimal | None = None,
    repeat: str = Repeat.NONE,
    repeat_count: int | None = None,
    repeat_until: dt.date | None = None,
    recipient: CareRecipient | None = None,
    recipient_id: int | None = None,
    requested_provider_id: int | None = None,
    only_requested_provider: bool = False,
    address: dict[str, str] | None = None,
) -> ServiceRequest:
    """A client posts a request for a care recipient they organize (`recipient`, or by
    `recipient_id`; themself when neither is given); it starts open. The fields follow
    service_request_problems (create's rules: a preferred date from today to a year ahead,
    15-minute and $5 steps, an active category; a repeat as series_problems). Where: `address`'s
    parts, else the one-line `location` read into parts; neither: the recipient's address. A
    recipient with no address yet keeps this request's, so the next request starts from it.

    `requested_provider_id` sends it to one verified, active provider (not the client): only they
    may accept it for DIRECT_WINDOW, and only they ever when `only_requested_provider`; they are
    told at once. Any other id: 400 on requestedProviderId."""
    _check_can_request(client)
    requested = _requested_provider(client=client, provider_id=requested_provider_id)
    if recipient is None:
        recipient = recipient_for_request(actor=client, recipient_id=recipient_id)
    elif not is_organizer(user_id=client.pk, recipient_id=recipient.pk):
        raise InvalidInput(RECIPIENT_UNKNOWN, errors={"recipientId": [RECIPIENT_UNKNOWN]})
    if (location or "").strip() and not (address and any(address.values())):
        InvalidInput.check(service_request_problems({"location": location}, creating=True))
    parts = address_parts(location=location, parts=address)
    if parts is None or not any(parts.values()):
        parts = {name: getattr(recipient, name) for name in PART_NAMES}
    values = {
        "category": category,
        "title": title,
        "description": description,
        "preferred_date": preferred_date,
        "preferred_time": preferred_time,
        "urgency": urgency,
        **parts,
        "special_requirements": special_requirements,
        "tasks": tasks or [],
        "estimated_duration": estimated_duration,
        "max_budget": max_budget,
        "repeat": repeat or Repeat.NONE,
        "repeat_count": repeat_count,
        "repeat_until": repeat_until,
    }
    InvalidInput.check(service_request_problems(values, creating=True))
    values["tasks"] = clean_tasks(values["tasks"])
    direct = {}
    if requested is not None:
        _check_offers(requested, category)
        direct = {
            "requested_provider": requested,
            "direct_until": timezone.now() + DIRECT_WINDOW,
            "only_requested_provider": bool(only_requested_provider),
        }
    with transaction.atomic():
        if not any(getattr(recipient, name) for name in PART_NAMES):
            for name in PART_NAMES:
                setattr(recipient, name, parts[name])
            recipient.save(update_fields=[*PART_NAMES, *address_moved(recipient), "updated_at"])
        # Offered to the helpers near the person cared for (offers_send, from Celery once this
        # commits); a request sent to one helper is hers, and then every helper's, as before.
        offered_to = OfferedTo.ALL if requested is not None else OfferedTo.OFFERS
        service_request = ServiceRequest.objects.create(
            client=client, recipient=recipient, **values, **direct, offered_to=offered_to
        )
        if requested is not None:
            _tell_requested_provider(service_request, requested)
        else:
            publish(ServiceRequestPosted(service_request_id=service_request.pk))
        return service_request


def _requested_provider(*, client: User, provider_id: int | None) -> Provider | None:
    """The provider a new request is sent to: verified and active, not the client themself."""
    if provider_id is None:
        return None
    if Provider.objects.filter(pk=provider_id, user=client).exists():
        raise InvalidInput(REQUESTED_PROVIDER_SELF, errors={"requestedProviderId": [REQUESTED_PROVIDER_SELF]})
    try:
        return provider_get_public(provider_id=provider_id)
    except NotFound:
        raise InvalidInput(
            REQUESTED_PROVIDER_UNKNOWN, errors={"requestedProviderId": [REQUESTED_PROVIDER_UNKNOWN]}
        ) from None


def _check_offers(provider: Provider, category: ServiceCategory) -> None:
    """A request sent to one helper asks for a service she offers (400 naming hers)."""
    if provider_offers(provider, category.slug):
        return
    name = provider.user.first_name or "This helper"
    offered = [label for value, label in Specialty.choices if value in (provider.specialties or [])]
    message = REQUESTED_SERVICE_NOT_OFFERED.format(name=name, service=category.display_name, offered=", ".join(offered))
    raise InvalidInput(message, errors={"categoryId": [message]})


def _tell_requested_provider(service_request: ServiceRequest, provider: Provider) -> None:
    notice_send(
        NoticeKind.DIRECT_REQUEST,
        helpers=[provider.user],
        facts={
            "title": service_request.title,
            "client": service_request.client.first_name or "A client",
            "until": direct_until_text(service_request.direct_until),
            "only": service_request.only_requested_provider,
            "request_id": service_request.pk,
        },
    )
