"""Payment API input and output shapes (spec section 7: {amount, bookingId} -> {clientSecret})."""

from __future__ import annotations

import re

from django.utils import timezone
from rest_framework import serializers

from marketplace.api import StrictSerializer
from payments.gateways import INVALID_NUMBER_MESSAGE, card_number_is_valid, normalize_card_number

MAX_ID = 2**63 - 1
# Limits in the words the payment page uses, never DRF's "Ensure this value ..." (issue 12).
_BOOKING_ID_MESSAGES = {
    **{code: "Booking not found." for code in ("min_value", "max_value", "max_string_length")},
    **{code: "Booking is required." for code in ("required", "null")},
}
_AMOUNT_MESSAGES = {
    code: "The amount does not match this booking's total."
    for code in ("min_value", "max_digits", "max_whole_digits", "max_decimal_places", "max_string_length")
}
_EXPIRY_INVALID = "Your card's expiration date is invalid."
_CVC_INVALID = "Your card's security code is invalid."
EXPIRY_RE = re.compile(r"^\s*(0[1-9]|1[0-2])\s*/\s*(\d{2})\s*$")


class CreatePaymentIntentInputSerializer(StrictSerializer):
    bookingId = serializers.IntegerField(min_value=1, max_value=MAX_ID, error_messages=_BOOKING_ID_MESSAGES)  # noqa: N815
    # What the page shows; checked against the booking, never charged.
    amount = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=0,
        required=False,
        allow_null=True,
        error_messages=_AMOUNT_MESSAGES,
    )


class ClientSecretSerializer(serializers.Serializer):
    clientSecret = serializers.CharField()  # noqa: N815


class CardConfirmInputSerializer(StrictSerializer):
    """The offline test gateway's card form."""

    bookingId = serializers.IntegerField(min_value=1, max_value=MAX_ID, error_messages=_BOOKING_ID_MESSAGES)  # noqa: N815
    cardNumber = serializers.CharField(  # noqa: N815
        max_length=40, trim_whitespace=True, error_messages={"max_length": INVALID_NUMBER_MESSAGE}
    )
    expiry = serializers.CharField(
        max_length=10, required=False, allow_blank=True, error_messages={"max_length": _EXPIRY_INVALID}
    )
    cvc = serializers.CharField(
        max_length=10, required=False, allow_blank=True, error_messages={"max_length": _CVC_INVALID}
    )

    def validate_cardNumber(self, value: str) -> str:  # noqa: N802
        if not card_number_is_valid(value):
            raise serializers.ValidationError(INVALID_NUMBER_MESSAGE)
        return normalize_card_number(value)

    def validate_expiry(self, value: str) -> str:
        if not value:
            return value
        match = EXPIRY_RE.match(value)
        if not match:
            raise serializers.ValidationError("Your card's expiration date is invalid.")
        month, year = int(match.group(1)), 2000 + int(match.group(2))
        today = timezone.localdate()
        if (year, month) < (today.year, today.month):
            raise serializers.ValidationError("Your card has expired.")
        if year > today.year + 20:
            raise serializers.ValidationError("Your card's expiration date is invalid.")
        return f"{month:02d}/{year % 100:02d}"

    def validate_cvc(self, value: str) -> str:
        if value and not re.fullmatch(r"\d{3,4}", value.strip()):
            raise serializers.ValidationError("Your card's security code is invalid.")
        return value.strip()


class CardConfirmResultSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["succeeded"])


class BookingRefInputSerializer(StrictSerializer):
    bookingId = serializers.IntegerField(min_value=1, max_value=MAX_ID, error_messages=_BOOKING_ID_MESSAGES)  # noqa: N815


class PaymentStateSerializer(serializers.Serializer):
    status = serializers.CharField()
    paymentStatus = serializers.CharField()  # noqa: N815
