"""Reads of categories and service requests, scoped to what the caller may see.

ARCHITECTURE.md: clients see the requests for the care recipients in whose circles they are (any
role; issue 16: scoped through circles.selectors.recipient_ids_of, a subquery, so each list stays
one query); verified (and active) providers see open requests of others; a provider sees the
requests they are booked on; admins see all. An account
without a verified provider profile (none, switched to provider without applying, pending,
rejected) sees no open request of anyone else. Anything else is a 404.

A request sent to one provider (issue 18 "rebook a helper") is open to that provider alone until
its window ends (DIRECT_WINDOW after it was posted) or they decline, and for good when the client
chose "only this helper": to every other provider it is a 404 until then.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.db.models import Case, Exists, F, IntegerField, OuterRef, Q, QuerySet, Subquery, When
from django.utils import timezone

from accounts.selectors import USER_SUMMARY_FIELDS
from circles.models import CareRecipient, CircleMember, CircleRole
from circles.selectors import organized_recipient_ids, recipient_ids_of
from marketplace.errors import NotFound
from providers.selectors import provider_vetted, user_acts_as_provider, user_is_vetted_provider
from requests_app.models import RequestStatus, ServiceCategory, ServiceRequest

if TYPE_CHECKING:
    from accounts.models import User


def category_list_active() -> QuerySet[ServiceCategory]:
    return ServiceCategory.objects.filter(is_active=True).order_by("id")


def category_get_active(*, category_id: int) -> ServiceCategory | None:
    return ServiceCategory.objects.filter(pk=category_id, is_active=True).first()


# What a recipient's summary shape reads (circles' RecipientSummarySerializer): {id, firstName, lastName}.
RECIPIENT_SUMMARY_FIELDS = ("id", "first_name", "last_name")

# What ServiceRequestSerializer reads of the joined client and category (the request's own columns
# all): the client's other columns (its datetimes above all) cost more to load than the rest of the
# row. A field the shape starts reading must be added here, or each row costs a query (adminpanel's
# query-count test fails).
_LISTED_FIELDS = (
    *(f.name for f in ServiceRequest._meta.concrete_fields),
    *(f"client__{f}" for f in USER_SUMMARY_FIELDS),
    *(f"category__{f}" for f in ("id", "slug", "name", "icon")),
    *(f"recipient__{f}" for f in RECIPIENT_SUMMARY_FIELDS),
    *(f"requested_provider__{f}" for f in ("id", "user", "user__first_name", "user__last_name")),
)


def viewer_role_of(viewer_id: str) -> Subquery:
    """The viewer's role in the circle of the row's recipient ("organizer", "member"; None when they
    are not in it), for annotate(viewer_role=...): the shapes read it, so a list stays one query."""
    return Subquery(
        CircleMember.objects.filter(recipient_id=OuterRef("recipient_id"), user_id=viewer_id).values("role")[:1]
    )


def _with_people(qs: QuerySet[ServiceRequest], viewer_id: str | None = None) -> QuerySet[ServiceRequest]:
    """Load what the serializer reads (client, category, recipient, the booked provider's user id,
    the viewer's role in the recipient's circle) in one query.

    The request's bookings are read through the reverse relation the bookings app declares
    (ServiceRequest.bookings), so this app never imports the app above it. A series (issue 18) has
    a booking per visit: the one shown is the next visit still ahead, else the last one.
    """
    next_or_last = Case(
        When(bookings__active_rank=0, then=F("bookings__series_index")),
        default=-F("bookings__series_index"),
        output_field=IntegerField(),
    )
    latest_booking = ServiceRequest.objects.filter(pk=OuterRef("pk"), bookings__isnull=False).order_by(
        "bookings__active_rank", next_or_last, "-bookings__id"
    )
    qs = (
        qs.select_related("client", "category", "recipient", "requested_provider__user")
        .only(*_LISTED_FIELDS)
        .annotate(
            booked_provider_user_id=Subquery(latest_booking.values("bookings__provider__user_id")[:1]),
            booking_id=Subquery(latest_booking.values("bookings__id")[:1]),
        )
    )
    if viewer_id is not None:
        qs = qs.annotate(viewer_role=viewer_role_of(viewer_id))
    return qs


def in_circles_of(user_id: str) -> Q:
    """Requests for a recipient in whose circle the user is (any role)."""
    return Q(recipient_id__in=recipient_ids_of(user_id=user_id))


def open_to_all(now: dt.datetime) -> Q:
    """Requests every verified provider may take (when open): not sent to one provider, or sent
    without "only this helper" and past its window or declined."""
    opened = Q(direct_until__isnull=True) | Q(direct_until__lte=now) | Q(declined_at__isnull=False)
    return Q(requested_provider__isnull=True) | (Q(only_requested_provider=False) & opened)


def open_to_provider(user_id: str, now: dt.datetime | None = None) -> Q:
    """Requests the provider of this user may take (when open): those open to all, and those sent to them."""
    return open_to_all(now or timezone.now()) | Q(requested_provider__user_id=user_id)


def direct_to_someone_else(service_request: ServiceRequest, *, provider_id: int, now: dt.datetime) -> bool:
    """Whether the request is, right now, for another provider only (open_to_provider in Python:
    the accept checks it on the row it locked)."""
    if service_request.requested_provider_id is None or service_request.requested_provider_id == provider_id:
        return False
    if service_request.only_requested_provider:
        return True
    lapsed = service_request.direct_until is None or service_request.direct_until <= now
    return not (lapsed or service_request.declined_at is not None)


def _booked_with(user: User):
    return Exists(ServiceRequest.objects.filter(pk=OuterRef("pk"), bookings__provider__user=user))


def service_request_visible(*, user: User) -> QuerySet[ServiceRequest]:
    """Every request the user may open (detail page)."""
    qs = ServiceRequest.objects.all()
    if user.is_admin:
        return _with_people(qs, user.pk)
    visible = in_circles_of(user.pk) | Q(booked_with=True)
    if user_is_vetted_provider(user=user):
        visible |= Q(status=RequestStatus.OPEN) & open_to_provider(user.pk)
    return _with_people(qs.annotate(booked_with=_booked_with(user)).filter(visible), user.pk)


def _open_of_others(user_id: str) -> QuerySet[ServiceRequest]:
    """Open requests of others, for a verified provider; none at all for anyone else (the check is
    part of the same query). As before care circles: a provider's view of open requests is theirs."""
    return _with_people(
        ServiceRequest.objects.filter(status=RequestStatus.OPEN)
        .filter(open_to_provider(user_id))
        .exclude(client_id=user_id)
        .filter(Exists(provider_vetted(user_id=user_id))),
        user_id,
    )


