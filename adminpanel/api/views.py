"""/api/admin/*: lists of everything, provider approval, booking reassign and cancel (admins only)."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from adminpanel import selectors
from adminpanel.services import admin_booking_cancel, admin_booking_reassign, admin_provider_set_status
from bookings.api.serializers import AdminBookingCancelSerializer, BookingReassignSerializer, BookingSerializer
from bookings.selectors import booking_get
from marketplace.errors import InvalidInput
from providers.api.serializers import ProviderSerializer, ProviderStatusSerializer
from providers.models import VerificationStatus
from requests_app.api.serializers import ServiceRequestSerializer


@extend_schema(parameters=[OpenApiParameter("status", str, enum=VerificationStatus.values)])
class AdminProviderListView(generics.ListAPIView):
    """GET /api/admin/providers: every provider with email and phone; ?status= filters."""

    permission_classes = [IsAdmin]
    serializer_class = ProviderSerializer

    def get_queryset(self):
        status = self.request.query_params.get("status", "")
        if status and status not in VerificationStatus.values:
            raise InvalidInput("Unknown status.", errors={"status": ["Must be pending, verified or rejected."]})
        return selectors.provider_list_admin(status=status)


class AdminBookingListView(generics.ListAPIView):
    permission_classes = [IsAdmin]
    serializer_class = BookingSerializer

    def get_queryset(self):
        return selectors.booking_list_admin()


class AdminServiceRequestListView(generics.ListAPIView):
    permission_classes = [IsAdmin]
    serializer_class = ServiceRequestSerializer

    def get_queryset(self):
        return selectors.service_request_list_admin()


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


class AdminBookingCancelView(APIView):
    """PUT /api/admin/bookings/{id}/cancel {reason}: confirmed bookings only, reason required."""

    permission_classes = [IsAdmin]

    @extend_schema(request=AdminBookingCancelSerializer, responses=BookingSerializer)
    def put(self, request: Request, pk: int) -> Response:
        serializer = AdminBookingCancelSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        admin_booking_cancel(booking_id=pk, actor=request.user, reason=serializer.validated_data["reason"])
        return _booking_response(request, pk)
