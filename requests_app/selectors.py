"""Reads of categories and service requests, scoped to what the caller may see.

ARCHITECTURE.md: clients see the requests for the care recipients in whose circles they are (any
role; scoped through circles.selectors.recipient_ids_of, a subquery, so each list stays
one query); verified (and active) providers see open requests of others; a provider sees the
requests they are booked on; admins see all. An account
without a verified provider profile (none, switched to provider without applying, pending,
rejected) sees no open request of anyone else. Anything else is a 404.

A request sent to one provider is open to that provider alone until
its window ends (DIRECT_WINDOW after it was posted) or they decline, and for good when the client
chose "only this helper": to every other provider it is a 404 until then.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Callable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import (
    Case,
    CharField,
    Exists,
    F,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
    Window,
)
from django.db.models.functions import RowNumber
from django.utils import timezone
from django.utils.translation import gettext

from accounts.selectors import USER_SUMMARY_FIELDS
from circles.models import CareRecipient, CircleMember, CircleRole
from circles.selectors import organized_recipient_ids, recipient_ids_of
from core.addresses import AREA, FULL, PART_API_NAMES, PART_NAMES, STAFF_SEES, full_line
from core.errors import NotFound
from core.geo import Point
from providers import ports as provider_ports
from providers.models import Provider, TimeOff
from providers.selectors import (
    free_for_visit,
    provider_list_public,
    provider_offers,
    provider_vetted,
    speaks,
    user_acts_as_provider,
    user_is_vetted_provider,
    visit_problems,
    with_languages_text,
)
from requests_app import ports
from requests_app.models import (
    ADDRESS_KEPT_AFTER_VISIT,
    OFFER_ANSWER_TIME,
    WINDOW_START,
    Offer,
    OfferAnswer,
    OfferedTo,
    RequestStatus,
    ServiceCategory,
    ServiceRequest,
    TimeWindow,
)
from requests_app.series import request_visit_dates

if TYPE_CHECKING:
    from accounts.models import User


def category_list_active() -> QuerySet[ServiceCategory]:
    return ServiceCategory.objects.filter(is_active=True).order_by("id")


def category_get_active(*, category_id: int) -> ServiceCategory | None:
    return ServiceCategory.objects.filter(pk=category_id, is_active=True).first()


# What a recipient's summary shape reads (circles' RecipientSummarySerializer): {id, firstName, lastName}.
RECIPIENT_SUMMARY_FIELDS = ("id", "first_name", "last_name", "time_zone")

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

    The request's bookings belong to the app above: the booking shown (a series has one per visit:
    its next visit still ahead, else its last one) is asked of requests_app.ports.shown_booking.
    """
    qs = (
        qs.select_related("client", "category", "recipient", "requested_provider__user")
        .only(*_LISTED_FIELDS)
        .annotate(
            booked_provider_user_id=ports.shown_booking("provider__user_id"),
            booking_id=ports.shown_booking("id"),
        )
    )
    if viewer_id is not None:
        qs = qs.annotate(
            viewer_role=viewer_role_of(viewer_id),
            viewer_holds_address=holds_address(viewer_id),
            viewer_holds_address_of=Value(viewer_id, output_field=CharField()),
        )
    return qs


def in_circles_of(user_id: str) -> Q:
    """Requests for a recipient in whose circle the user is (any role)."""
    return Q(recipient_id__in=recipient_ids_of(user_id=user_id))


def open_to_all(now: dt.datetime) -> Q:
    """Requests every verified provider may take (when open): not sent to one provider, or sent
    without "only this helper" and past its window or declined."""
    opened = Q(direct_until__isnull=True) | Q(direct_until__lte=now) | Q(declined_at__isnull=False)
    return Q(requested_provider__isnull=True) | (Q(only_requested_provider=False) & opened)


def offered_to_her(user_id: str) -> Q:
    """Requests shown to every helper who can take them (OfferedTo.ALL), and those offered to the
    provider of this user (an Offer of hers she did not decline: "Not for me" takes it off her list):
    a request offered to a few helpers near the family is nobody else's to see or take while it is
    theirs."""
    return Q(offered_to=OfferedTo.ALL) | Q(
        Exists(
            Offer.objects.filter(service_request_id=OuterRef("pk"), provider__user_id=user_id).exclude(
                answer=OfferAnswer.DECLINED
            )
        )
    )


