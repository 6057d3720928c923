"""Payment API input and output shapes (spec section 7: {amount, bookingId} -> {clientSecret})."""

from __future__ import annotations

import re

from django.utils import timezone
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from core.api import StrictSerializer
from core.fields import StrictCharField
from payments.gateways import INVALID_NUMBER_MESSAGE, card_number_is_valid, normalize_card_number
from payments.latefees import DECIDE_REASON_REQUIRED, DISPUTE_REASON_REQUIRED
from payments.models import Gateway, InstantPayoutState, LateFeeKind, LateFeeState, PayoutSetup, PayoutState, TipState
from payments.tips import TIP_CHOOSE_ONE

MAX_ID = 2**63 - 1
# Limits in the words the payment page uses, never DRF's "Ensure this value ...".
_BOOKING_ID_MESSAGES = {
    **{code: "Booking not found." for code in ("min_value", "max_value", "max_string_length")},
    **{code: "Booking is required." for code in ("required", "null")},
}
_AMOUNT_MESSAGES = {
    code: "The amount does not match this booking's total."
    for code in ("min_value", "max_digits", "max_whole_digits", "max_decimal_places", "max_string_length")
}
CVC_INVALID = gettext_lazy("Your card's security code is invalid.")
CVC_MIN_DIGITS = 3
CVC_MAX_DIGITS = 4
# A card's expiry as people type it: "12/30", "12 / 30", "12-30", "1/30", "12/2030", or digits
# only: "130" (M YY), "1230" (MM YY), "122030" (MM YYYY).
EXPIRY_SEPARATED_RE = re.compile(r"(?P<month>\d{1,2})\s*[/\-. ]\s*(?P<year>\d{2}|\d{4})")
EXPIRY_DIGITS_RE = re.compile(r"(?P<month>\d{1,2})(?P<year>\d{2})|(?P<month4>\d{2})(?P<year4>\d{4})")
EXPIRY_UNREADABLE = gettext_lazy("Enter the expiry date as MM / YY, for example 04 / 28.")
EXPIRY_BAD_MONTH = gettext_lazy("The month must be a number from 01 to 12.")
EXPIRY_TOO_FAR = gettext_lazy("Please check the expiry date: it is more than 20 years away.")
# Cards are issued for at most a few years; anything further away is a typing mistake.
EXPIRY_MAX_YEARS = 20
EXPIRED = gettext_lazy("This card expired at the end of {printed}. Please use a card that is still valid.")
NUMBER_MAX_LENGTH = 40
SHORT_MAX_LENGTH = 10


def parse_card_expiry(text: str) -> tuple[int, int]:
    """(month, four-digit year) of a typed expiry date; ValueError with the message to show."""
    value = text.strip()
    match = EXPIRY_SEPARATED_RE.fullmatch(value)
    if match:
        month_text, year_text = match["month"], match["year"]
    else:
        match = EXPIRY_DIGITS_RE.fullmatch(value)
        if not match:
            raise ValueError(EXPIRY_UNREADABLE)
        month_text = match["month"] or match["month4"]
        year_text = match["year"] or match["year4"]
    month = int(month_text)
    year = int(year_text) + (2000 if len(year_text) == 2 else 0)
    if not 1 <= month <= 12:
        raise ValueError(EXPIRY_BAD_MONTH)
    return month, year


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
        max_length=NUMBER_MAX_LENGTH, trim_whitespace=True, error_messages={"max_length": INVALID_NUMBER_MESSAGE}
    )
    expiry = serializers.CharField(
        max_length=SHORT_MAX_LENGTH, required=False, allow_blank=True, error_messages={"max_length": EXPIRY_UNREADABLE}
    )
    cvc = serializers.CharField(
        max_length=SHORT_MAX_LENGTH, required=False, allow_blank=True, error_messages={"max_length": CVC_INVALID}
    )

    def validate_cardNumber(self, value: str) -> str:  # noqa: N802
        if not card_number_is_valid(value):
            raise serializers.ValidationError(INVALID_NUMBER_MESSAGE)
        return normalize_card_number(value)

    def validate_expiry(self, value: str) -> str:
        """Any common spelling of a date not in the past -> "MM/YY"."""
        if not value.strip():
            return ""
        try:
            month, year = parse_card_expiry(value)
        except ValueError as exc:
            raise serializers.ValidationError(str(exc)) from None
        today = timezone.localdate()
        if (year, month) < (today.year, today.month):
            # A card is good until the end of the month printed on it.
            printed = f"{month:02d} / {year % 100:02d}"
            raise serializers.ValidationError(EXPIRED.format(printed=printed))
        if year > today.year + EXPIRY_MAX_YEARS:
            raise serializers.ValidationError(EXPIRY_TOO_FAR)
        return f"{month:02d}/{year % 100:02d}"

    def validate_cvc(self, value: str) -> str:
        if value and not re.fullmatch(rf"\d{{{CVC_MIN_DIGITS},{CVC_MAX_DIGITS}}}", value.strip()):
            raise serializers.ValidationError(CVC_INVALID)
        return value.strip()


class CardConfirmResultSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=["succeeded"])


class BookingRefInputSerializer(StrictSerializer):
    bookingId = serializers.IntegerField(min_value=1, max_value=MAX_ID, error_messages=_BOOKING_ID_MESSAGES)  # noqa: N815


class PaymentStateSerializer(serializers.Serializer):
    status = serializers.CharField()
    paymentStatus = serializers.CharField()  # noqa: N815


# ---------------------------------------------------------------- earnings (GET /api/earnings)


def _money(**kwargs) -> serializers.DecimalField:
    return serializers.DecimalField(max_digits=10, decimal_places=2, coerce_to_string=False, read_only=True, **kwargs)


class EarningSerializer(serializers.Serializer):
    """One booking's split, over payments.selectors.earning_list (with_notes)."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    title = serializers.CharField(source="booking.service_request.title", read_only=True)
    scheduledDate = serializers.DateField(source="booking.scheduled_date", read_only=True)  # noqa: N815
    bookingStatus = serializers.CharField(source="booking.status", read_only=True)  # noqa: N815
    gross = _money()
    fee = _money()
    net = _money()
    feePercent = _money(source="fee_percent")  # noqa: N815
    currency = serializers.CharField(read_only=True)
    state = serializers.ChoiceField(choices=PayoutState.choices, read_only=True)
    stateLabel = serializers.CharField(  # noqa: N815
        source="state_label",
        read_only=True,
        help_text="the state in words: a refunded visit says why",
    )
    earned = _money(help_text="what the provider keeps: net, or 0 once the client was refunded")
    note = serializers.CharField(read_only=True, help_text="where the money is, in one sentence")
    availableOn = serializers.DateField(  # noqa: N815
        source="available_on",
        read_only=True,
        allow_null=True,
        help_text="about when the free standard payout brings it to the bank; null until it is sent",
    )


class MoneyTotalsSerializer(serializers.Serializer):
    gross = _money()
    fee = _money()
    net = _money()


class MonthTotalsSerializer(MoneyTotalsSerializer):
    month = serializers.DateField(read_only=True, help_text="the first day of the month")
    count = serializers.IntegerField(read_only=True)


class PayoutSetupSerializer(serializers.Serializer):
    status = serializers.ChoiceField(choices=PayoutSetup.choices, read_only=True)
    label = serializers.CharField(read_only=True)


class HelperLateFeeSerializer(serializers.Serializer):
    """One late fee on /earnings (payments.selectors.with_fee_notes): all of it the helper's."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    title = serializers.CharField(source="booking.service_request.title", read_only=True)
    scheduledDate = serializers.DateField(source="booking.scheduled_date", read_only=True)  # noqa: N815
    kind = serializers.ChoiceField(choices=LateFeeKind.choices, read_only=True)
    kindLabel = serializers.CharField(source="kind_label", read_only=True)  # noqa: N815
    amount = _money()
    state = serializers.ChoiceField(choices=LateFeeState.choices, read_only=True)
    note = serializers.CharField(read_only=True)
    availableOn = serializers.DateField(source="available_on", read_only=True, allow_null=True)  # noqa: N815


class HelperTipSerializer(serializers.Serializer):
    """One tip on /earnings (payments.selectors.with_tip_notes): all of it the helper's."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    title = serializers.CharField(source="booking.service_request.title", read_only=True)
    scheduledDate = serializers.DateField(source="booking.scheduled_date", read_only=True)  # noqa: N815
    fromName = serializers.CharField(source="from_name", read_only=True)  # noqa: N815
    amount = _money()
    state = serializers.ChoiceField(choices=TipState.choices, read_only=True)
    note = serializers.CharField(read_only=True)
    availableOn = serializers.DateField(source="available_on", read_only=True, allow_null=True)  # noqa: N815


class EarningsSerializer(serializers.Serializer):
    """GET /api/earnings: the provider's payouts setup, totals (all time and by month, reversed
    ones left out) and every paid booking's split, latest visit first."""

    payouts = PayoutSetupSerializer(read_only=True)
    feePercent = _money(source="fee_percent", help_text="Kindly's fee on new bookings")  # noqa: N815
    totals = MoneyTotalsSerializer(read_only=True)
    months = MonthTotalsSerializer(many=True, read_only=True)
    earnings = EarningSerializer(many=True, read_only=True)
    lateFees = HelperLateFeeSerializer(source="late_fees", many=True, read_only=True)  # noqa: N815
    tips = HelperTipSerializer(many=True, read_only=True)


