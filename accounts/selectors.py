"""Reads for accounts, scoped to what the caller may see."""

from __future__ import annotations

from django.db.models import QuerySet

from accounts.models import EmergencyContact, User
from marketplace.errors import NotFound


def user_get_by_uid(*, uid: str) -> User | None:
    return User.objects.filter(pk=uid).first()


def emergency_contact_list(*, user: User) -> QuerySet[EmergencyContact]:
    """The user's own contacts, primary first."""
    return EmergencyContact.objects.filter(user=user).order_by("-is_primary", "name", "pk")


def emergency_contact_get(*, user: User, pk: object) -> EmergencyContact:
    """One of the user's own contacts; anyone else's (or none) is NotFound."""
    try:
        pk = int(pk)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound() from None
    contact = emergency_contact_list(user=user).filter(pk=pk).first()
    if contact is None:
        raise NotFound()
    return contact
