"""Reads for accounts, scoped to what the caller may see.

The data export and the checks of closing an account read every app: marketplace.account_lifecycle.
"""

from __future__ import annotations

import datetime as dt

from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import EmergencyContact, User

# The columns a person's summary shape reads (accounts.api.serializers.UserSummarySerializer), for
# lists that load joined users with .only().
USER_SUMMARY_FIELDS = ("id", "email", "first_name", "last_name", "profile_image_url")


def user_get_by_uid(*, uid: str) -> User | None:
    return User.objects.filter(pk=uid).first()


def language_of_address(*, email: str, otherwise: str) -> str:
    """The language of the account holding this address (an invitation to someone who may have an
    account), or `otherwise` when none does."""
    found = User.objects.filter(email__iexact=email.strip()).values_list("language", flat=True).first()
    return found or otherwise


def emergency_contact_list(*, user: User) -> QuerySet[EmergencyContact]:
    """The user's own contacts, primary first."""
    return EmergencyContact.objects.filter(user=user).order_by("-is_primary", "name", "pk")


def accounts_due_for_purge(*, days: int, now: dt.datetime | None = None) -> QuerySet[User]:
    """Accounts closed `days` or more ago and not purged yet, oldest closure first."""
    cutoff = (now or timezone.now()) - dt.timedelta(days=days)
    return User.objects.filter(closed_at__isnull=False, closed_at__lte=cutoff, purged_at__isnull=True).order_by(
        "closed_at", "pk"
    )
