"""POST /api/create-payment-intent {amount, bookingId} -> {clientSecret}."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from payments.errors import CREATE_FAILED_MESSAGE
from payments.models import PaymentIntent
from payments.selectors import PAY_ORGANIZERS_ONLY

URL = "/api/create-payment-intent"
pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- Stripe path (SDK -> fake Stripe API)


def test_stripe_intent_amount_comes_from_the_booking_in_cents(stripe_backend, booking, api_as):
    response = api_as(booking.client).post(URL, {"amount": 45.5, "bookingId": booking.pk}, format="json")

    assert response.status_code == 200, response.content
    [sent] = stripe_backend.posts("/v1/payment_intents")
    assert sent.params["amount"] == "4550"
    assert sent.params["currency"] == "usd"
    assert sent.params["metadata[booking_id]"] == str(booking.pk)
    assert sent.params["metadata[client_id]"] == booking.client_id
    assert sent.idempotency_key == f"kindly-booking-{booking.pk}-intent-4550usd"
    assert sent.authorization == "Bearer sk_test_kindly_fake"
    intent_id = next(iter(stripe_backend.intents))
    assert response.json() == {"clientSecret": f"{intent_id}_secret_fake"}
    booking.refresh_from_db()
    assert booking.payment_intent_id == intent_id
    assert booking.payment_status == PaymentStatus.PENDING
    record = PaymentIntent.objects.get(booking=booking)
    assert (record.gateway, record.amount_cents, record.currency) == ("stripe", 4550, "usd")


def test_stripe_repeat_call_returns_the_same_secret_and_makes_no_second_intent(stripe_backend, booking, api_as):
    client = api_as(booking.client)
    first = client.post(URL, {"amount": "45.50", "bookingId": booking.pk}, format="json")
    second = client.post(URL, {"amount": "45.50", "bookingId": booking.pk}, format="json")

    assert first.status_code == second.status_code == 200
    assert first.json()["clientSecret"] == second.json()["clientSecret"]
    assert len(stripe_backend.intents) == 1
    assert len(stripe_backend.posts("/v1/payment_intents")) == 1
    assert PaymentIntent.objects.count() == 1


def test_stripe_amount_is_optional_and_never_trusted(stripe_backend, booking, api_as):
    response = api_as(booking.client).post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 200
    assert stripe_backend.posts("/v1/payment_intents")[0].params["amount"] == "4550"


@pytest.mark.parametrize(
    "status, body",
    [
        (402, {"error": {"type": "card_error", "code": "card_declined", "message": "Your card was declined."}}),
        (400, {"error": {"type": "invalid_request_error", "message": "Amount must be at least $0.50 usd"}}),
        (401, {"error": {"type": "invalid_request_error", "message": "Invalid API Key provided: sk_test_***"}}),
    ],
)
def test_stripe_error_becomes_the_spec_failure_text_not_a_500(stripe_backend, booking, api_as, status, body):
    stripe_backend.fail_next.append((status, body))

    response = api_as(booking.client).post(URL, {"amount": "45.50", "bookingId": booking.pk}, format="json")

    assert response.status_code == 502
    assert response.json() == {"message": CREATE_FAILED_MESSAGE, "errors": {}}
    assert CREATE_FAILED_MESSAGE == "Failed to create payment. Please try again."
    booking.refresh_from_db()
    assert booking.payment_intent_id == ""
    assert not PaymentIntent.objects.exists()


def test_stripe_unreachable_becomes_the_spec_failure_text(settings, stripe_backend, booking, api_as):
    settings.STRIPE_API_BASE = "http://127.0.0.1:9"  # nothing listens on the discard port

    response = api_as(booking.client).post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 502
    assert response.json()["message"] == CREATE_FAILED_MESSAGE


def test_stripe_retry_after_an_error_uses_the_same_idempotency_key(stripe_backend, booking, api_as):
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "boom"}}))
    client = api_as(booking.client)

    assert client.post(URL, {"bookingId": booking.pk}, format="json").status_code == 502
    assert client.post(URL, {"bookingId": booking.pk}, format="json").status_code == 200

    keys = {r.idempotency_key for r in stripe_backend.posts("/v1/payment_intents")}
    assert keys == {f"kindly-booking-{booking.pk}-intent-4550usd"}
    assert len(stripe_backend.intents) == 1


# ---------------------------------------------------------------- rules (any gateway)


def test_offline_gateway_returns_a_client_secret_once_per_booking(offline_backend, booking, api_as):
    client = api_as(booking.client)
    first = client.post(URL, {"amount": 45.5, "bookingId": booking.pk}, format="json").json()
    second = client.post(URL, {"amount": 45.5, "bookingId": booking.pk}, format="json").json()

    booking.refresh_from_db()
    assert first == second
    assert first["clientSecret"].startswith(f"{booking.payment_intent_id}_secret_")
    assert booking.payment_intent_id.startswith("pi_test_")


@pytest.mark.parametrize("amount", [45.49, "45.51", 4550, 0])
def test_a_differing_client_amount_is_400(booking, api_as, amount):
    response = api_as(booking.client).post(URL, {"amount": amount, "bookingId": booking.pk}, format="json")

    assert response.status_code == 400
    assert response.json()["errors"]["amount"] == ["The amount does not match this booking's total of $45.50."]
    booking.refresh_from_db()
    assert booking.payment_intent_id == ""


@pytest.mark.parametrize(
    "body, field",
    [
        ({}, "bookingId"),
        ({"bookingId": "abc"}, "bookingId"),
        ({"bookingId": 0}, "bookingId"),
        ({"bookingId": 2**70}, "bookingId"),
        ({"bookingId": 1, "amount": "lots"}, "amount"),
        ({"bookingId": 1, "amount": -5}, "amount"),
        ({"bookingId": 1, "amount": "1.234"}, "amount"),
        ({"bookingId": 1, "paymentStatus": "paid"}, "paymentStatus"),
    ],
)
def test_bad_input_is_400_with_field_errors(client_user, api_as, body, field):
    response = api_as(client_user).post(URL, body, format="json")

    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert response.json()["message"]


def test_non_object_body_is_400(client_user, api_as):
    response = api_as(client_user).post(URL, [1, 2], format="json")

    assert response.status_code == 400


def test_signed_out_is_401(booking, api_as):
    response = api_as(None).post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 401
    assert response.json()["message"] == "Unauthorized"


def test_another_users_booking_is_404(booking, api_as):
    stranger = UserFactory()

    response = api_as(stranger).post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 404
    booking.refresh_from_db()
    assert booking.payment_intent_id == ""


def test_missing_booking_is_404(client_user, api_as):
    assert api_as(client_user).post(URL, {"bookingId": 987654}, format="json").status_code == 404


def test_the_bookings_provider_sees_it_but_cannot_pay_403(booking, api_as):
    response = api_as(booking.provider.user).post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 403
    assert response.json()["message"] == PAY_ORGANIZERS_ONLY


def test_admin_sees_every_booking_but_cannot_pay_403(booking, admin_user, api_as):
    assert api_as(admin_user).post(URL, {"bookingId": booking.pk}, format="json").status_code == 403


@pytest.mark.parametrize(
    "status, payment_status, message",
    [
        (BookingStatus.CANCELLED, PaymentStatus.PENDING, "This booking was cancelled, so it cannot be paid."),
        (BookingStatus.CONFIRMED, PaymentStatus.PAID, "This booking is already paid."),
        (BookingStatus.SCHEDULED, PaymentStatus.REFUNDED, "cannot be paid again"),
        (BookingStatus.COMPLETED, PaymentStatus.PAID, "This booking is already paid."),
    ],
)
def test_only_a_scheduled_unpaid_booking_can_be_paid_409(booking, api_as, status, payment_status, message):
    booking.status, booking.payment_status = status, payment_status
    booking.save()

    response = api_as(booking.client).post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 409
    assert message in response.json()["message"]
    assert not PaymentIntent.objects.exists()


def test_a_failed_payment_can_be_tried_again_with_the_same_intent(stripe_backend, booking, api_as):
    client = api_as(booking.client)
    secret = client.post(URL, {"bookingId": booking.pk}, format="json").json()["clientSecret"]
    booking.refresh_from_db()
    booking.payment_status = PaymentStatus.FAILED
    booking.save()

    again = client.post(URL, {"bookingId": booking.pk}, format="json")

    assert again.status_code == 200
    assert again.json()["clientSecret"] == secret
    assert len(stripe_backend.intents) == 1


def test_csrf_is_enforced_for_session_calls(booking):
    from rest_framework.test import APIClient

    client = APIClient(enforce_csrf_checks=True)
    client.force_login(booking.client)

    response = client.post(URL, {"bookingId": booking.pk}, format="json")

    assert response.status_code == 403
    assert Decimal(booking.total_amount) == Decimal("45.50")
    booking.refresh_from_db()
    assert booking.payment_intent_id == ""


def test_creating_intents_is_rate_limited_per_user(settings, booking, api_as):
    from django.core.cache import cache

    cache.clear()
    settings.THROTTLE_RATES = {**settings.THROTTLE_RATES, "payment_intent": "2/min"}
    client = api_as(booking.client)

    statuses = [client.post(URL, {"bookingId": booking.pk}, format="json").status_code for _ in range(3)]

    assert statuses == [200, 200, 429]
    assert api_as(booking.provider.user).post(URL, {"bookingId": booking.pk}, format="json").status_code == 403
