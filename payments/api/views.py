"""Payment endpoints: create the booking's payment intent, the test gateway's card confirm, Stripe's webhooks,
a provider's earnings."""

from __future__ import annotations

import logging

import stripe
from django.conf import settings
from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from bookings.api.serializers import AutoChargeSerializer
from core.errors import DomainError
from core.throttling import PaymentIntentThrottle
from payments import cards, instant, latefees, selectors, services, tips
from payments.api.serializers import (
    BookingRefInputSerializer,
    CardConfirmInputSerializer,
    CardConfirmResultSerializer,
    ClientSecretSerializer,
    CreatePaymentIntentInputSerializer,
    EarningSerializer,
    EarningsSerializer,
    InstantPayoutInputSerializer,
    InstantPayoutSerializer,
    InstantQuoteSerializer,
    LateFeeDisputeSerializer,
    LateFeeSerializer,
    PaymentMethodPreferenceSerializer,
    PaymentMethodSerializer,
    PaymentStateSerializer,
    SavedCardSerializer,
    SetupFinishInputSerializer,
    SetupStartedSerializer,
    TestCardSaveInputSerializer,
    TipInputSerializer,
    TipOfferSerializer,
    TipSerializer,
)
from payments.gateways import is_test_gateway_active
from payments.models import Gateway, PayoutSetup

logger = logging.getLogger(__name__)


class CreatePaymentIntentView(APIView):
    """POST /api/create-payment-intent {amount, bookingId} -> {clientSecret}: the booking's client only."""

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=CreatePaymentIntentInputSerializer, responses={200: ClientSecretSerializer})
    def post(self, request: Request) -> Response:
        serializer = CreatePaymentIntentInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        client_secret = services.payment_intent_create(
            actor=request.user,
            booking_id=serializer.validated_data["bookingId"],
            amount=serializer.validated_data.get("amount"),
        )
        return Response({"clientSecret": client_secret})


class OfflineCardConfirmView(APIView):
    """POST /api/payments/test/confirm {bookingId, cardNumber, expiry?, cvc?}: only with the test gateway.

    200 {"status": "succeeded"}; a declined card is 402 with the card network's message.
    """

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=CardConfirmInputSerializer, responses={200: CardConfirmResultSerializer})
    def post(self, request: Request) -> Response:
        if not is_test_gateway_active():  # before reading input: the endpoint does not exist with Stripe
            return Response({"message": gettext("Not found."), "errors": {}}, status=status.HTTP_404_NOT_FOUND)
        serializer = CardConfirmInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.payment_test_confirm(
            actor=request.user,
            booking_id=serializer.validated_data["bookingId"],
            card_number=serializer.validated_data["cardNumber"],
        )
        if not result.succeeded:
            return Response(
                {"message": result.message, "errors": {"cardNumber": [result.message]}},
                status=status.HTTP_402_PAYMENT_REQUIRED,
            )
        return Response({"status": "succeeded"})


class StripeSyncView(APIView):
    """POST /api/payments/stripe/sync {bookingId} -> {status, paymentStatus}: only with Stripe.

    After Stripe.js reports success the page asks the server to check with Stripe, so the booking
    is confirmed without waiting for the webhook. Only Stripe's own answer changes anything.
    """

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=BookingRefInputSerializer, responses={200: PaymentStateSerializer})
    def post(self, request: Request) -> Response:
        serializer = BookingRefInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        booking = services.payment_stripe_sync(actor=request.user, booking_id=serializer.validated_data["bookingId"])
        return Response({"status": booking.status, "paymentStatus": booking.payment_status})


def _error(message: str, status_code: int) -> JsonResponse:
    return JsonResponse({"message": message, "errors": {}}, status=status_code)


@csrf_exempt  # Stripe signs the body instead; there is no session
@require_POST
def stripe_webhook(request: HttpRequest) -> JsonResponse:
    """POST /api/payments/stripe/webhook: verify the signature on the raw body, then apply the event once."""
    return _webhook(request, settings.STRIPE_WEBHOOK_SECRET)


def _webhook(request: HttpRequest, secret: str) -> JsonResponse:
    if settings.PAYMENTS_BACKEND != Gateway.STRIPE or not secret:
        return _error("Not found.", 404)
    try:
        event = stripe.Webhook.construct_event(request.body, request.headers.get("Stripe-Signature"), secret)
    except stripe.SignatureVerificationError as exc:
        logger.warning("Stripe webhook with a bad signature: %s", exc.user_message or exc)
        return _error("Invalid signature.", 400)
    except (ValueError, TypeError, AttributeError, KeyError):  # signed, but not a JSON event object
        logger.warning("Stripe webhook with an unreadable body")
        return _error("Invalid payload.", 400)
    try:
        outcome = services.stripe_event_process(event=event.to_dict())
    except DomainError as exc:
        # The event is not recorded (its transaction rolled back): Stripe retries later.
        status_code = 503 if exc.status_code >= 500 else exc.status_code
        return _error(exc.message, status_code)
    return JsonResponse({"received": True, "outcome": outcome})


