"""Who may see a booking: the people of the recipient's circle, the helper who makes the visit,
staff (the scopes every read starts from); and the statuses during which a visit holds its helper's
time."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.db.models import Q, QuerySet

from bookings.models import Booking, BookingStatus
from circles.selectors import recipient_id_list, recipient_ids_of
from providers.selectors import provider_pk_of

if TYPE_CHECKING:
    from accounts.models import User


ACTIVE_STATUSES = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED)


def in_circles_of(user_id: str) -> Q:
    """Bookings for a recipient in whose circle the user is (any role)."""
    return Q(recipient_id__in=recipient_ids_of(user_id=user_id))


def as_party_of(user_id: str) -> Q:
    """Bookings for a recipient in the user's circles, or visits they make as a provider: whose
    thread they take part in, and what they may see (admins aside).

    The recipient ids are read first, as values, and the provider profile's pk is a one-value
    subquery: PostgreSQL then ORs two index scans. A join on provider.user or a subquery of the
    circles, ORed, makes it read every booking (about 20 ms at 10,000)."""
    return Q(recipient_id__in=recipient_id_list(user_id=user_id)) | Q(provider_id=provider_pk_of(user_id=user_id))


def as_party(user_id: str) -> QuerySet[Booking]:
    return Booking.objects.filter(as_party_of(user_id))


def visible_to(user: User) -> QuerySet[Booking]:
    return Booking.objects.all() if user.is_admin else as_party(user.pk)
