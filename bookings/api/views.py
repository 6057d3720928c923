"""Booking endpoints: accept a request (provider), list, read, cancel (client), complete (provider),
review (client); a provider's public reviews.
"""

from __future__ import annotations

import datetime as dt

from django.http import HttpResponse
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import generics, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings import selectors, services
from bookings.api.serializers import (
    AcceptSerializer,
    BookingCancelSerializer,
    BookingSerializer,
    CheckOutSerializer,
    ProviderCancelSerializer,
    ProviderProfileSerializer,
    PublicReviewSerializer,
    ReplacementOfferSerializer,
    ReviewCreateSerializer,
    ReviewSerializer,
    SeriesCancelPreviewSerializer,
    SeriesCancelResultSerializer,
    VisitLocationSerializer,
    VisitReportInputSerializer,
    VisitReportSerializer,
    VisitSerializer,
    can_cancel_max_age,
    visits_max_age,
)
from bookings.visit_export import visit_record_csv, visit_record_pdf
from core.listcache import CachedListMixin
from core.pdf import PDF_CONTENT_TYPE
from providers.selectors import provider_get_public
from requests_app.selectors import service_request_get_for_accept


def _booking_response(request: Request, pk: int, code: int = status.HTTP_200_OK) -> Response:
    booking = selectors.booking_get(user=request.user, pk=pk)
    # One booking's detail: the booked provider also sees the recipient in full (careDetails).
    context = {"request": request, "care_details": True}
    return Response(BookingSerializer(booking, context=context).data, status=code)


class ServiceRequestAcceptView(APIView):
    """POST /api/service-requests/{id}/accept (empty body, or skipUnavailable and arrivalTime): a
    verified provider books the request, arriving at arrivalTime (inside the family's window)."""

    @extend_schema(request=AcceptSerializer, responses={201: BookingSerializer})
    def post(self, request: Request, pk: int) -> Response:
        service_request_get_for_accept(user=request.user, pk=pk)
        # The body is optional (spec: empty): only a JSON one is read.
        sent_json = request.content_type.split(";")[0].strip() == "application/json"
        serializer = AcceptSerializer(data=request.data if sent_json and request.body else {})
        serializer.is_valid(raise_exception=True)
        booking = services.service_request_accept(
            service_request_id=pk,
            actor=request.user,
            skip_unavailable=serializer.validated_data["skipUnavailable"],
            arrival_time=serializer.validated_data["arrivalTime"],
        )
        return _booking_response(request, booking.pk, status.HTTP_201_CREATED)


class BookingListView(CachedListMixin, generics.ListAPIView):
    """GET /api/bookings: the signed-in user's bookings (as client or provider); admins all."""

    serializer_class = BookingSerializer
    cache_tables = (
        "accounts.User",
        "bookings.Booking",
        "bookings.VisitReport",
        "bookings.Replacement",
        "bookings.VisitTaskOutcome",
        "bookings.VisitPhoto",
        "circles.CareRecipient",
        "circles.CircleMember",
        # The visit's automatic charge to a saved card (autoCharge, through bookings.ports).
        "payments.VisitCharge",
        # A cancelled visit's late fee on the family's card (lateFeeCharged, through bookings.ports).
        "payments.LateFee",
        "providers.Provider",
        "requests_app.ServiceCategory",
        "requests_app.ServiceRequest",
    )

    def cache_max_age(self, items: list) -> float | None:
        # "Can cancel" turns false 48 hours ahead; a visit of the day turns late or missed.
        cancel, visits = can_cancel_max_age(items), visits_max_age(items)
        return visits if cancel is None else min(cancel, visits)

    def get_queryset(self):
        return selectors.booking_list_for(user=self.request.user)


