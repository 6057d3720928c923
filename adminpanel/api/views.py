"""/api/admin/*: lists of everything (searched, paged), the count cards, provider approval, booking
reassign and cancel (admins only)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from adminpanel import selectors
from adminpanel.api.serializers import (
    AdminBookingQuerySerializer,
    AdminListQuerySerializer,
    AdminProviderQuerySerializer,
    AdminServiceRequestQuerySerializer,
    AdminSummarySerializer,
    LateFeeDisputeRowSerializer,
    MarketSerializer,
    VerifiedShareSerializer,
)
from adminpanel.services import (
    admin_booking_cancel,
    admin_booking_reassign,
    admin_booking_remove_provider,
    admin_late_fee_decide,
    admin_provider_set_status,
)
from bookings.api.serializers import (
    AdminBookingCancelSerializer,
    BookingReassignSerializer,
    BookingSerializer,
    RemoveProviderSerializer,
    VisitSerializer,
    visits_max_age,
)
from bookings.selectors import booking_get, verified_share_by_helper, visits_on
from core.listcache import CachedListMixin
from payments.api.serializers import LateFeeDecisionSerializer, LateFeeSerializer
from payments.selectors import late_fee_disputes_open, late_fee_get
from providers.api.serializers import ProviderSerializer, ProviderStatusSerializer
from requests_app.api.serializers import ServiceRequestSerializer


def _query(view: generics.GenericAPIView, serializer_class: type[AdminListQuerySerializer]) -> dict:
    """The list's ?search=, ?status= (and ?date=), checked: a bad value is a 400."""
    # A plain dict: DRF reads "status=" in a QueryDict as absent.
    query = serializer_class(data=view.request.query_params.dict())
    query.is_valid(raise_exception=True)
    return {key: value for key, value in query.validated_data.items() if value not in ("", None)}


@extend_schema(parameters=[AdminProviderQuerySerializer])
class AdminProviderListView(generics.ListAPIView):
    """GET /api/admin/providers: providers with email and phone, newest first; ?search= (name,
    email, specialty), ?status=, paged by ?limit=&offset= with the total in X-Total-Count."""

    permission_classes = [IsAdmin]
    serializer_class = ProviderSerializer

    def get_queryset(self):
        return selectors.provider_list_admin(**_query(self, AdminProviderQuerySerializer))


@extend_schema(parameters=[AdminBookingQuerySerializer])
class AdminBookingListView(generics.ListAPIView):
    """GET /api/admin/bookings: every booking, newest first; ?search= (id, people, title),
    ?status=, ?date=, paged with the total in X-Total-Count."""

    permission_classes = [IsAdmin]
    serializer_class = BookingSerializer

    def get_queryset(self):
        return selectors.booking_list_admin(**_query(self, AdminBookingQuerySerializer))


@extend_schema(parameters=[AdminServiceRequestQuerySerializer])
class AdminServiceRequestListView(generics.ListAPIView):
    """GET /api/admin/service-requests: every request, newest first; ?search= (id, client, service,
    title, description), ?status=, paged with the total in X-Total-Count."""

    permission_classes = [IsAdmin]
    serializer_class = ServiceRequestSerializer

    def get_queryset(self):
        return selectors.service_request_list_admin(**_query(self, AdminServiceRequestQuerySerializer))


class AdminSummaryView(APIView):
    """GET /api/admin/summary: the count cards (providers by status, bookings, requests)."""

    permission_classes = [IsAdmin]

    @extend_schema(responses=AdminSummarySerializer)
    def get(self, request: Request) -> Response:
        return Response(AdminSummarySerializer(selectors.admin_counts()).data)


class AdminMarketView(APIView):
    """GET /api/admin/market: the market over the last 7 and 30 days (fill rate within a day,
    median time to accept, unfilled requests by area) and day by day for the chart (admins only)."""

    permission_classes = [IsAdmin]

    @extend_schema(responses=MarketSerializer)
    def get(self, request: Request) -> Response:
        return Response(MarketSerializer(selectors.market_summary()).data)


class AdminTodayView(CachedListMixin, generics.ListAPIView):
    """GET /api/admin/today: every visit of today (site time zone) with its state (upcoming, in
    progress, late, missed, done, cancelled), earliest first; the admin page's "Today" tab. The same
    for every admin, cached until a booking or report changes or a visit's state turns by the clock."""

    permission_classes = [IsAdmin]
    serializer_class = VisitSerializer
    pagination_class = None
    cache_per_viewer = False
    cache_tables = (
        "accounts.User",
        "bookings.Booking",
        "bookings.VisitReport",
        "bookings.Replacement",
        "bookings.VisitTaskOutcome",
        "bookings.VisitPhoto",
        "circles.CareRecipient",
        "circles.CircleMember",
        "providers.Provider",
        "requests_app.ServiceCategory",
        "requests_app.ServiceRequest",
    )

    def cache_max_age(self, items: list) -> float | None:
        return visits_max_age(items)

    def get_queryset(self):
        return visits_on(day=timezone.localdate())


