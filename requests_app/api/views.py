"""Service request endpoints: list/create, read/edit/delete; categories (public).

Accepting a request creates a booking: bookings.api.views.ServiceRequestAcceptView.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import UserType
from core.errors import InvalidInput
from core.listcache import CachedListMixin
from core.throttling import RequestCreateThrottle
from requests_app import selectors, services
from requests_app.api.serializers import (
    OfferDeclineResultSerializer,
    OfferDeclineSerializer,
    ServiceCategorySerializer,
    ServiceRequestCreateSerializer,
    ServiceRequestDeclineSerializer,
    ServiceRequestSerializer,
    ServiceRequestUpdateSerializer,
    direct_window_max_age,
)


class ServiceCategoryListView(generics.ListAPIView):
    """GET /api/service-categories (anyone)."""

    permission_classes = [AllowAny]
    serializer_class = ServiceCategorySerializer

    def get_queryset(self):
        return selectors.category_list_active()


LIST_VIEWS = ("client", "provider")
LIST_VIEW_INVALID = gettext_lazy("Choose client or provider.")


class ServiceRequestListCreateView(CachedListMixin, generics.ListAPIView):
    """GET: clients their own requests, provider accounts the open requests of others, admins all;
    ?view=client|provider picks the side of someone who is both (a helper's own requests stay hers).
    POST: a client creates a request."""

    serializer_class = ServiceRequestSerializer
    throttle_classes = [RequestCreateThrottle]  # limits creation only; reads are never limited
    # A request shows its booking, and a provider's list her free windows.
    cache_tables = (
        "accounts.User",
        "bookings.Booking",
        "circles.CareRecipient",
        "circles.CircleMember",
        "providers.Provider",
        "providers.TimeOff",
        "providers.WeeklyHours",
        "requests_app.Offer",
        "requests_app.ServiceCategory",
        "requests_app.ServiceRequest",
    )

    def _as_provider(self) -> bool | None:
        """The ?view= asked for (None: the side of the account's type); anything else is a 400."""
        view = self.request.query_params.get("view")
        if view is None:
            return None
        if view not in LIST_VIEWS:
            raise InvalidInput(LIST_VIEW_INVALID, errors={"view": [LIST_VIEW_INVALID]})
        return view == "provider"

    def cache_max_age(self, items: list) -> float | None:
        # A direct request opens to all when its 24 hours end.
        as_provider = self._as_provider()
        if as_provider is None:
            as_provider = self.request.user.user_type == UserType.PROVIDER
        return direct_window_max_age(items, provider_viewer=as_provider)

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "view",
                str,
                enum=list(LIST_VIEWS),
                description="The side of someone who is both a client and a helper (default: the account's type)",
            )
        ]
    )
    def get(self, request: Request, *args, **kwargs) -> Response:
        self._as_provider()  # a bad ?view= is a 400 before anything is read or cached
        return super().get(request, *args, **kwargs)

    def get_queryset(self):
        return selectors.service_request_list(user=self.request.user, as_provider=self._as_provider())

    @extend_schema(request=ServiceRequestCreateSerializer, responses={201: ServiceRequestSerializer})
    def post(self, request: Request) -> Response:
        serializer = ServiceRequestCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        created = services.service_request_create(client=request.user, **serializer.to_service_kwargs())
        fresh = selectors.service_request_get(user=request.user, pk=created.pk)
        return Response(self.get_serializer(fresh).data, status=status.HTTP_201_CREATED)


class ServiceRequestDetailView(APIView):
    """GET/PUT/DELETE /api/service-requests/{id}: read what you may see; edit/delete your own while open."""

    def _render(self, request: Request, pk: int) -> Response:
        service_request = selectors.service_request_get(user=request.user, pk=pk)
        # One request's detail: the booked provider also sees the recipient in full (careDetails).
        context = {"request": request, "care_details": True}
        return Response(ServiceRequestSerializer(service_request, context=context).data)

    @extend_schema(responses=ServiceRequestSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return self._render(request, pk)

    @extend_schema(request=ServiceRequestUpdateSerializer, responses=ServiceRequestSerializer)
    def put(self, request: Request, pk: int) -> Response:
        selectors.service_request_get(user=request.user, pk=pk)
        serializer = ServiceRequestUpdateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.service_request_update(
            service_request_id=pk, actor=request.user, changes=serializer.to_service_kwargs()
        )
        return self._render(request, pk)

    @extend_schema(responses={204: None})
    def delete(self, request: Request, pk: int) -> Response:
        selectors.service_request_get(user=request.user, pk=pk)
        services.service_request_delete(service_request_id=pk, actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class ServiceRequestDeclineView(APIView):
    """POST /api/service-requests/{id}/decline {"reason"}: the provider a request was sent to says
    they cannot take it. Those who cannot see the request get 404, others 403."""

    @extend_schema(request=ServiceRequestDeclineSerializer, responses=ServiceRequestSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.service_request_get(user=request.user, pk=pk)
        serializer = ServiceRequestDeclineSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.service_request_decline(
            service_request_id=pk, actor=request.user, reason=serializer.validated_data["reason"]
        )
        service_request = selectors.service_request_visible(user=request.user).filter(pk=pk).first()
        if service_request is None:  # declined "only this helper": cancelled, so no longer theirs to see
            service_request = selectors.service_request_list_admin().get(pk=pk)
        return Response(ServiceRequestSerializer(service_request, context={"request": request}).data)


class OfferDeclineView(APIView):
    """POST /api/service-requests/{id}/not-for-me {"reason"?}: the helper a request was offered to
    passes on it ("Not for me" on Available Requests); the next helper free then is offered it at
    once. 404 when it was not offered to her, 409 when she answered already or it is no longer open."""

    @extend_schema(request=OfferDeclineSerializer, responses=OfferDeclineResultSerializer)
    def post(self, request: Request, pk: int) -> Response:
        serializer = OfferDeclineSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        offered = services.offer_decline(
            service_request_id=pk, actor=request.user, reason=serializer.validated_data["reason"]
        )
        return Response(OfferDeclineResultSerializer({"offeredNext": offered}).data)
