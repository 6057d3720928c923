"""Account export and closure: the /settings page, GET /api/account/export, POST /api/account/close."""

from __future__ import annotations

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.api.serializers import AccountCloseInputSerializer
from accounts.guards import login_required_page, queue_toast
from core.languages import Language
from marketplace.account_lifecycle import selectors, services
from notifications.api.views import notification_settings_props
from payments.api.views import payment_method_props
from payments.cards import organizes_a_circle
from providers.models import Provider


@login_required_page
def settings_page(request: HttpRequest) -> HttpResponse:
    """Profile summary, "Download my data" (a plain link to the export) and the close-account island."""
    user = request.user
    soon = selectors.user_has_visit_too_close_to_cancel(user=user)
    props = {"isAdmin": user.is_admin, "hasVisitWithin48Hours": soon}
    context = {
        "account_user": user,
        "provider": Provider.objects.filter(user=user).only("id", "verification_status").first(),
        "props": props,
        "notification_props": {"initial": notification_settings_props(user=user)},
        # The saved card is the organizer's own: on her settings, not the circle's page (members of
        # the circle must never read it).
        "payment_props": {"initial": payment_method_props(user)} if organizes_a_circle(user) else None,
        "languages": Language.choices,
    }
    return render(request, "pages/settings.html", context)


class AccountExportView(APIView):
    """GET /api/account/export: everything Kindly holds about the caller, as a JSON file download."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="account_export", responses={200: OpenApiTypes.OBJECT})
    def get(self, request: Request) -> JsonResponse:
        data = selectors.account_export(user=request.user)
        # Indented and UTF-8 as is: the file is meant to be read by a person too.
        response = JsonResponse(data, json_dumps_params={"indent": 2, "ensure_ascii": False})
        day = timezone.localdate().isoformat()
        response["Content-Disposition"] = f'attachment; filename="kindly-data-{day}.json"'
        response["Cache-Control"] = "no-store"
        return response


class AccountCloseView(APIView):
    """POST /api/account/close {"confirm": "CLOSE"}: close the caller's account and sign them out.

    See marketplace.account_lifecycle.services.account_close for what happens to requests and bookings. Wrong or
    missing confirmation 400, admins 403, a visit within 48 hours 409. On success 200 with what
    was cancelled; the session is ended and the next page shows an "Account closed" toast.
    """

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="account_close",
        request=AccountCloseInputSerializer,
        responses={200: OpenApiTypes.OBJECT},
    )
    def post(self, request: Request) -> Response:
        data = AccountCloseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        closure = services.account_close(user=request.user, confirmation=data.validated_data["confirm"])
        logout(request._request)
        queue_toast(
            request._request,
            title="Account closed",
            description="Your Kindly account is closed and you have been signed out. "
            "Your personal data will be deleted within 30 days.",
        )
        return Response(
            {
                "closed": True,
                "cancelledRequestIds": closure.cancelled_request_ids,
                "cancelledBookingIds": closure.cancelled_booking_ids,
            }
        )
