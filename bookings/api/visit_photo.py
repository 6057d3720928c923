"""The visit's photo (bookings.visit_photo): the helper adds it, the circle gets a signed link to it,
and the link serves its bytes."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings import visit_photo


class PhotoLinkSerializer(serializers.Serializer):
    """A signed link to the visit's photo, for the person who asked, good until expiresAt."""

    url = serializers.CharField()
    expiresAt = serializers.DateTimeField(source="expires_at")


class PhotoUploadSerializer(serializers.Serializer):
    photo = serializers.FileField(help_text="a JPEG, PNG or WebP picture of at most 8 MB")


class VisitPhotoView(APIView):
    """POST /api/bookings/{id}/photo (multipart, `photo`): the booked helper adds the visit's one
    photo, from check-in until 4 hours after check-out (400 too large or not a picture, nothing
    saved; 409 a second photo or outside that time; 403 anyone else who sees the booking).
    GET: a signed link to it for an hour (the circle, the helper while booked; 404 without one)."""

    parser_classes = [MultiPartParser]

    @extend_schema(request={"multipart/form-data": PhotoUploadSerializer}, responses={201: PhotoLinkSerializer})
    def post(self, request: Request, pk: int) -> Response:
        visit_photo.visit_photo_add(booking_id=pk, actor=request.user, upload=request.FILES.get("photo"))
        link = visit_photo.photo_link(user=request.user, booking_id=pk)
        return Response(PhotoLinkSerializer(link).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses=PhotoLinkSerializer)
    def get(self, request: Request, pk: int) -> Response:
        return Response(PhotoLinkSerializer(visit_photo.photo_link(user=request.user, booking_id=pk)).data)


class VisitPhotoFileView(APIView):
    """GET /visit-photos/{token}: the photo's bytes, for the person the signed link was made for,
    while it is good (an hour) and they may still see it."""

    @extend_schema(responses={(200, "image/jpeg"): OpenApiTypes.BINARY})
    def get(self, request: Request, token: str) -> HttpResponse:
        photo = visit_photo.photo_from_link(user=request.user, token=token)
        with photo.file.open("rb") as f:
            body = f.read()
        response = HttpResponse(body, content_type=photo.content_type)
        response["Cache-Control"] = "private, no-store"
        response["Content-Disposition"] = f'inline; filename="visit-{photo.booking_id}.jpg"'
        response["X-Content-Type-Options"] = "nosniff"
        return response