def _own(user_id: str, recipient_id: int | None = None) -> QuerySet[ServiceRequest]:
    """The requests for the recipients in the user's circles (one of them when recipient_id is given)."""
    qs = ServiceRequest.objects.filter(in_circles_of(user_id))
    if recipient_id is not None:
        qs = qs.filter(recipient_id=recipient_id)
    return _with_people(qs, user_id)


_NEWEST_FIRST = ("-created_at", "-id")


def service_request_list(*, user: User) -> QuerySet[ServiceRequest]:
    """GET /api/service-requests: admins all, provider accounts the open requests of others (none
    unless their profile is verified), everyone else their own. Newest first."""
    if user.is_admin:
        return _with_people(ServiceRequest.objects.all(), user.pk).order_by(*_NEWEST_FIRST)
    return service_request_list_shown(user=user)


def service_request_list_shown(*, user: User, recipient_id: int | None = None) -> QuerySet[ServiceRequest]:
    """The dashboard's requests card: for a provider account the open requests of others (none
    unless their profile is verified), for everyone else (admins too) the requests for the
    recipients in their circles (only `recipient_id`'s when given: the dashboard's switcher).
    Newest first."""
    if user.user_type == "provider":
        return _open_of_others(user.pk).order_by(*_NEWEST_FIRST)
    return _own(user.pk, recipient_id).order_by(*_NEWEST_FIRST)


def recipient_shown_in_full_to(service_request: ServiceRequest, user: User) -> bool:
    """Whether `user` is the provider booked on the request (once it is booked): they see the
    recipient's address, phone, notes for helpers and whom in the circle to contact."""
    return (
        service_request.status != RequestStatus.OPEN
        and getattr(service_request, "booked_provider_user_id", None) == user.pk
        and user.pk is not None
    )


def service_request_list_admin() -> QuerySet[ServiceRequest]:
    """Every request for staff, those deleted by their client too (status "deleted"): a trace."""
    return _with_people(ServiceRequest.all_objects.all()).order_by(*_NEWEST_FIRST)


def service_request_get(*, user: User, pk: int) -> ServiceRequest:
    """One request the user may see; otherwise 404."""
    service_request = service_request_visible(user=user).filter(pk=pk).first()
    if service_request is None:
        raise NotFound("Service request not found.")
    return service_request


