"""A booking's phone line (its helper and its circle), and its call and text records (staff)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from bookings.selectors import booking_get
from phoneline import selectors, services
from phoneline.api.serializers import (
    PhoneLineSerializer,
    PhonePinInputSerializer,
    PhonePinSerializer,
    PhoneRecordSerializer,
    PhoneReminderSerializer,
    StaffPhoneRecordSerializer,
    VoicemailSerializer,
)


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


class StaffPhoneRecordListView(generics.ListAPIView):
    """GET /api/admin/phone-records: every call and text through the bookings' lines, newest first,
    paged with the total in X-Total-Count (when, which way, how long, which booking; no numbers)."""

    permission_classes = [IsAdmin]
    serializer_class = StaffPhoneRecordSerializer

    def get_queryset(self):
        return selectors.contacts_for_staff()


class PhonePinView(APIView):
    """PUT /api/care-recipients/{id}/phone-pin {pin}: an organizer sets (or resets, which unlocks) the
    care recipient's phone PIN. GET: whether one is set and whether it is locked."""

    @extend_schema(responses={200: PhonePinSerializer})
    def get(self, request: Request, pk: int) -> Response:
        return Response(PhonePinSerializer(selectors.pin_state(user=request.user, recipient_id=pk)).data)

    @extend_schema(request=PhonePinInputSerializer, responses={200: PhonePinSerializer})
    def put(self, request: Request, pk: int) -> Response:
        body = PhonePinInputSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        services.pin_set(actor=request.user, recipient_id=pk, pin=body.validated_data["pin"])
        return Response(PhonePinSerializer(selectors.pin_state(user=request.user, recipient_id=pk)).data)


class VoicemailListView(APIView):
    """GET /api/admin/voicemails: the messages callers left for staff on the phone menu, newest first."""

    permission_classes = [IsAdmin]

    @extend_schema(responses={200: VoicemailSerializer(many=True)})
    def get(self, request: Request) -> Response:
        rows = [
            {
                "id": v.pk,
                "recipientName": v.recipient.full_name if v.recipient else None,
                "created_at": v.created_at,
                "seconds": v.seconds,
                "recording_url": v.recording_url,
                "transcription": v.transcription,
            }
            for v in selectors.voicemails_for_staff()[:100]
        ]
        return Response(VoicemailSerializer(rows, many=True).data)


class PhoneReminderView(APIView):
    """GET/PUT /api/care-recipients/{id}/phone-reminder {by}: a call, a text or no reminder the
    evening before each visit, on the recipient's own phone (organizers choose; the circle reads)."""

    @extend_schema(responses={200: PhoneReminderSerializer})
    def get(self, request: Request, pk: int) -> Response:
        selectors.pin_state(user=request.user, recipient_id=pk)  # the circle only (404 otherwise)
        return Response({"by": selectors.reminder_by(pk)})

    @extend_schema(request=PhoneReminderSerializer, responses={200: PhoneReminderSerializer})
    def put(self, request: Request, pk: int) -> Response:
        body = PhoneReminderSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        choice = services.reminder_choice_set(actor=request.user, recipient_id=pk, by=body.validated_data["by"])
        return Response({"by": choice.by})
