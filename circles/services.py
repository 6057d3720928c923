"""Writes of care recipients and circles: every rule of who may change a circle lives here."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from circles.models import CareRecipient, CircleMember, CircleRole

if TYPE_CHECKING:
    from accounts.models import User


def recipient_for_self(*, user: User) -> CareRecipient:
    """The user's own recipient (they receive the help themself), created with its circle (the
    user as organizer) the first time it is needed. Safe under concurrent calls."""
    existing = CareRecipient.objects.filter(account_id=user.pk).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            recipient = CareRecipient.objects.create(
                first_name=user.first_name or user.email.split("@")[0],
                last_name=user.last_name,
                account=user,
            )
            CircleMember.objects.create(recipient=recipient, user=user, role=CircleRole.ORGANIZER)
    except IntegrityError:
        return CareRecipient.objects.get(account_id=user.pk)
    return recipient