class BookingDetailView(APIView):
    @extend_schema(responses=BookingSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return _booking_response(request, pk)


class BookingCancelView(APIView):
    """POST /api/bookings/{id}/cancel {reason?}: the client, at least 48 hours before the visit."""

    @extend_schema(request=BookingCancelSerializer, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = BookingCancelSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        services.booking_cancel_by_client(
            booking_id=pk, actor=request.user, reason=serializer.validated_data.get("reason", "")
        )
        return _booking_response(request, pk)


class BookingCancelRestView(APIView):
    """POST /api/bookings/{id}/cancel-rest {reason?}: the client cancels this visit of a series and
    every later one, except those less than 48 hours away (the message says which stay). GET: what
    it would cancel and keep now, and what comes back to the card (the dialog says it)."""

    @extend_schema(responses=SeriesCancelPreviewSerializer)
    def get(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        preview = services.booking_cancel_rest_preview(booking_id=pk, actor=request.user)
        return Response(SeriesCancelPreviewSerializer(preview).data)

    @extend_schema(request=BookingCancelSerializer, responses=SeriesCancelResultSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = BookingCancelSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        result = services.booking_cancel_rest_by_client(
            booking_id=pk, actor=request.user, reason=serializer.validated_data.get("reason", "")
        )
        return Response(SeriesCancelResultSerializer(result).data)


class BookingCompleteView(APIView):
    """POST /api/bookings/{id}/complete (empty body): the provider, once the visit has started."""

    @extend_schema(request=None, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        services.booking_complete(booking_id=pk, actor=request.user)
        return _booking_response(request, pk)


class BookingCheckInView(APIView):
    """POST /api/bookings/{id}/check-in {latitude?, longitude?}: the provider arrives (from 30 minutes
    before the window starts). The position is sent only when the provider agreed to share it."""

    @extend_schema(request=VisitLocationSerializer, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = VisitLocationSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        services.booking_check_in(booking_id=pk, actor=request.user, **serializer.validated_data)
        return _booking_response(request, pk)


class BookingNobodyHomeView(APIView):
    """POST /api/bookings/{id}/nobody-home {latitude?, longitude?}: the provider checked in and
    found nobody home; the visit is cancelled and she is paid the late fee (the cancellation policy)."""

    @extend_schema(request=VisitLocationSerializer, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = VisitLocationSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        # The same body as check-in's; a visit nobody was home for keeps only where she was (no
        # verdict on the place, so no accuracy and no reason).
        where = {key: serializer.validated_data.get(key) for key in ("latitude", "longitude")}
        services.booking_report_nobody_home(booking_id=pk, actor=request.user, **where)
        return _booking_response(request, pk)


class BookingCheckOutView(APIView):
    """POST /api/bookings/{id}/check-out {report?, latitude?, longitude?}: the provider leaves; the
    booking is completed, with the visit report."""

    @extend_schema(request=CheckOutSerializer, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = CheckOutSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        services.booking_check_out(booking_id=pk, actor=request.user, **serializer.validated_data)
        return _booking_response(request, pk)


class BookingReportView(APIView):
    """GET /api/bookings/{id}/report: the visit report (the circle, the provider, admins).
    PUT: the provider writes or corrects it, within 24 hours of check-out."""

    @extend_schema(responses=VisitReportSerializer)
    def get(self, request: Request, pk: int) -> Response:
        report = selectors.visit_report_get(user=request.user, booking_id=pk)
        return Response(VisitReportSerializer(report).data)

    @extend_schema(request=VisitReportInputSerializer, responses=VisitReportSerializer)
    def put(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = VisitReportInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.visit_report_save(booking_id=pk, actor=request.user, values=serializer.validated_data)
        report = selectors.visit_report_get(user=request.user, booking_id=pk)
        return Response(VisitReportSerializer(report).data)


class ProviderTodayView(CachedListMixin, generics.ListAPIView):
    """GET /api/bookings/today: the provider's visits of today (site time zone), earliest first."""

    serializer_class = VisitSerializer
    pagination_class = None
    cache_tables = BookingListView.cache_tables

    def cache_max_age(self, items: list) -> float | None:
        return visits_max_age(items)

    def get_queryset(self):
        return selectors.provider_visits_on(user=self.request.user, day=timezone.localdate())


class BookingReviewView(APIView):
    """POST /api/bookings/{id}/review {rating, comment?}: the client of a completed booking, once."""

    @extend_schema(request=ReviewCreateSerializer, responses={201: ReviewSerializer})
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = ReviewCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        review = services.review_create(booking_id=pk, actor=request.user, **serializer.validated_data)
        return Response(ReviewSerializer(review).data, status=status.HTTP_201_CREATED)


class ProviderProfileView(APIView):
    """GET /api/providers/{id}/profile: a helper's profile (signed in). A verified, active helper's
    for anyone; another's only for staff and herself (404 for the rest)."""

    @extend_schema(responses=ProviderProfileSerializer)
    def get(self, request: Request, pk: int) -> Response:
        provider = selectors.provider_profile(provider_id=pk, viewer=request.user)
        return Response(ProviderProfileSerializer(provider).data)


class ProviderReviewListView(generics.ListAPIView):
    """GET /api/providers/{id}/reviews: public reviews of a verified provider (anyone)."""

    permission_classes = [AllowAny]
    serializer_class = PublicReviewSerializer

    def get_queryset(self):
        provider = provider_get_public(provider_id=self.kwargs["pk"])
        return selectors.provider_reviews_public(provider=provider)


class VisitRecordExportView(APIView):
    """GET /api/recipients/{id}/visit-record.csv?month=YYYY-MM: the recipient's visits of that
    month with the verification fields and task outcomes (bookings.visit_export), for the
    organizers of the circle (a member: 403; anyone else: 404)."""

    @extend_schema(
        parameters=[OpenApiParameter("month", str, required=True, description="YYYY-MM")],
        responses={(200, "text/csv"): OpenApiTypes.STR},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        recipient, visits = selectors.visit_record_month(
            user=request.user, recipient_id=pk, month=request.query_params.get("month", "")
        )
        response = HttpResponse(visit_record_csv(visits), content_type="text/csv; charset=utf-8")
        month = request.query_params["month"]
        response["Content-Disposition"] = f'attachment; filename="kindly-visits-{recipient.pk}-{month}.csv"'
        response["Cache-Control"] = "no-store"
        return response


# ---------------------------------------------------------------- a replacement (bookings.services.replacement)


class BookingProviderCancelView(APIView):
    """POST /api/bookings/{id}/provider-cancel {reason}: the booked helper cannot make the visit; it is
    offered to other helpers at once and the family sees "Finding a replacement"."""

    @extend_schema(request=ProviderCancelSerializer, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        serializer = ProviderCancelSerializer(data=request.data or {})
        serializer.is_valid(raise_exception=True)
        services.booking_cancel_by_provider(
            booking_id=pk, actor=request.user, reason=serializer.validated_data["reason"]
        )
        return _booking_response(request, pk)


class ReplacementOfferListView(generics.ListAPIView):
    """GET /api/replacement-offers: the visits whose helper left that are offered to the signed-in
    helper and still need one (her dashboard's "Visits that need a helper")."""

    serializer_class = ReplacementOfferSerializer
    pagination_class = None

    def get_queryset(self):
        return selectors.replacement_offers_for(user=self.request.user)


class BookingReplacementAcceptView(APIView):
    """POST /api/bookings/{id}/replacement/accept (empty body): a helper it was offered to takes the
    visit (404 when it was not offered to her; 409 when another took it first)."""

    @extend_schema(request=None, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        services.booking_replacement_accept(booking_id=pk, actor=request.user)
        return _booking_response(request, pk)


class BookingReplacementRefundView(APIView):
    """POST /api/bookings/{id}/replacement/refund (empty body): an organizer cancels a visit waiting
    for a new helper, refunded in full when paid."""

    @extend_schema(request=None, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        services.booking_replacement_refund(booking_id=pk, actor=request.user)
        return _booking_response(request, pk)


class BookingReplacementWaitView(APIView):
    """POST /api/bookings/{id}/replacement/wait (empty body): an organizer keeps waiting after the
    search's deadline."""

    @extend_schema(request=None, responses=BookingSerializer)
    def post(self, request: Request, pk: int) -> Response:
        selectors.booking_get(user=request.user, pk=pk)
        services.booking_replacement_wait(booking_id=pk, actor=request.user)
        return _booking_response(request, pk)


class VisitRecordPdfView(APIView):
    """GET /api/recipients/{id}/visit-record.pdf?month=YYYY-MM: the visit record's PDF twin (the
    same rows and the same rule: organizers; a member 403, anyone else 404)."""

    @extend_schema(
        parameters=[OpenApiParameter("month", str, required=True, description="YYYY-MM")],
        responses={(200, PDF_CONTENT_TYPE): OpenApiTypes.BINARY},
    )
    def get(self, request: Request, pk: int) -> HttpResponse:
        month = request.query_params.get("month", "")
        recipient, visits = selectors.visit_record_month(user=request.user, recipient_id=pk, month=month)
        # visit_record_month read the month already (a month it cannot read is its 400).
        body = visit_record_pdf(recipient, dt.datetime.strptime(month, "%Y-%m").date(), visits)
        response = HttpResponse(body, content_type=PDF_CONTENT_TYPE)
        response["Content-Disposition"] = f'attachment; filename="kindly-visits-{recipient.pk}-{month}.pdf"'
        response["Cache-Control"] = "no-store"
        return response