def open_to_provider(user_id: str, now: dt.datetime | None = None) -> Q:
    """Requests the provider of this user may take (when open): those open to all helpers or
    offered to her (offered_to_her), and those sent to her."""
    return (open_to_all(now or timezone.now()) & offered_to_her(user_id)) | Q(requested_provider__user_id=user_id)


def offered_to_others(service_request: ServiceRequest, *, provider_id: int) -> bool:
    """Whether the request is, right now, offered to other helpers and not to this one
    (offered_to_her in Python: the accept checks it on the row it took)."""
    if service_request.offered_to != OfferedTo.OFFERS or service_request.requested_provider_id == provider_id:
        return False
    return (
        not Offer.objects.filter(service_request_id=service_request.pk, provider_id=provider_id)
        .exclude(answer=OfferAnswer.DECLINED)
        .exists()
    )


def direct_to_someone_else(service_request: ServiceRequest, *, provider_id: int, now: dt.datetime) -> bool:
    """Whether the request is, right now, for another provider only (open_to_provider in Python:
    the accept checks it on the row it locked)."""
    if service_request.requested_provider_id is None or service_request.requested_provider_id == provider_id:
        return False
    if service_request.only_requested_provider:
        return True
    lapsed = service_request.direct_until is None or service_request.direct_until <= now
    return not (lapsed or service_request.declined_at is not None)


def service_request_visible(*, user: User) -> QuerySet[ServiceRequest]:
    """Every request the user may open (detail page)."""
    qs = ServiceRequest.objects.all()
    if user.is_admin:
        return _with_people(qs, user.pk)
    visible = in_circles_of(user.pk) | Q(booked_with=True)
    if user_is_vetted_provider(user=user):
        visible |= Q(status=RequestStatus.OPEN) & open_to_provider(user.pk)
    return _with_people(qs.annotate(booked_with=ports.booked_with(user.pk)).filter(visible), user.pk)


def request_visit_intervals(service_request: ServiceRequest) -> list[tuple[dt.datetime, dt.datetime]]:
    """When each visit of the request would run (start, end), as its bookings would: the date plus
    the start of its window (Flexible: 8 AM) in the site's zone, for its duration."""
    zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
    window_start = WINDOW_START.get(service_request.preferred_time, WINDOW_START[TimeWindow.FLEXIBLE])
    length = dt.timedelta(minutes=service_request.estimated_duration)
    starts = (dt.datetime.combine(day, window_start, tzinfo=zone) for day in request_visit_dates(service_request))
    return [(start, start + length) for start in starts]


def provider_can_take(
    provider: Provider, service_request: ServiceRequest, *, busy: list[tuple[dt.datetime, dt.datetime]] | None = None
) -> bool:
    """Whether the provider could accept the request now: she offers its service and can make its
    visit (for a series, at least one of them: she may accept it without the others). The list of
    open requests she is shown asks this; her accept asks the same providers.selectors.visit_problems.
    `busy`: her booked visits (providers.ports.busy_intervals) when the caller read them already."""
    if not provider_offers(provider, service_request.category.slug):
        return False
    visits = request_visit_intervals(service_request)
    if not visits or visits[0][0] <= timezone.now():
        return False  # no date yet, or its first visit has begun: the accept refuses both
    if busy is None:
        busy = provider_ports.busy_intervals(
            provider, start=min(start for start, _ in visits), end=max(end for _, end in visits)
        )
    return "" in visit_problems(provider, visits, busy=busy)