class EarningsView(APIView):
    """GET /api/earnings: the signed-in provider's earnings (403 for anyone without a provider profile)."""

    @extend_schema(operation_id="earnings_overview", responses={200: EarningsSerializer})
    def get(self, request: Request) -> Response:
        return Response(EarningsSerializer(selectors.earnings_overview(user=request.user)).data)


class LateFeeView(APIView):
    """GET /api/bookings/{id}/late-fee: the cancellation policy's fee of a cancelled booking, for
    its organizers, its helper and staff (a plain member 403; not theirs or no fee 404)."""

    @extend_schema(operation_id="late_fee_retrieve", responses={200: LateFeeSerializer})
    def get(self, request: Request, booking_id: int) -> Response:
        return Response(LateFeeSerializer(selectors.late_fee_get(user=request.user, booking_id=booking_id)).data)


class LateFeeDisputeView(APIView):
    """POST /api/bookings/{id}/late-fee/dispute {reason}: an organizer disputes a nobody-home fee
    while it is held; staff decide (409 once it can no longer be disputed)."""

    @extend_schema(request=LateFeeDisputeSerializer, responses={200: LateFeeSerializer})
    def post(self, request: Request, booking_id: int) -> Response:
        selectors.late_fee_get(user=request.user, booking_id=booking_id)
        serializer = LateFeeDisputeSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        latefees.late_fee_dispute(booking_id=booking_id, actor=request.user, reason=serializer.validated_data["reason"])
        return Response(LateFeeSerializer(selectors.late_fee_get(user=request.user, booking_id=booking_id)).data)


class EarningDetailView(APIView):
    """GET /api/earnings/{bookingId}: one booking's split (404 unless it is the provider's own visit)."""

    @extend_schema(operation_id="earning_retrieve", responses={200: EarningSerializer})
    def get(self, request: Request, booking_id: int) -> Response:
        earning = selectors.earning_get(user=request.user, booking_id=booking_id)
        setup, _account = selectors.payout_setup_of(provider=earning.booking.provider)
        selectors.with_notes([earning], payouts_on=setup == PayoutSetup.ON)
        return Response(EarningSerializer(earning).data)


@csrf_exempt  # Stripe signs the body instead; there is no session
@require_POST
def stripe_connect_webhook(request: HttpRequest) -> JsonResponse:
    """POST /api/payments/stripe/connect-webhook: events of connected accounts (account.updated,
    payout.*), Stripe's Connect endpoint with its own signing secret; processed like the other."""
    return _webhook(request, settings.STRIPE_CONNECT_WEBHOOK_SECRET)


# ---------------------------------------------------------------- a saved card (payments.cards)


def payment_method_props(user) -> dict:
    """What the "Payment method" card of /settings shows: her own card only (GET /api/payment-method)."""
    card = selectors.saved_card_of(user=user)
    return {
        "card": SavedCardSerializer(card).data if card is not None else None,
        "chargeEveryBooking": bool(card and card.charge_every_booking),
        "gateway": settings.PAYMENTS_BACKEND,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY if settings.PAYMENTS_BACKEND == Gateway.STRIPE else "",
    }


class PaymentMethodView(APIView):
    """GET /api/payment-method: the organizer's own saved card (nobody else's, ever); PATCH
    {chargeEveryBooking}; DELETE: remove it (detached at the gateway). Organizers only (403)."""

    @extend_schema(responses={200: PaymentMethodSerializer})
    def get(self, request: Request) -> Response:
        cards.check_organizer(request.user)
        return Response(payment_method_props(request.user))

    @extend_schema(request=PaymentMethodPreferenceSerializer, responses={200: PaymentMethodSerializer})
    def patch(self, request: Request) -> Response:
        cards.check_organizer(request.user)
        serializer = PaymentMethodPreferenceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        cards.card_set_preference(
            actor=request.user, charge_every_booking=serializer.validated_data["chargeEveryBooking"]
        )
        return Response(payment_method_props(request.user))

    @extend_schema(responses={204: None})
    def delete(self, request: Request) -> Response:
        cards.check_organizer(request.user)
        cards.card_remove(actor=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PaymentMethodSetupView(APIView):
    """POST /api/payment-method/setup -> {clientSecret, setupIntentId}: a SetupIntent for Stripe Elements."""

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=None, responses={200: SetupStartedSerializer})
    def post(self, request: Request) -> Response:
        card = cards.card_setup_start(actor=request.user)
        return Response({"clientSecret": card.setup_client_secret, "setupIntentId": card.setup_intent_id})


