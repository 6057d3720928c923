"""A booking's phone line (its helper and its circle), and its call and text records (staff)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from bookings.selectors import booking_get
from phoneline import selectors, services
from phoneline.api.serializers import PhoneLineSerializer, PhoneRecordSerializer


class PhoneLineView(APIView):
    """GET /api/bookings/{id}/phone-line: whether "Call" and "Text" show for the viewer, and the
    Kindly number once bound. POST: bind (or find) the Kindly number joining the viewer's side and
    the other for this booking (409 when it cannot be, saying why)."""

    @extend_schema(responses={200: PhoneLineSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return Response(PhoneLineSerializer(services.line_state(user=request.user, booking_id=pk)).data)

    @extend_schema(request=None, responses={200: PhoneLineSerializer})
    def post(self, request: Request, pk: int) -> Response:
        line = services.line_bind(user=request.user, booking_id=pk)
        return Response(PhoneLineSerializer(line).data, status=status.HTTP_200_OK)


class PhoneRecordsView(APIView):
    """GET /api/admin/bookings/{id}/phone-records: the calls and texts through a booking's lines."""

    permission_classes = [IsAdmin]

    @extend_schema(responses={200: PhoneRecordSerializer(many=True)})
    def get(self, request: Request, pk: int) -> Response:
        booking = booking_get(user=request.user, pk=pk)
        records = selectors.contacts_of_booking(booking_id=booking.pk)
        return Response(PhoneRecordSerializer(records, many=True).data)