def _open_of_others(user_id: str) -> QuerySet[ServiceRequest]:
    """Open requests of others that a verified provider can accept (provider_can_take: her service,
    inside her hours, not on her time off, not over another of her visits), and those sent to her
    directly (she answers them); none at all for anyone else. As before care circles: a provider's
    view of open requests is theirs."""
    qs = (
        ServiceRequest.objects.filter(status=RequestStatus.OPEN)
        .filter(open_to_provider(user_id))
        .exclude(client_id=user_id)
    )
    provider = (
        provider_vetted(user_id=user_id)
        .prefetch_related(
            "weekly_hours",
            Prefetch(
                "time_off",
                queryset=TimeOff.objects.filter(last_day__gte=timezone.localdate()),
                to_attr="upcoming_time_off",
            ),
        )
        .first()
    )
    if provider is None:
        return _with_people(qs.none(), user_id)
    candidates = list(
        qs.filter(Q(category__slug__in=provider.specialties or []) | Q(requested_provider=provider))
        .select_related("category")
        .only(
            "id",
            "requested_provider_id",
            "category__slug",
            "preferred_date",
            "preferred_time",
            "estimated_duration",
            "repeat",
            "repeat_count",
            "repeat_until",
        )
    )
    intervals = [i for c in candidates for i in request_visit_intervals(c)]
    busy = (
        provider_ports.busy_intervals(provider, start=min(s for s, _ in intervals), end=max(e for _, e in intervals))
        if intervals
        else []
    )
    # A request sent to her directly stays in her list whatever it asks: she must answer it, by
    # accepting or by declining with a reason the family reads (her accept still refuses what she
    # cannot make, saying why).
    takeable = [
        c.pk for c in candidates if c.requested_provider_id == provider.pk or provider_can_take(provider, c, busy=busy)
    ]
    return _with_people(ServiceRequest.objects.filter(pk__in=takeable), user_id).annotate(
        offer_miles=Subquery(
            Offer.objects.filter(service_request_id=OuterRef("pk"), provider_id=provider.pk).values("miles")[:1]
        )
    )


def _own(user_id: str, recipient_id: int | None = None) -> QuerySet[ServiceRequest]:
    """The requests for the recipients in the user's circles (one of them when recipient_id is given)."""
    qs = ServiceRequest.objects.filter(in_circles_of(user_id))
    if recipient_id is not None:
        qs = qs.filter(recipient_id=recipient_id)
    return _with_people(qs, user_id)


_NEWEST_FIRST = ("-created_at", "-id")


def service_request_list(*, user: User, as_provider: bool | None = None) -> QuerySet[ServiceRequest]:
    """GET /api/service-requests: admins all; in the helper view (as_provider; by default a provider
    account's) the open requests of others (none unless their profile is verified); in the client
    view (everyone else's default) the requests for the recipients in their circles, whatever the
    account's type. Newest first."""
    if user.is_admin:
        return _with_people(ServiceRequest.objects.all(), user.pk).order_by(*_NEWEST_FIRST)
    return service_request_list_shown(user=user, as_provider=as_provider)


def service_request_list_shown(
    *, user: User, recipient_id: int | None = None, as_provider: bool | None = None
) -> QuerySet[ServiceRequest]:
    """The dashboard's requests card: in the helper view (as_provider; by default a provider
    account's) the open requests of others (none unless their profile is verified), in the client
    view (everyone else, admins too) the requests for the recipients in their circles (only
    `recipient_id`'s when given: the dashboard's switcher). Newest first."""
    if as_provider is None:
        as_provider = user.user_type == "provider"
    if as_provider:
        return _open_of_others(user.pk).order_by(*_NEWEST_FIRST)
    return _own(user.pk, recipient_id).order_by(*_NEWEST_FIRST)


def service_request_list_admin() -> QuerySet[ServiceRequest]:
    """Every request for staff, those deleted by their client too (status "deleted"): a trace."""
    return _with_people(ServiceRequest.all_objects.all()).order_by(*_NEWEST_FIRST)


def service_request_get(*, user: User, pk: int) -> ServiceRequest:
    """One request the user may see; otherwise 404."""
    service_request = service_request_visible(user=user).filter(pk=pk).first()
    if service_request is None:
        raise NotFound(gettext("Service request not found."))
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
        raise NotFound(gettext("Service request not found."))
    return service_request


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