class LateFeeSerializer(serializers.Serializer):
    """GET /api/bookings/{id}/late-fee: the cancellation policy's fee of a cancelled booking."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    kind = serializers.ChoiceField(choices=LateFeeKind.choices, read_only=True)
    amount = _money()
    currency = serializers.CharField(read_only=True)
    state = serializers.ChoiceField(choices=LateFeeState.choices, read_only=True)
    note = serializers.CharField(read_only=True, help_text="where the fee is, in one sentence")
    reportedAt = serializers.DateTimeField(source="booking.cancelled_at", read_only=True)  # noqa: N815
    disputeUntil = serializers.DateTimeField(source="release_after", read_only=True)  # noqa: N815
    canDispute = serializers.BooleanField(source="can_dispute", read_only=True)  # noqa: N815
    disputeReason = serializers.CharField(source="dispute_reason", read_only=True)  # noqa: N815
    waiveReason = serializers.CharField(source="waive_reason", read_only=True)  # noqa: N815


class LateFeeDisputeSerializer(StrictSerializer):
    """POST /api/bookings/{id}/late-fee/dispute {reason}: what happened, for staff."""

    reason = StrictCharField(
        label=gettext_lazy("What happened"),
        max_length=2000,
        error_messages={
            "required": DISPUTE_REASON_REQUIRED,
            "blank": DISPUTE_REASON_REQUIRED,
            "null": DISPUTE_REASON_REQUIRED,
        },
    )


class LateFeeDecisionSerializer(StrictSerializer):
    """POST /api/admin/bookings/{id}/late-fee {decision: pay | waive, reason}: staff decide a dispute."""

    decision = serializers.ChoiceField(choices=[("pay", "The fee stands"), ("waive", "Waive the fee")])
    reason = StrictCharField(
        label=gettext_lazy("Reason"),
        max_length=2000,
        error_messages={
            "required": DECIDE_REASON_REQUIRED,
            "blank": DECIDE_REASON_REQUIRED,
            "null": DECIDE_REASON_REQUIRED,
        },
    )


# ---------------------------------------------------------------- a saved card (payments.cards)


class SavedCardSerializer(serializers.Serializer):
    """The organizer's own card: only she reads it (GET /api/payment-method answers for the viewer)."""

    brand = serializers.CharField()
    last4 = serializers.CharField()
    expMonth = serializers.IntegerField(source="exp_month", allow_null=True)  # noqa: N815
    expYear = serializers.IntegerField(source="exp_year", allow_null=True)  # noqa: N815
    label = serializers.CharField(help_text='"Visa •••• 4242"')


class PaymentMethodSerializer(serializers.Serializer):
    card = SavedCardSerializer(allow_null=True)
    chargeEveryBooking = serializers.BooleanField(  # noqa: N815
        help_text="Charge my saved card automatically for one-off bookings too (series always are)."
    )
    gateway = serializers.ChoiceField(choices=Gateway.choices)
    publishableKey = serializers.CharField(allow_blank=True)  # noqa: N815


class SetupStartedSerializer(serializers.Serializer):
    clientSecret = serializers.CharField()  # noqa: N815
    setupIntentId = serializers.CharField()  # noqa: N815


class SetupFinishInputSerializer(StrictSerializer):
    setupIntentId = serializers.CharField(  # noqa: N815
        max_length=255,
        error_messages={"max_length": gettext_lazy("This is not a card being saved. Please start again.")},
    )


class TestCardSaveInputSerializer(StrictSerializer):
    """The offline test gateway's form to save a card."""

    cardNumber = serializers.CharField(  # noqa: N815
        max_length=NUMBER_MAX_LENGTH, trim_whitespace=True, error_messages={"max_length": INVALID_NUMBER_MESSAGE}
    )
    expiry = serializers.CharField(max_length=SHORT_MAX_LENGTH, error_messages={"max_length": EXPIRY_UNREADABLE})

    validate_expiry = CardConfirmInputSerializer.validate_expiry

    def validate_cardNumber(self, value: str) -> str:  # noqa: N802
        if not card_number_is_valid(value):
            raise serializers.ValidationError(INVALID_NUMBER_MESSAGE)
        return normalize_card_number(value)