class AdminProviderStatusView(APIView):
    """PUT /api/admin/providers/{id}/status {status: verified|rejected, reason?}: pending providers
    are approved or rejected, rejected ones can be approved later; anything else is a 409."""

    permission_classes = [IsAdmin]

    @extend_schema(request=ProviderStatusSerializer, responses=ProviderSerializer)
    def put(self, request: Request, pk: int) -> Response:
        serializer = ProviderStatusSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        provider = admin_provider_set_status(provider_id=pk, actor=request.user, **serializer.validated_data)
        return Response(ProviderSerializer(provider).data)


def _booking_response(request: Request, pk: int) -> Response:
    return Response(BookingSerializer(booking_get(user=request.user, pk=pk), context={"request": request}).data)


class AdminBookingReassignView(APIView):
    """PUT /api/admin/bookings/{id}/reassign {newProviderId, reason?}: confirmed bookings only."""

    permission_classes = [IsAdmin]

    @extend_schema(request=BookingReassignSerializer, responses=BookingSerializer)
    def put(self, request: Request, pk: int) -> Response:
        serializer = BookingReassignSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        admin_booking_reassign(
            booking_id=pk,
            actor=request.user,
            new_provider_id=serializer.validated_data["newProviderId"],
            reason=serializer.validated_data.get("reason", ""),
        )
        return _booking_response(request, pk)


class AdminBookingRemoveHelperView(APIView):
    """PUT /api/admin/bookings/{id}/remove-helper {reason}: take the helper off a scheduled or
    confirmed visit still ahead; it is offered to other helpers at once."""

    permission_classes = [IsAdmin]

    @extend_schema(request=RemoveProviderSerializer, responses=BookingSerializer)
    def put(self, request: Request, pk: int) -> Response:
        serializer = RemoveProviderSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        admin_booking_remove_provider(booking_id=pk, actor=request.user, reason=serializer.validated_data["reason"])
        return _booking_response(request, pk)


class AdminBookingCancelView(APIView):
    """PUT /api/admin/bookings/{id}/cancel {reason}: confirmed bookings only, reason required."""

    permission_classes = [IsAdmin]

    @extend_schema(request=AdminBookingCancelSerializer, responses=BookingSerializer)
    def put(self, request: Request, pk: int) -> Response:
        serializer = AdminBookingCancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        admin_booking_cancel(
            booking_id=pk,
            actor=request.user,
            reason=data["reason"],
            waive_late_fee=data.get("waiveLateFee", False),
            waive_reason=data.get("waiveReason", ""),
            late_fee_shown=data.get("lateFee"),
        )
        return _booking_response(request, pk)


class AdminLateFeeDecisionView(APIView):
    """POST /api/admin/bookings/{id}/late-fee {decision: pay | waive, reason}: staff decide a
    disputed late fee (the helper is paid it, or it comes back to the card). 409 unless disputed."""

    permission_classes = [IsAdmin]

    @extend_schema(request=LateFeeDecisionSerializer, responses=LateFeeSerializer)
    def post(self, request: Request, pk: int) -> Response:
        serializer = LateFeeDecisionSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        admin_late_fee_decide(
            booking_id=pk,
            actor=request.user,
            pay=serializer.validated_data["decision"] == "pay",
            reason=serializer.validated_data["reason"],
        )
        return Response(LateFeeSerializer(late_fee_get(user=request.user, booking_id=pk)).data)


class AdminLateFeeDisputeListView(generics.ListAPIView):
    """GET /api/admin/late-fee-disputes: the late fees families disputed that staff have not decided,
    the longest waiting first, paged with the total in X-Total-Count. Each is decided with
    POST /api/admin/bookings/{id}/late-fee."""

    permission_classes = [IsAdmin]
    serializer_class = LateFeeDisputeRowSerializer

    def get_queryset(self):
        return late_fee_disputes_open()


class AdminVerifiedShareView(APIView):
    """GET /api/admin/visit-verification: per helper, the share of her check-ins of the last 90
    days made at the home of the person cared for, the lowest first (admins only)."""

    permission_classes = [IsAdmin]

    @extend_schema(responses=VerifiedShareSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(VerifiedShareSerializer(verified_share_by_helper(), many=True).data)
