"""What the request services share: the organizer's check, whom a new request is for, the
open-only check, the row lock, and the words for a direct request's deadline."""

from __future__ import annotations

import datetime as dt

from django.utils import dateformat, timezone
from django.utils.translation import gettext

from accounts.models import User
from circles.models import CareRecipient
from circles.selectors import is_organizer, organized_recipient_ids
from circles.services import recipient_for_self
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.services.rules import ORGANIZERS_ONLY, RECIPIENT_UNKNOWN


def check_organizer(*, actor: User, recipient_id: int, message: str = ORGANIZERS_ONLY) -> None:
    """Organizer-only actions: the recipient's organizers may; anyone else who can see the
    item (a plain member of the circle, a provider, an admin) gets 403. Those who cannot see it get
    404 from the selectors the views ask first."""
    if not is_organizer(user_id=actor.pk, recipient_id=recipient_id):
        raise PermissionDenied(message)


def recipient_for_request(*, actor: User, recipient_id: int | None) -> CareRecipient:
    """Whom a new request is for: one of the recipients `actor` organizes, or (no id) `actor`
    themself (their own recipient, made on first use). Any other id: 400 on recipientId."""
    if recipient_id is None:
        return recipient_for_self(user=actor)
    recipient = CareRecipient.objects.filter(pk=recipient_id, pk__in=organized_recipient_ids(user_id=actor.pk)).first()
    if recipient is None:
        raise InvalidInput(RECIPIENT_UNKNOWN, errors={"recipientId": [RECIPIENT_UNKNOWN]})
    return recipient


def check_open(service_request: ServiceRequest, doing: str) -> None:
    if service_request.status != RequestStatus.OPEN:
        raise Conflict(
            gettext("Only open requests can be %(doing)s; this one is %(status)s.")
            % {"doing": doing, "status": service_request.status}
        )


def service_request_lock(*, service_request_id: int) -> ServiceRequest:
    """Re-read a request under a row lock (caller is inside transaction.atomic)."""
    try:
        return ServiceRequest.objects.select_for_update(of=("self",)).get(pk=service_request_id)
    except ServiceRequest.DoesNotExist:
        raise NotFound(gettext("Service request not found.")) from None


def direct_until_text(moment: dt.datetime) -> str:
    """'Tuesday, November 24 at 9:00 AM', in the site's time zone."""
    return dateformat.format(timezone.localtime(moment), r"l, F j \a\t g:i A")
