"""/api/vetting/* (the applicant's steps; the webhooks of Stripe Identity and Checkr) and
/api/admin/vetting/* (the staff queue, adjudication, adverse-action steps)."""

from __future__ import annotations

import json
import logging

import stripe
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.permissions import IsAdmin
from core.errors import DomainError, PermissionDenied
from providers.models import Provider
from vetting import gateways, selectors, services
from vetting.api.serializers import (
    AdjudicateSerializer,
    AdverseStepInputSerializer,
    MyVettingSerializer,
    VettingQueueItemSerializer,
)

logger = logging.getLogger(__name__)


def _mine(request: Request) -> Response:
    provider = Provider.objects.filter(user_id=request.user.pk).first()
    if provider is None:
        raise PermissionDenied(services.NOT_A_PROVIDER)
    return Response(MyVettingSerializer(selectors.vetting_of(provider)).data)


class MyVettingView(APIView):
    """GET /api/vetting/me: the signed-in applicant's steps (403 without a provider profile)."""

    @extend_schema(responses=MyVettingSerializer)
    def get(self, request: Request) -> Response:
        return _mine(request)


class IdentityStartView(APIView):
    """POST /api/vetting/identity: start "Verify your ID" (202; poll /api/vetting/me for the link)."""

    @extend_schema(request=None, responses={202: MyVettingSerializer})
    def post(self, request: Request) -> Response:
        services.identity_start(actor=request.user)
        response = _mine(request)
        response.status_code = status.HTTP_202_ACCEPTED
        return response


class BackgroundCheckStartView(APIView):
    """POST /api/vetting/background-check: consent to the background check (202)."""

    @extend_schema(request=None, responses={202: MyVettingSerializer})
    def post(self, request: Request) -> Response:
        services.background_check_start(actor=request.user)
        response = _mine(request)
        response.status_code = status.HTTP_202_ACCEPTED
        return response


class AdminVettingQueueView(APIView):
    """GET /api/admin/vetting: every applicant with a check, her identity result (name mismatch
    shown), report summary and adjudication with its adverse-action steps."""

    permission_classes = [IsAdmin]

    @extend_schema(responses=VettingQueueItemSerializer(many=True))
    def get(self, request: Request) -> Response:
        return Response(VettingQueueItemSerializer(selectors.vetting_queue_list(), many=True).data)


class AdminAdjudicateView(APIView):
    """POST /api/admin/vetting/{providerId}/adjudication {outcome: engage|adverse_action, reason}."""

    permission_classes = [IsAdmin]

    @extend_schema(request=AdjudicateSerializer, responses={201: VettingQueueItemSerializer})
    def post(self, request: Request, pk: int) -> Response:
        serializer = AdjudicateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.adjudicate(actor=request.user, provider_id=pk, **serializer.validated_data)
        item = selectors.vetting_of(services.check_of(provider_id=pk))
        return Response(VettingQueueItemSerializer(item).data, status=status.HTTP_201_CREATED)


class AdminAdverseStepView(APIView):
    """POST /api/admin/vetting/{providerId}/adverse-steps {step, note?}: the next step, in order."""

    permission_classes = [IsAdmin]

    @extend_schema(request=AdverseStepInputSerializer, responses={201: VettingQueueItemSerializer})
    def post(self, request: Request, pk: int) -> Response:
        serializer = AdverseStepInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        services.adverse_step_record(actor=request.user, provider_id=pk, **serializer.validated_data)
        item = selectors.vetting_of(services.check_of(provider_id=pk))
        return Response(VettingQueueItemSerializer(item).data, status=status.HTTP_201_CREATED)


def _error(message: str, status_code: int) -> JsonResponse:
    return JsonResponse({"message": message, "errors": {}}, status=status_code)


def _processed(process, event: dict) -> JsonResponse:
    try:
        outcome = process(event=event)
    except DomainError as exc:
        return _error(exc.message, 503 if exc.status_code >= 500 else exc.status_code)
    return JsonResponse({"received": True, "outcome": outcome})


@csrf_exempt  # Stripe signs the body instead; there is no session
@require_POST
def stripe_identity_webhook(request: HttpRequest) -> JsonResponse:
    """POST /api/vetting/stripe/webhook: Stripe Identity's events, signature checked, each id once."""
    if not settings.STRIPE_IDENTITY_WEBHOOK_SECRET:
        return _error("Not found.", 404)
    try:
        event = gateways.identity_event_verify(request.body, request.headers.get("Stripe-Signature"))
    except stripe.SignatureVerificationError:
        logger.warning("Stripe Identity webhook with a bad signature")
        return _error("Invalid signature.", 400)
    except (ValueError, TypeError, AttributeError, KeyError):
        logger.warning("Stripe Identity webhook with an unreadable body")
        return _error("Invalid payload.", 400)
    return _processed(services.identity_event_process, event)


@csrf_exempt  # Checkr signs the body instead; there is no session
@require_POST
def checkr_webhook(request: HttpRequest) -> JsonResponse:
    """POST /api/vetting/checkr/webhook: Checkr's events (X-Checkr-Signature: HMAC-SHA256 of the
    body keyed with the API key), each id once."""
    if not settings.CHECKR_API_KEY:
        return _error("Not found.", 404)
    if not gateways.checkr_signature_valid(request.body, request.headers.get(gateways.CHECKR_SIGNATURE_HEADER)):
        logger.warning("Checkr webhook with a bad signature")
        return _error("Invalid signature.", 400)
    try:
        event = json.loads(request.body)
    except ValueError:
        return _error("Invalid payload.", 400)
    if not isinstance(event, dict):
        return _error("Invalid payload.", 400)
    return _processed(services.checkr_event_process, event)