def recipients_to_request_for(*, user: User) -> list[dict]:
    """The request form's "Who is this for?" options: every recipient the user organizes (their own
    first, as "Myself"), each with the address the location fields start from (one line and in
    parts); plus "Myself" with id None when the user has no recipient of their own yet (posting
    makes it)."""
    rows = list(
        CareRecipient.objects.filter(pk__in=organized_recipient_ids(user_id=user.pk))
        .order_by("first_name", "last_name", "id")
        .values("id", "first_name", "last_name", *PART_NAMES, "account_id")
    )
    options = [
        {
            "id": row["id"],
            "firstName": row["first_name"],
            "lastName": row["last_name"],
            "address": full_line(*(row[name] for name in PART_NAMES)),
            "addressParts": {PART_API_NAMES[name]: row[name] for name in PART_NAMES},
            "isSelf": row["account_id"] == user.pk,
        }
        for row in rows
    ]
    options.sort(key=lambda option: not option["isSelf"])
    if not any(option["isSelf"] for option in options):
        options.insert(
            0,
            {
                "id": None,
                "firstName": user.first_name,
                "lastName": user.last_name,
                "address": "",
                "addressParts": {PART_API_NAMES[name]: "" for name in PART_NAMES},
                "isSelf": True,
            },
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
    lists of providers it is hidden from expire then (core.listcache)."""
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
    """The request of a booking in one of the user's circles ("Book again"): what the new
    request starts from. None for anyone else's booking (the plain form)."""
    return (
        ServiceRequest.objects.filter(in_circles_of(user.pk), pk=ports.request_of_booking(booking_id))
        .select_related("category")
        .first()
    )


# ---------------------------------------------------------------- offers: who is offered a request
# A round of offers reads the OFFER_POOL helpers nearest the person cared for among those whose own
# travel distance covers her (providers.selectors.within_reach: a box per band of travel distance
# on an index, so the rows read do not grow with the helpers farther out), ranks them by one score
# (below), among those who can make the visit (her service, her hours, not her time off, no other
# visit then: asked in the same query for one visit, free_for_visit).
OFFER_POOL = 60
# The score, in miles: her distance, plus this many miles per star of rating below 5, plus one mile
# per this many minutes of her median answer time (a helper with no answers yet counts as
# NEW_HELPER_ANSWER_MINUTES): a helper rated 4 stars one mile nearer than one rated 5 ties with her.
RATING_MILES = 1.0
ANSWER_MINUTES_PER_MILE = 30.0
NEW_HELPER_ANSWER_MINUTES = 30.0
# A helper's answer speed: the median over her last this many answered offers.
ANSWER_SPEED_OFFERS = 25


def answer_minutes_of(provider_ids: list[int]) -> dict[int, float]:
    """Each helper's median time to answer an offer (accepted or declined), in minutes, over her
    last ANSWER_SPEED_OFFERS answered offers; a helper with none is left out. One query."""
    if not provider_ids:
        return {}
    rows = (
        Offer.objects.filter(provider_id__in=provider_ids, answered_at__isnull=False)
        .exclude(answer=OfferAnswer.CLOSED)
        .annotate(nth=Window(RowNumber(), partition_by=[F("provider_id")], order_by=F("offered_at").desc()))
        .filter(nth__lte=ANSWER_SPEED_OFFERS)
        .values_list("provider_id", "offered_at", "answered_at")
    )
    waits: dict[int, list[float]] = {}
    for provider_id, offered_at, answered_at in rows:
        waits.setdefault(provider_id, []).append(max((answered_at - offered_at).total_seconds(), 0) / 60)
    return {pk: _median(values) for pk, values in waits.items()}


def _median(values: list[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def offer_score(*, miles: float, rating: float, answer_minutes: float | None) -> float:
    """The rank of a helper for an offer (lower first): distance, rating and answer speed in miles."""
    minutes = NEW_HELPER_ANSWER_MINUTES if answer_minutes is None else answer_minutes
    return miles + RATING_MILES * (5 - rating) + minutes / ANSWER_MINUTES_PER_MILE


def offer_candidates(service_request: ServiceRequest, *, count: int) -> list[tuple[Provider, float]]:
    """The best `count` helpers to offer the request to next, each with her distance in miles:
    helpers_for_visits over its visits, without those offered it before. The recipient must be
    placed (its caller checks)."""
    visits = request_visit_intervals(service_request)
    if not visits or visits[0][0] <= timezone.now():
        return []  # no date yet, or its first visit has begun: nobody can take it (provider_can_take)
    return helpers_for_visits(
        recipient=service_request.recipient,
        specialty=service_request.category.slug,
        client_id=service_request.client_id,
        visits=visits,
        excluded=Offer.objects.filter(service_request_id=service_request.pk).values("provider_id"),
        count=count,
    )


def helpers_for_visits(
    *,
    recipient: CareRecipient,
    specialty: str,
    client_id: str,
    visits: list[tuple[dt.datetime, dt.datetime]],
    excluded: QuerySet | list[int],
    count: int,
) -> list[tuple[Provider, float]]:
    """The best `count` helpers who can make these visits (for a series, one of them at least), each
    with her distance in miles: verified and active with checks current, offering the service, her
    travel distance covering the person cared for (placed: the callers check), free then (her hours,
    her time off, her other visits), not `excluded`, not the client nor in the recipient's circle;
    those who speak the recipient's language (CareRecipient.language) first, each group ranked by
    offer_score. The offers of a request and a replacement's rounds both ask this.

    Two queries whatever the helpers near, and none more per helper: the pool (the OFFER_POOL
    nearest in reach, read by travel band on the index, within_reach, and for one visit only those
    free then: providers.selectors.free_for_visit's EXISTS subqueries), then the pool's answer
    speed. A series (several visits) reads the pool's hours, time off and booked visits in one
    prefetch each and keeps those who can make one of its visits (visit_problems)."""
    center = Point(recipient.latitude, recipient.longitude)
    circle = CircleMember.objects.filter(recipient_id=recipient.pk).values("user_id")
    # A helper who speaks her language comes before any who does not: an older woman at ease in
    # Spanish is best helped in Spanish, and the pool reads the nearest speakers first.
    language = recipient.language
    qs = (
        with_languages_text(provider_list_public(specialty=specialty, near=center, sort="distance"))
        .annotate(not_speaking=Case(When(speaks(language), then=Value(0)), default=Value(1)))
        .order_by("not_speaking", "distance_miles", "pk")
        .select_related(None)
        .only("id", "user_id", "specialties", "rating", "travel_miles", "languages")
        .exclude(user_id=client_id)
        .exclude(user_id__in=circle)
        .exclude(pk__in=excluded)
    )
    start, end = min(s for s, _ in visits), max(e for _, e in visits)
    if len(visits) == 1:
        pool = list(free_for_visit(qs, start=start, end=end)[:OFFER_POOL])
    else:
        zone = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
        first_day, last_day = start.astimezone(zone).date(), end.astimezone(zone).date()
        everyone = qs.prefetch_related(
            "weekly_hours",
            Prefetch(
                "time_off",
                queryset=TimeOff.objects.filter(last_day__gte=first_day, first_day__lte=last_day),
                to_attr="upcoming_time_off",
            ),
            provider_ports.busy_prefetch(start, end),
        )[:OFFER_POOL]
        pool = [
            p
            for p in everyone
            if "" in visit_problems(p, visits, busy=[(v.starts_at, v.ends_at) for v in p.busy_visits])
        ]
    speed = answer_minutes_of([p.pk for p in pool])
    pool.sort(
        key=lambda p: (
            language not in (p.languages or []),
            offer_score(miles=p.distance_miles, rating=float(p.rating), answer_minutes=speed.get(p.pk)),
            p.pk,
        )
    )
    return [(provider, provider.distance_miles) for provider in pool[:count]]


def offer_answer_time(service_request: ServiceRequest) -> dt.timedelta:
    """How long the helpers offered a request have to accept it before it widens (shorter when urgent)."""
    return OFFER_ANSWER_TIME.get(service_request.urgency, OFFER_ANSWER_TIME["normal"])


def requests_to_offer(*, now: dt.datetime, posted_before: dt.datetime) -> list[int]:
    """Open requests waiting for offers (beat's sweep): never offered and posted before
    `posted_before` (a lost task, a place that took long), or whose round ended unanswered."""
    return list(
        ServiceRequest.objects.filter(status=RequestStatus.OPEN, offered_to=OfferedTo.OFFERS)
        .filter(Q(offer_round=0, created_at__lte=posted_before) | Q(offers_answer_by__lte=now))
        .order_by("pk")
        .values_list("pk", flat=True)[:500]
    )
