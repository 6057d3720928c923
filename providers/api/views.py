"""Provider endpoints: public listing, own profile (apply). A provider's reviews: bookings.api.views."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from marketplace.listcache import CachedListMixin
from providers import selectors, services
from providers.api.serializers import (
    ProviderApplicationSerializer,
    ProviderListQuerySerializer,
    ProviderSerializer,
    PublicProviderSerializer,
)
from providers.models import Specialty
from providers.selectors import SORTS


@extend_schema(
    parameters=[
        OpenApiParameter("verified", str, enum=["true", "false"], description="Only verified providers are public."),
        OpenApiParameter("search", str, description="Bio, service area or specialty, case-insensitive."),
        OpenApiParameter("specialty", str, enum=Specialty.values),
        OpenApiParameter("sort", str, enum=list(SORTS)),
    ]
)
class ProviderListView(CachedListMixin, generics.ListAPIView):
    """GET /api/providers: verified providers, public fields only (anyone; the same for all)."""

    permission_classes = [AllowAny]
    serializer_class = PublicProviderSerializer
    cache_per_viewer = False

    def get_queryset(self):
        # A plain dict: DRF reads "verified=" in a QueryDict as absent, the schema says it is invalid.
        query = ProviderListQuerySerializer(data=self.request.query_params.dict())
        query.is_valid(raise_exception=True)
        return selectors.provider_list_public(
            search=query.validated_data.get("search", ""),
            specialty=query.validated_data.get("specialty", ""),
            sort=query.validated_data.get("sort") or selectors.DEFAULT_SORT,
        )


class ProviderProfileView(APIView):
    """GET/POST /api/provider/profile: the signed-in user's own provider profile."""

    @extend_schema(responses=ProviderSerializer)
    def get(self, request: Request) -> Response:
        return Response(ProviderSerializer(selectors.provider_get_own(user=request.user)).data)

    @extend_schema(request=ProviderApplicationSerializer, responses={201: ProviderSerializer})
    def post(self, request: Request) -> Response:
        serializer = ProviderApplicationSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        provider = services.provider_apply(user=request.user, **serializer.validated_data)
        return Response(ProviderSerializer(provider).data, status=status.HTTP_201_CREATED)
