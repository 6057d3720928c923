"""What a viewer is shown of a request's or a booking's people and place: the whole address or
the area only (who holds it, as a rule and as a query), the recipient's care details, the viewer's
role in the circle, the client's full name; and the organizers a booked helper may contact."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import Exists
from django.utils import timezone

from circles.models import CircleMember, CircleRole
from core.addresses import AREA, FULL, STAFF_SEES
from requests_app import ports
from requests_app.models import ADDRESS_KEPT_AFTER_VISIT, RequestStatus, ServiceRequest

if TYPE_CHECKING:
    from accounts.models import User


# What address_shown_to answers: the whole address (street line, unit, and with the recipient's
# phone and notes for helpers in careDetails), or the town, state and ZIP only.
ADDRESS_FULL = FULL
ADDRESS_AREA = AREA

# The booking states in which its provider holds the address (the visit is ahead); a completed one
# keeps it ADDRESS_KEPT_AFTER_VISIT after check-out. Spelled as values: this app never imports bookings
# (the same rule as a query: bookings.selectors.request_address_held_by, asked through
# requests_app.ports.address_held_by).
_VISIT_AHEAD = ("scheduled", "confirmed")
_VISIT_DONE = "completed"


def booking_holds_address(
    *, status: str, checked_out_at: dt.datetime | None, ends_at: dt.datetime | None, now: dt.datetime | None = None
) -> bool:
    """Whether a booking's provider still gets the street address, phone and notes for helpers: while
    the booking is scheduled or confirmed, and ADDRESS_KEPT_AFTER_VISIT after she checked out (the
    planned end when she did not) for the visit report. A dropped helper (cancelled, reassigned
    away, long completed) sees none of it."""
    if status in _VISIT_AHEAD:
        return True
    if status != _VISIT_DONE:
        return False
    ended = checked_out_at or ends_at
    return ended is not None and ended >= (now or timezone.now()) - ADDRESS_KEPT_AFTER_VISIT


def holds_address(user_id: object, now: dt.datetime | None = None) -> Exists:
    """booking_holds_address as a query: the request has a booking of this user's provider that
    still gives her the address (for annotate(viewer_holds_address=...), one query per list)."""
    return ports.address_held_by(user_id, now or timezone.now())


def _is_booking(obj) -> bool:
    return hasattr(obj, "service_request_id")


def _holds_address(obj, user: User) -> bool:
    """Whether `user` is the provider who holds the address of `obj` (a booking, or a request: any
    of its bookings) right now."""
    if _is_booking(obj):
        return obj.provider.user_id == user.pk and booking_holds_address(
            status=obj.status, checked_out_at=obj.checked_out_at, ends_at=obj.ends_at
        )
    if getattr(obj, "viewer_holds_address_of", None) == user.pk:
        return bool(obj.viewer_holds_address)
    if getattr(obj, "booked_provider_user_id", 0) is None:
        return False  # never booked: nobody holds it
    return ServiceRequest.objects.filter(pk=obj.pk).filter(holds_address(user.pk)).exists()


def address_shown_to(obj, user: User, *, vetted: Callable[[], bool] | None = None) -> str | None:
    """How much of the address of `obj` (a request or a booking, read by a selector that annotated
    viewer_role) `user` may read: ADDRESS_FULL, ADDRESS_AREA or None. The one rule every surface
    asks (the API, the pages, the calendar feed, the admin pages, the Django admin):

    - the recipient's circle: all of it;
    - the booked provider while the booking is on (booking_holds_address): all of it, and the
      recipient's phone and notes for helpers (careDetails);
    - staff: the town, state and ZIP (what support needs to place a visit and find a helper); the
      street line, phone and notes for helpers stay with the circle and the booked helper;
    - a provider offered the open request (vetted answers providers.selectors.
      user_is_vetted_provider, asked only when it matters), and a booking's helper once she no
      longer holds it (cancelled, reassigned away, long completed): the town, state and ZIP;
    - nobody else anything.
    """
    if not user.is_authenticated:
        return None
    if viewer_in_circle(obj, user) or _holds_address(obj, user):
        return ADDRESS_FULL
    if user.is_admin:
        return STAFF_SEES
    if _is_booking(obj):
        return ADDRESS_AREA if obj.provider.user_id == user.pk else None
    if getattr(obj, "booked_provider_user_id", None) == user.pk:
        return ADDRESS_AREA
    if obj.status == RequestStatus.OPEN and vetted is not None and vetted():
        return ADDRESS_AREA
    return None


def full_address_shown_to(obj, user: User) -> bool:
    """Whether `user` may see the whole address of `obj` (address_shown_to)."""
    return address_shown_to(obj, user) == ADDRESS_FULL


def care_details_shown_to(obj, user: User) -> bool:
    """Whether `user` gets the recipient in full (address, phone, notes for helpers, whom to
    contact; careDetails): the provider who holds the address now, never anyone else (the circle
    reads the recipient on the care circle page)."""
    return user.is_authenticated and not viewer_in_circle(obj, user) and _holds_address(obj, user)


def address_line_for(obj, shown: str | None) -> str | None:
    """The one-line location of `obj` (a request; a booking: its request's) as address_shown_to
    allows: in full, the town and ZIP, or None."""
    place = obj.service_request if _is_booking(obj) else obj
    if shown == ADDRESS_FULL:
        return place.location
    if shown == ADDRESS_AREA:
        return place.area
    return None


def viewer_in_circle(obj, user: User) -> bool:
    """Whether `user` is in the circle of the recipient of `obj` (a request or a booking read by a
    selector that annotated viewer_role; without it, whether they posted it)."""
    role = getattr(obj, "viewer_role", None)
    if hasattr(obj, "viewer_role"):
        return role is not None
    return obj.client_id == user.pk


def viewer_organizes(obj, user: User) -> bool:
    """Whether `user` organizes the circle of the recipient of `obj` (as viewer_in_circle)."""
    if hasattr(obj, "viewer_role"):
        return obj.viewer_role == "organizer"
    return obj.client_id == user.pk


def circle_role_of(obj, user: User) -> str | None:
    """The viewer's role in the circle of the recipient of `obj` ("organizer", "member" or None), as
    viewer_in_circle reads it."""
    if hasattr(obj, "viewer_role"):
        return obj.viewer_role
    return "organizer" if obj.client_id == user.pk else None


def client_fully_named_to(service_request: ServiceRequest, user: User) -> bool:
    """Whether `user` sees the client's full name and email: the recipient's circle, the booked
    provider, an admin. A verified provider browsing open requests sees first name and last
    initial only."""
    return (
        user.is_admin
        or viewer_in_circle(service_request, user)
        or user.pk == getattr(service_request, "booked_provider_user_id", None)
    )


def recipient_contacts(*, recipient_id: int) -> list[dict[str, str]]:
    """Whom the booked provider may contact in the circle (in-app messages only): the organizers'
    first and last names, oldest member first. Never their emails or phones."""
    return list(
        CircleMember.objects.filter(recipient_id=recipient_id, role=CircleRole.ORGANIZER)
        .order_by("created_at", "id")
        .values("user__first_name", "user__last_name")
    )