def service_request_get_for_accept(*, user: User, pk: int) -> ServiceRequest:
    """The target of an accept. A provider also "finds" a request another provider just took, so
    the loser of a race gets 409 (already accepted), not 404. A request sent to another provider
    is not there (404) while it is theirs alone."""
    if user_acts_as_provider(user=user):
        qs = ServiceRequest.objects.filter(open_to_provider(user.pk))
    else:
        qs = service_request_visible(user=user)
    service_request = qs.filter(pk=pk).exclude(status=RequestStatus.CANCELLED).first()
    if service_request is None:
        raise NotFound("Service request not found.")
    return service_request


def private_details_visible_to(service_request: ServiceRequest, user: User, *, vetted: Callable[[], bool]) -> bool:
    """Whether `user` may read the request's location and special requirements (ARCHITECTURE.md):
    the members of the recipient's circle, verified providers while it is open, the booked
    provider; nobody else (admins neither).

    Expects the request from a selector here (booked_provider_user_id and viewer_role annotated);
    vetted answers providers.selectors.user_is_vetted_provider(user=user), and is asked only when
    the answer matters (never for the circle's own requests).
    """
    if not user.is_authenticated:
        return False
    if viewer_in_circle(service_request, user):
        return True
    booked = getattr(service_request, "booked_provider_user_id", None)
    if booked is not None:
        return booked == user.pk and service_request.status != RequestStatus.OPEN
    return service_request.status == RequestStatus.OPEN and vetted()


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


def recipients_to_request_for(*, user: User) -> list[dict]:
    """The request form's "Who is this for?" options: every recipient the user organizes (their own
    first, as "Myself"), each with the address the location field starts from; plus "Myself" with
    id None when the user has no recipient of their own yet (posting makes it)."""
    rows = list(
        CareRecipient.objects.filter(pk__in=organized_recipient_ids(user_id=user.pk))
        .order_by("first_name", "last_name", "id")
        .values("id", "first_name", "last_name", "address", "account_id")
    )
    options = [
        {
            "id": row["id"],
            "firstName": row["first_name"],
            "lastName": row["last_name"],
            "address": row["address"],
            "isSelf": row["account_id"] == user.pk,
        }
        for row in rows
    ]
    options.sort(key=lambda option: not option["isSelf"])
    if not any(option["isSelf"] for option in options):
        options.insert(
            0, {"id": None, "firstName": user.first_name, "lastName": user.last_name, "address": "", "isSelf": True}
        )
    return options


def recipient_contacts(*, recipient_id: int) -> list[dict[str, str]]:
    """Whom the booked provider may contact in the circle (in-app messages only): the organizers'
    first and last names, oldest member first. Never their emails or phones."""
    return list(
        CircleMember.objects.filter(recipient_id=recipient_id, role=CircleRole.ORGANIZER)
        .order_by("created_at", "id")
        .values("user__first_name", "user__last_name")
    )


def service_requests_stale(*, today: dt.date) -> QuerySet[ServiceRequest]:
    """Open requests whose preferred date is before `today` (site time zone): expire_stale_requests."""
    return ServiceRequest.objects.filter(status=RequestStatus.OPEN, preferred_date__lt=today).order_by(
        "preferred_date", "pk"
    )


def service_requests_direct_lapsed(*, now: dt.datetime) -> list[int]:
    """Open direct requests whose window ended without an answer and that have not been opened to
    all yet (the circle not told): requests_app.tasks.open_lapsed_direct_requests."""
    return list(
        ServiceRequest.objects.filter(
            status=RequestStatus.OPEN,
            only_requested_provider=False,
            direct_until__lte=now,
            declined_at__isnull=True,
            direct_opened_at__isnull=True,
        )
        .order_by("direct_until", "pk")
        .values_list("pk", flat=True)
    )


def direct_window_next_end(*, now: dt.datetime) -> dt.datetime | None:
    """When the next direct request opens to all by the clock (None: none is waiting): the cached
    lists of providers it is hidden from expire then (marketplace.listcache)."""
    return (
        ServiceRequest.objects.filter(
            status=RequestStatus.OPEN,
            only_requested_provider=False,
            declined_at__isnull=True,
            direct_until__gt=now,
        )
        .order_by("direct_until")
        .values_list("direct_until", flat=True)
        .first()
    )


def service_request_to_rebook(*, user: User, booking_id: int) -> ServiceRequest | None:
    """The request of a booking in one of the user's circles ("Book again", issue 18): what the new
    request starts from. None for anyone else's booking (the plain form)."""
    return (
        ServiceRequest.objects.filter(in_circles_of(user.pk), bookings__pk=booking_id)
        .select_related("category")
        .first()
    )
