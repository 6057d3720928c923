"""Provider endpoints: public listing, own profile (apply). A provider's reviews: bookings.api.views."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from circles.selectors import recipient_place_for
from core.api import ArrayLimitOffsetPagination
from core.errors import PermissionDenied
from core.languages import SPOKEN
from core.listcache import CachedListMixin
from providers import ports as provider_ports
from providers import selectors, services
from providers.api.serializers import (
    BrowseProviderSerializer,
    ProviderApplicationSerializer,
    ProviderAreaSerializer,
    ProviderListQuerySerializer,
    ProviderSerializer,
    ScheduleSerializer,
    ScheduleUpdateSerializer,
    TimeOffCreateSerializer,
    TimeOffSerializer,
)
from providers.models import VISIT_WINDOWS, Specialty
from providers.selectors import SORTS


class ProviderListPagination(ArrayLimitOffsetPagination):
    """Near someone (the view's `_near`): the page's ids, nearest first, and the total in one
    narrow query (selectors.ranked_ids), then the page's rows by id. Otherwise as every list."""

    def paginate_queryset(self, queryset, request, view=None) -> list:  # type: ignore[override]
        if getattr(view, "_near", None) is None:
            return super().paginate_queryset(queryset, request, view)
        self.request = request
        self.limit = self.get_limit(request)
        self.offset = self.get_offset(request)
        ranked = list(selectors.ranked_ids(queryset)[self.offset : self.offset + self.limit])
        # Past the end, the page is empty and the total is still counted.
        self.count = ranked[0][1] if ranked else (self.get_count(queryset) if self.offset else 0)
        return selectors.in_order(view.page_rows(), ranked)


@extend_schema(
    parameters=[
        OpenApiParameter("verified", str, enum=["true", "false"], description="Only verified providers are public."),
        OpenApiParameter("search", str, description="Bio, service area or specialty, case-insensitive."),
        OpenApiParameter("specialty", str, enum=Specialty.values),
        OpenApiParameter("language", str, enum=list(SPOKEN), description="Only helpers who speak it."),
        OpenApiParameter("sort", str, enum=list(SORTS)),
        OpenApiParameter("availableOn", str, description="YYYY-MM-DD: only providers free that day."),
        OpenApiParameter(
            "timeWindow", str, enum=list(VISIT_WINDOWS), description="With availableOn: free in this window."
        ),
        OpenApiParameter(
            "near",
            int,
            description="A care recipient of one of your circles: only helpers whose travel covers "
            "where they live, with distanceMiles (another's recipient: 404).",
        ),
        OpenApiParameter("within", int, description="With near: at most this many miles away (1 to 100)."),
    ]
)
class ProviderListView(CachedListMixin, generics.ListAPIView):
    """GET /api/providers: verified providers, public fields only (anyone; the same for all). With
    ?near=<care recipient id> (signed in, one's own circles only), the helpers who travel that far."""

    permission_classes = [AllowAny]
    serializer_class = BrowseProviderSerializer
    pagination_class = ProviderListPagination
    cache_per_viewer = False
    _query: dict = {}  # noqa: RUF012 - read only; list() sets the request's own
    _near = None
    # Each provider's next free window: her hours, time off and booked visits.
    # Each provider's answer speed and completion: the offers she answered, the visits she left.
    _tables = (
        "accounts.User",
        "bookings.Booking",
        "bookings.Replacement",
        "providers.Provider",
        "providers.TimeOff",
        "providers.WeeklyHours",
        "requests_app.Offer",
    )

    @property
    def cache_tables(self) -> tuple[str, ...]:
        # Near whom: the recipient's place (circles.CareRecipient) decides the distances, so a move
        # of hers reads the page again; a list near nobody does not depend on recipients.
        return (*self._tables, "circles.CareRecipient") if self._near else self._tables

    def get_queryset(self):
        query = self._query
        near = self._near
        qs = selectors.provider_list_public(
            search=query.get("search", ""),
            specialty=query.get("specialty", ""),
            language=query.get("language", ""),
            sort=query.get("sort") or (selectors.DISTANCE_SORT if near else selectors.DEFAULT_SORT),
            available_on=query.get("availableOn"),
            time_window=query.get("timeWindow", ""),
            near=near,
            within=query.get("within"),
        )
        return selectors.with_schedule(qs, now=getattr(self, "_now", None))

    def page_rows(self):
        """What a page near someone shows of the helpers it ranked (ProviderListPagination)."""
        return selectors.with_schedule(selectors.provider_rows(), now=getattr(self, "_now", None))

    def list(self, request: Request, *args, **kwargs) -> Response:
        # A plain dict: DRF reads "verified=" in a QueryDict as absent, the schema says it is invalid.
        query = ProviderListQuerySerializer(data=request.query_params.dict())
        query.is_valid(raise_exception=True)
        self._query = query.validated_data
        # Whom the helpers must be near is checked before the cache is read: a page of distances
        # from another family's home is never served, cached or not.
        self._near = None
        if self._query.get("near") is not None:
            self._near = recipient_place_for(user=request.user, recipient_id=self._query["near"])
        self._now = timezone.now()  # one "now" for the whole page's next free windows
        return super().list(request, *args, **kwargs)

    def paginate_queryset(self, queryset):
        page = super().paginate_queryset(queryset)
        # The page's answer speeds and completions, a few queries for the page (providers.ports.track_records).
        self._track_records = provider_ports.track_records([p.pk for p in page]) if page else {}
        # The first moment a helper on the page turns unlisted by the clock: her checks fall due.
        self._checks_due = min((p.checks_due_by for p in page or () if p.checks_due_by), default=None)
        return page

    def get_serializer_context(self) -> dict:
        return {
            **super().get_serializer_context(),
            "now": getattr(self, "_now", None),
            "track_records": getattr(self, "_track_records", {}),
        }

    def cache_max_age(self, items: list) -> float | None:
        """A page is stale once the earliest of its next free windows has started, or once a helper
        on it has checks past due (she leaves the list: Provider.checks_due_by)."""
        zone = ZoneInfo(settings.SITE_TIME_ZONE)
        starts = [
            dt.datetime.combine(
                dt.date.fromisoformat(item["nextFreeWindow"]["date"]),
                VISIT_WINDOWS[item["nextFreeWindow"]["timeWindow"]][0],
                tzinfo=zone,
            )
            for item in items
            if item.get("nextFreeWindow")
        ]
        due = getattr(self, "_checks_due", None)
        if due is not None:
            starts.append(due)
        return (min(starts) - timezone.now()).total_seconds() if starts else None


class ProviderProfileView(APIView):
    """GET/POST/PATCH /api/provider/profile: the signed-in user's own provider profile (PATCH: where she helps)."""

    @extend_schema(responses=ProviderSerializer)
    def get(self, request: Request) -> Response:
        return Response(ProviderSerializer(selectors.provider_get_own(user=request.user)).data)

    @extend_schema(request=ProviderApplicationSerializer, responses={201: ProviderSerializer})
    def post(self, request: Request) -> Response:
        serializer = ProviderApplicationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        provider = services.provider_apply(user=request.user, **serializer.validated_data)
        return Response(ProviderSerializer(provider).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=ProviderAreaSerializer, responses=ProviderSerializer)
    def patch(self, request: Request) -> Response:
        """Where she helps: her home ZIP code and how far she travels."""
        serializer = ProviderAreaSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        provider = services.provider_update_area(actor=request.user, **serializer.validated_data)
        return Response(ProviderSerializer(provider).data)


def _own_provider(request: Request):
    return selectors.provider_for_user(user=request.user)


class ScheduleView(APIView):
    """GET/PUT /api/providers/me/schedule: the signed-in provider's weekly hours and time off
    (anyone else: 403). PUT replaces the whole week."""

    @extend_schema(responses=ScheduleSerializer)
    def get(self, request: Request) -> Response:
        provider = _own_provider(request)
        if provider is None:
            raise PermissionDenied(services.NOT_A_PROVIDER)
        return Response(ScheduleSerializer(selectors.provider_schedule(provider=provider)).data)

    @extend_schema(request=ScheduleUpdateSerializer, responses=ScheduleSerializer)
    def put(self, request: Request) -> Response:
        provider = _own_provider(request)
        if provider is None:
            raise PermissionDenied(services.NOT_A_PROVIDER)
        serializer = ScheduleUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.schedule_set_weekly_hours(
            provider=provider, actor=request.user, windows=serializer.validated_data["weekly_hours"]
        )
        return Response(ScheduleSerializer(selectors.provider_schedule(provider=provider)).data)


class TimeOffView(APIView):
    """POST /api/providers/me/time-off: add days off."""

    @extend_schema(request=TimeOffCreateSerializer, responses={201: TimeOffSerializer})
    def post(self, request: Request) -> Response:
        provider = _own_provider(request)
        if provider is None:
            raise PermissionDenied(services.NOT_A_PROVIDER)
        serializer = TimeOffCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        time_off = services.time_off_add(provider=provider, actor=request.user, **serializer.validated_data)
        return Response(TimeOffSerializer(time_off).data, status=status.HTTP_201_CREATED)


class TimeOffDetailView(APIView):
    """DELETE /api/providers/me/time-off/<id>: remove one of one's own time off."""

    @extend_schema(responses={204: None})
    def delete(self, request: Request, time_off_id: int) -> Response:
        services.time_off_remove(provider=_own_provider(request), actor=request.user, time_off_id=time_off_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
