"""The offline test gateway: POST /api/payments/test/confirm, and the gateway helpers."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from messaging.models import Message
from payments.gateways import (
    DECLINED_MESSAGE,
    StripeGateway,
    TestGateway,
    card_number_is_valid,
    get_gateway,
)
from payments.models import PaymentIntent

URL = "/api/payments/test/confirm"
pytestmark = pytest.mark.django_db


@pytest.fixture
def started(offline_backend, booking, api_as):
    response = api_as(booking.client).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")
    assert response.status_code == 200
    booking.refresh_from_db()
    return booking


def confirm(api, booking, card="4242 4242 4242 4242", **extra):
    return api.post(URL, {"bookingId": booking.pk, "cardNumber": card, **extra}, format="json")


def state(booking):
    booking.refresh_from_db()
    return booking.status, booking.payment_status


def test_card_4242_pays_and_confirms_the_booking(started, api_as):
    response = confirm(api_as(started.client), started, expiry="12/40", cvc="123")

    assert response.status_code == 200
    assert response.json() == {"status": "succeeded"}
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    receivers = set(
        Message.objects.filter(booking=started, content__contains="is confirmed").values_list("receiver_id", flat=True)
    )
    assert receivers == {started.client_id, started.provider.user_id}


def test_card_0002_is_declined_with_a_message_and_can_be_retried(started, api_as):
    client = api_as(started.client)

    declined = confirm(client, started, card="4000 0000 0000 0002")

    assert declined.status_code == 402
    assert declined.json() == {"message": DECLINED_MESSAGE, "errors": {"cardNumber": [DECLINED_MESSAGE]}}
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.FAILED)
    assert PaymentIntent.objects.get(booking=started).last_error == DECLINED_MESSAGE

    assert confirm(client, started).status_code == 200
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_paying_twice_is_409(started, api_as):
    client = api_as(started.client)
    confirm(client, started)

    again = confirm(client, started)

    assert again.status_code == 409
    assert again.json()["message"] == "This booking is already paid."


def test_confirm_before_the_intent_exists_is_409(offline_backend, booking, api_as):
    response = confirm(api_as(booking.client), booking)

    assert response.status_code == 409
    assert state(booking) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


@pytest.mark.parametrize(
    "extra, field",
    [
        ({"cardNumber": "4242 4242 4242 4241"}, "cardNumber"),
        ({"cardNumber": "abcd"}, "cardNumber"),
        ({"cardNumber": ""}, "cardNumber"),
        ({"expiry": "13/40"}, "expiry"),
        ({"expiry": "01/20"}, "expiry"),
        ({"cvc": "12"}, "cvc"),
        ({"bookingId": "x"}, "bookingId"),
        ({"amount": "1.00"}, "amount"),
    ],
)
def test_bad_card_input_is_400_and_changes_nothing(started, api_as, extra, field):
    body = {"bookingId": started.pk, "cardNumber": "4242424242424242", **extra}

    response = api_as(started.client).post(URL, body, format="json")

    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_another_users_booking_is_404_and_the_provider_403(started, api_as):
    assert confirm(api_as(UserFactory()), started).status_code == 404
    assert confirm(api_as(started.provider.user), started).status_code == 403
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_signed_out_is_401(started, api_as):
    assert confirm(api_as(None), started).status_code == 401


def test_confirm_does_not_exist_with_stripe(stripe_backend, booking, api_as):
    response = confirm(api_as(booking.client), booking)

    assert response.status_code == 404
    assert state(booking) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_an_intent_made_by_stripe_cannot_be_confirmed_offline(settings, stripe_backend, booking, api_as):
    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200
    settings.PAYMENTS_BACKEND = "test"

    response = confirm(client, booking)

    assert response.status_code == 409
    assert state(booking) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_a_cancelled_booking_cannot_be_confirmed(started, api_as):
    started.status = BookingStatus.CANCELLED
    started.cancelled_at = timezone.now() - dt.timedelta(minutes=1)
    started.save()

    response = confirm(api_as(started.client), started)

    assert response.status_code == 409
    assert state(started) == (BookingStatus.CANCELLED, PaymentStatus.PENDING)


@pytest.mark.parametrize(
    "number, valid",
    [
        ("4242424242424242", True),
        ("4242 4242 4242 4242", True),
        ("4000-0000-0000-0002", True),
        ("4242424242424241", False),
        ("42424242", False),
        ("4242x24242424242", False),
        ("", False),
    ],
)
def test_card_number_check_is_luhn(number, valid):
    assert card_number_is_valid(number) is valid


def test_offline_gateway_charges_only_4242():
    assert TestGateway.charge_card("4242 4242 4242 4242").succeeded
    declined = TestGateway.charge_card("4000000000000002")
    assert not declined.succeeded and declined.message == DECLINED_MESSAGE
    assert not TestGateway.charge_card("5555555555554444").succeeded


def test_gateway_is_chosen_by_settings(settings):
    settings.PAYMENTS_BACKEND = "test"
    assert isinstance(get_gateway(), TestGateway)
    settings.PAYMENTS_BACKEND = "stripe"
    assert isinstance(get_gateway(), StripeGateway)


# ---------------------------------------------------------------- the card's expiry as people type it


def _expiry_result(value: str):
    """(validated "MM/YY", None) or (None, the expiry's message) for one typed expiry."""
    from payments.api.serializers import CardConfirmInputSerializer

    serializer = CardConfirmInputSerializer(data={"bookingId": 1, "cardNumber": "4242424242424242", "expiry": value})
    if serializer.is_valid():
        return serializer.validated_data["expiry"], None
    return None, serializer.errors["expiry"][0]


def _next_year() -> int:
    return timezone.localdate().year + 1


@pytest.mark.parametrize(
    "spelling",
    [
        "12/{yy}",
        "12/{yyyy}",
        "1/{yy}",
        "01/{yy}",
        "12{yy}",
        "1{yy}",
        "12{yyyy}",
        "12 / {yy}",
        " 12 /{yy} ",
        "12-{yy}",
        "12 {yy}",
    ],
)
def test_common_expiry_spellings_are_accepted_as_mm_yy(spelling):
    year = _next_year()
    value = spelling.format(yy=f"{year % 100:02d}", yyyy=year)
    month = "01" if spelling.startswith(("1/", "01/", "1{")) else "12"

    assert _expiry_result(value) == (f"{month}/{year % 100:02d}", None)


def test_an_expiry_in_the_current_month_is_still_valid_and_last_month_is_past():
    today = timezone.localdate()
    last_month = (today.replace(day=1) - dt.timedelta(days=1)).replace(day=1)

    assert _expiry_result(f"{today.month}/{today.year % 100:02d}") == (
        f"{today.month:02d}/{today.year % 100:02d}",
        None,
    )
    assert _expiry_result(f"{last_month.month:02d}/{last_month.year}") == (
        None,
        f"This card expired at the end of {last_month.month:02d} / {last_month.year % 100:02d}. "
        "Please use a card that is still valid.",
    )


@pytest.mark.parametrize(
    "value, message",
    [
        ("12/3", "Enter the expiry date as MM / YY, for example 04 / 28."),
        ("12/300", "Enter the expiry date as MM / YY, for example 04 / 28."),
        ("December", "Enter the expiry date as MM / YY, for example 04 / 28."),
        ("12345", "Enter the expiry date as MM / YY, for example 04 / 28."),
        ("13/40", "The month must be a number from 01 to 12."),
        ("0/40", "The month must be a number from 01 to 12."),
        ("12/2099", "Please check the expiry date: it is more than 20 years away."),
    ],
)
def test_an_unreadable_or_impossible_expiry_says_what_to_type(value, message):
    assert _expiry_result(value) == (None, message)


def test_a_four_digit_year_expiry_pays_through_the_api(started, api_as):
    response = confirm(api_as(started.client), started, expiry=f"1/{_next_year()}", cvc="123")

    assert response.status_code == 200
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_a_past_expiry_is_400_with_a_plain_message_and_changes_nothing(started, api_as):
    response = confirm(api_as(started.client), started, expiry="01/20")

    assert response.status_code == 400
    assert response.json()["errors"]["expiry"] == [
        "This card expired at the end of 01 / 20. Please use a card that is still valid."
    ]
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)