class PaymentMethodPreferenceSerializer(StrictSerializer):
    chargeEveryBooking = serializers.BooleanField()  # noqa: N815


# ---------------------------------------------------------------- tips (payments.tips)

_TIP_AMOUNT_MESSAGES = {
    code: "Type the tip in dollars and cents, for example 10.00."
    for code in ("invalid", "max_digits", "max_whole_digits", "max_decimal_places", "max_string_length")
}


class TipInputSerializer(StrictSerializer):
    """POST /api/bookings/{id}/tip: one suggested `percent` of the visit's total, or an `amount`."""

    percent = serializers.IntegerField(
        required=False, allow_null=True, error_messages={"invalid": TIP_CHOOSE_ONE, "max_string_length": TIP_CHOOSE_ONE}
    )
    amount = serializers.DecimalField(
        max_digits=8, decimal_places=2, required=False, allow_null=True, error_messages=_TIP_AMOUNT_MESSAGES
    )


class TipSuggestionSerializer(serializers.Serializer):
    percent = serializers.IntegerField(read_only=True)
    amount = _money()


class TipSerializer(serializers.Serializer):
    """A visit's tip, for its organizers. clientSecret only while the card is still to be charged."""

    amount = _money()
    currency = serializers.CharField(read_only=True)
    state = serializers.ChoiceField(choices=TipState.choices, read_only=True)
    payerName = serializers.CharField(source="payer.full_name", read_only=True)  # noqa: N815
    clientSecret = serializers.SerializerMethodField()  # noqa: N815
    error = serializers.CharField(source="last_error", read_only=True, help_text="the card's message when declined")

    def get_clientSecret(self, tip) -> str:  # noqa: N802
        return tip.client_secret if tip.state in (TipState.AWAITING_PAYMENT, TipState.FAILED) else ""


class TipOfferSerializer(serializers.Serializer):
    """GET /api/bookings/{id}/tip: may a tip be added now (until when), the suggestions and limits,
    and the visit's tip when there is one."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    helperName = serializers.CharField(source="helper_name", read_only=True)  # noqa: N815
    visitAmount = _money(source="visit_amount")  # noqa: N815
    canAdd = serializers.BooleanField(source="can_add", read_only=True)  # noqa: N815
    until = serializers.DateTimeField(read_only=True, allow_null=True)
    suggestions = TipSuggestionSerializer(many=True, read_only=True)
    min = _money()
    max = _money()
    tip = TipSerializer(read_only=True, allow_null=True)
    backend = serializers.CharField(read_only=True)
    publishableKey = serializers.CharField(source="publishable_key", read_only=True)  # noqa: N815


# ---------------------------------------------------------------- faster pay (payments.instant)


class InstantQuoteSerializer(serializers.Serializer):
    """GET /api/earnings/instant-payout: "Get paid now", the fee shown first."""

    eligible = serializers.BooleanField(read_only=True)
    reason = serializers.CharField(read_only=True, help_text="why it cannot be used now, in words")
    available = _money()
    fee = _money(help_text="Stripe's instant fee (payments.instant.instant_fee)")
    receive = _money(help_text="what reaches the debit card: available less the fee")
    currency = serializers.CharField(read_only=True)
    standardDays = serializers.IntegerField(source="standard_days", read_only=True)  # noqa: N815


class InstantPayoutInputSerializer(StrictSerializer):
    """POST /api/earnings/instant-payout {amount}: the amount shown, confirmed."""

    amount = serializers.DecimalField(
        max_digits=10,
        decimal_places=2,
        min_value=0,
        error_messages={
            "required": gettext_lazy("Confirm the amount shown."),
            "null": gettext_lazy("Confirm the amount shown."),
            "invalid": gettext_lazy("Confirm the amount shown."),
            "min_value": gettext_lazy("Confirm the amount shown."),
            "max_digits": gettext_lazy("Confirm the amount shown."),
            "max_decimal_places": gettext_lazy("Confirm the amount shown."),
            "max_whole_digits": gettext_lazy("Confirm the amount shown."),
            "max_string_length": gettext_lazy("Confirm the amount shown."),
        },
    )


class InstantPayoutSerializer(serializers.Serializer):
    amount = _money()
    fee = _money()
    received = _money()
    currency = serializers.CharField(read_only=True)
    state = serializers.ChoiceField(choices=InstantPayoutState.choices, read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)  # noqa: N815
