"""GET/PUT /api/notification-preferences (the settings page island reads and changes them here)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from notifications import selectors, services
from notifications.api.serializers import NotificationSettingsInputSerializer, NotificationSettingsSerializer


def notification_settings_props(*, user) -> dict:
    """The settings page's first answer (the island's props): the same shape as the API's."""
    return NotificationSettingsSerializer(selectors.notification_settings(user=user)).data


class NotificationPreferencesView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="notification_preferences", responses={200: NotificationSettingsSerializer})
    def get(self, request: Request) -> Response:
        return Response(notification_settings_props(user=request.user))

    @extend_schema(
        operation_id="notification_preferences_update",
        request=NotificationSettingsInputSerializer,
        responses={200: NotificationSettingsSerializer},
    )
    def put(self, request: Request) -> Response:
        data = NotificationSettingsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        services.notification_settings_set(
            user=request.user,
            choices=data.validated_data.get("preferences"),
            phone=data.validated_data.get("phone"),
            new_requests=data.validated_data.get("newRequests"),
        )
        return Response(notification_settings_props(user=request.user))