class PaymentMethodSetupFinishView(APIView):
    """POST /api/payment-method/setup/finish {setupIntentId}: Stripe is asked which card was saved."""

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=SetupFinishInputSerializer, responses={200: PaymentMethodSerializer})
    def post(self, request: Request) -> Response:
        serializer = SetupFinishInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        cards.card_setup_finish(actor=request.user, setup_intent_id=serializer.validated_data["setupIntentId"])
        return Response(payment_method_props(request.user))


class PaymentMethodTestSaveView(APIView):
    """POST /api/payment-method/test {cardNumber, expiry}: the offline test gateway saves a card
    (404 unless it is active). 4000 0000 0000 0002 is declined."""

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=TestCardSaveInputSerializer, responses={200: PaymentMethodSerializer})
    def post(self, request: Request) -> Response:
        if not is_test_gateway_active():
            return Response({"message": gettext("Not found."), "errors": {}}, status=status.HTTP_404_NOT_FOUND)
        serializer = TestCardSaveInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        month, year = serializer.validated_data["expiry"].split("/")
        cards.card_test_save(
            actor=request.user,
            card_number=serializer.validated_data["cardNumber"],
            exp_month=int(month),
            exp_year=2000 + int(year),
        )
        return Response(payment_method_props(request.user))


class BookingAutoChargeView(APIView):
    """POST /api/bookings/{id}/auto-charge: "Charge my saved card automatically" for a booking waiting
    for payment (its organizers only; 409 without a card or when it waits for nothing)."""

    throttle_classes = [PaymentIntentThrottle]

    @extend_schema(request=None, responses={200: AutoChargeSerializer})
    def post(self, request: Request, booking_id: int) -> Response:
        cards.booking_auto_charge(actor=request.user, booking_id=booking_id)
        return Response(selectors.auto_charge_of(booking_id=booking_id, viewer=request.user))


def _tip_offer(user, booking_id: int) -> dict:
    booking = selectors.tip_booking(user=user, booking_id=booking_id)
    backend = settings.PAYMENTS_BACKEND
    return {
        "booking_id": booking.pk,
        "helper_name": booking.provider.user.first_name or "your helper",
        "visit_amount": booking.total_amount,
        "can_add": tips.tip_can_be_added(booking),
        "until": tips.tip_window_end(booking),
        "suggestions": tips.tip_suggestions(booking),
        "min": settings.TIP_MIN,
        "max": settings.TIP_MAX,
        "tip": selectors.tip_of(booking),
        "backend": backend,
        "publishable_key": settings.STRIPE_PUBLISHABLE_KEY if backend == Gateway.STRIPE else "",
    }


class TipView(APIView):
    """GET /api/bookings/{id}/tip: may an organizer add a tip, and the visit's tip.
    POST {percent | amount}: add it (organizers only: 403; not theirs: 404; a bad amount: 400;
    not completed, not paid, the 72 hours over or already tipped: 409). With Stripe the answer's
    clientSecret is confirmed by Stripe.js; the offline test gateway charges it at once."""

    @extend_schema(operation_id="tip_retrieve", responses={200: TipOfferSerializer})
    def get(self, request: Request, booking_id: int) -> Response:
        return Response(TipOfferSerializer(_tip_offer(request.user, booking_id)).data)

    @extend_schema(operation_id="tip_create", request=TipInputSerializer, responses={200: TipSerializer})
    def post(self, request: Request, booking_id: int) -> Response:
        serializer = TipInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        tip = tips.tip_start(
            actor=request.user,
            booking_id=booking_id,
            amount=serializer.validated_data.get("amount"),
            percent=serializer.validated_data.get("percent"),
        )
        return Response(TipSerializer(tip).data)


class InstantPayoutView(APIView):
    """GET /api/earnings/instant-payout: "Get paid now": available, the fee, what reaches the card
    (403 without a provider profile). POST {amount}: pay out the amount shown (409 when it cannot
    be used, or the amount available changed)."""

    @extend_schema(operation_id="instant_payout_quote", responses={200: InstantQuoteSerializer})
    def get(self, request: Request) -> Response:
        return Response(InstantQuoteSerializer(instant.instant_quote(user=request.user)).data)

    @extend_schema(
        operation_id="instant_payout_create",
        request=InstantPayoutInputSerializer,
        responses={201: InstantPayoutSerializer},
    )
    def post(self, request: Request) -> Response:
        serializer = InstantPayoutInputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        payout = instant.instant_payout_create(actor=request.user, amount=serializer.validated_data["amount"])
        return Response(InstantPayoutSerializer(payout).data, status=status.HTTP_201_CREATED)
