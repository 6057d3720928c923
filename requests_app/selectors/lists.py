"""The categories, and which requests each viewer sees: the scopes (a circle's, open to every
helper, offered to her, sent to one helper), the lists and one request, whether a helper can take
one, and the open requests the beat jobs read (stale, a direct request's window ended)."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import CharField, Exists, OuterRef, Prefetch, Q, QuerySet, Subquery, Value
from django.utils import timezone
from django.utils.translation import gettext

from accounts.selectors import USER_SUMMARY_FIELDS
from circles.models import CircleMember
from circles.selectors import recipient_ids_of
from core.errors import NotFound
from providers import ports as provider_ports
from providers.models import Provider, TimeOff
from providers.selectors import (
    provider_offers,
    provider_vetted,
    user_acts_as_provider,
    user_is_vetted_provider,
    visit_problems,
)
from requests_app import ports
from requests_app.models import (
    WINDOW_START,
    Offer,
    OfferAnswer,
    OfferedTo,
    RequestStatus,
    ServiceCategory,
    ServiceRequest,
    TimeWindow,
)
from requests_app.selectors.addresses import holds_address
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
