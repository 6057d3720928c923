"""The signed link of a care-circle invitation: it names the invitation, works for 7 days and once.

django.core.signing (SECRET_KEY, salt "circles.invitation"): a forged or cut link is refused,
and its timestamp bounds it to INVITATION_MAX_AGE even if the row said otherwise.
"""

from __future__ import annotations

import datetime as dt

from django.core import signing
from django.utils import timezone
from django.utils.translation import gettext_lazy

from circles.models import INVITATION_MAX_AGE, CircleInvitation, InvitationStatus
from core.errors import Conflict, InvalidInput

INVITATION_SALT = "circles.invitation"

EXPIRED_MESSAGE = gettext_lazy("This invitation has expired. Ask for a new one.")
USED_MESSAGE = gettext_lazy(
    "This invitation has already been used. If you joined, your care circle is on your Care circle page."
)
REVOKED_MESSAGE = gettext_lazy("This invitation was withdrawn. Ask for a new one if you still need to join.")
REPLACED_MESSAGE = gettext_lazy(
    "This invitation was replaced by a newer one with another role. Use the link in the latest invitation email."
)
INVALID_MESSAGE = gettext_lazy(
    "This invitation link is not valid. Check that you copied the whole link from the email."
)


def invitation_token(invitation: CircleInvitation) -> str:
    """The signed token of an invitation's link: it names the invitation, what it grants (the role,
    and whether it is for the recipient themself) and when it was signed."""
    return signing.dumps(
        {"i": invitation.pk, "r": invitation.role, "s": invitation.for_recipient}, salt=INVITATION_SALT, compress=True
    )


def _grants(invitation: CircleInvitation, data: dict) -> bool:
    """Does the invitation still grant what its link was signed with? A link signed for a member
    never joins as an organizer (links signed before roles were signed name none: the row decides)."""
    if "r" not in data:
        return True
    return data["r"] == invitation.role and data.get("s") == invitation.for_recipient


def invitation_from_token(token: str) -> CircleInvitation:
    """The invitation a link names, whatever its state: InvalidInput (400) for a forged or
    broken link, Conflict (409) with EXPIRED_MESSAGE once its 7 days are over."""
    try:
        data = signing.loads(token, salt=INVITATION_SALT, max_age=INVITATION_MAX_AGE)
    except signing.SignatureExpired:
        raise Conflict(EXPIRED_MESSAGE) from None
    except (signing.BadSignature, ValueError, TypeError):
        raise InvalidInput(INVALID_MESSAGE) from None
    invitation = (
        CircleInvitation.objects.select_related("recipient", "invited_by").filter(pk=(data or {}).get("i")).first()
        if isinstance(data, dict)
        else None
    )
    if invitation is None:
        raise InvalidInput(INVALID_MESSAGE)
    if not _grants(invitation, data):
        raise Conflict(REPLACED_MESSAGE)
    return invitation


def invitation_check_open(invitation: CircleInvitation, *, now: dt.datetime | None = None) -> None:
    """Conflict (409) with a plain message when the invitation can no longer be used."""
    if invitation.status == InvitationStatus.ACCEPTED:
        raise Conflict(USED_MESSAGE)
    if invitation.status == InvitationStatus.REVOKED:
        replaced = CircleInvitation.objects.filter(
            recipient_id=invitation.recipient_id, email__iexact=invitation.email, pk__gt=invitation.pk
        ).exists()
        raise Conflict(REPLACED_MESSAGE if replaced else REVOKED_MESSAGE)
    if invitation.created_at + INVITATION_MAX_AGE <= (now or timezone.now()):
        raise Conflict(EXPIRED_MESSAGE)
