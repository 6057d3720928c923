"""Reads of care recipients and circles, scoped to the user asking.

The other apps scope requests and bookings through `recipient_ids_of` (a subquery, so their
lists stay one query) and check organizer-only actions with `is_organizer`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import QuerySet

from circles.models import CareRecipient, CircleMember, CircleRole
from marketplace.errors import NotFound

if TYPE_CHECKING:
    from accounts.models import User


def recipient_ids_of(*, user_id: str) -> QuerySet[CircleMember]:
    """The ids of the recipients in whose circle the user is (any role), as a subquery."""
    return CircleMember.objects.filter(user_id=user_id).values("recipient_id")


def organized_recipient_ids(*, user_id: str) -> QuerySet[CircleMember]:
    """The ids of the recipients the user organizes, as a subquery."""
    return CircleMember.objects.filter(user_id=user_id, role=CircleRole.ORGANIZER).values("recipient_id")


def recipient_list_for(*, user: User) -> QuerySet[CareRecipient]:
    """The recipients in whose circle the user is, their own first."""
    return CareRecipient.objects.filter(members__user_id=user.pk).distinct().order_by("first_name", "last_name", "id")


def recipient_get(*, user: User, pk: object) -> CareRecipient:
    """A recipient in whose circle the user is; any other (or none) is a 404."""
    try:
        pk = int(pk)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound("Care recipient not found.") from None
    recipient = recipient_list_for(user=user).filter(pk=pk).first()
    if recipient is None:
        raise NotFound("Care recipient not found.")
    return recipient


def membership_of(*, user_id: str, recipient_id: int) -> CircleMember | None:
    return CircleMember.objects.filter(user_id=user_id, recipient_id=recipient_id).first()


def is_member(*, user_id: str, recipient_id: int) -> bool:
    return CircleMember.objects.filter(user_id=user_id, recipient_id=recipient_id).exists()


def is_organizer(*, user_id: str, recipient_id: int) -> bool:
    return CircleMember.objects.filter(user_id=user_id, recipient_id=recipient_id, role=CircleRole.ORGANIZER).exists()


def member_user_ids(*, recipient_id: int) -> list[str]:
    """Every member of the recipient's circle (for notifications and live events)."""
    return list(CircleMember.objects.filter(recipient_id=recipient_id).values_list("user_id", flat=True))


def own_recipient(*, user: User) -> CareRecipient | None:
    """The recipient that is the user themself, if there is one."""
    return CareRecipient.objects.filter(account_id=user.pk).first()
