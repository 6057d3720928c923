from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Gateway(models.TextChoices):
    STRIPE = "stripe", "Stripe"
    TEST = "test", "Offline test gateway"


class PaymentIntent(models.Model):
    """The one payment intent of a booking (ARCHITECTURE.md "Payments": the existing intent is reused).

    The booking keeps the intent id in `Booking.payment_intent_id` too (a spec field); this row adds
    what the gateway returned, so a repeat create call answers the same client secret without a
    second intent.
    """

    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="payment_intent")
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    intent_id = models.CharField(max_length=255, unique=True)
    client_secret = models.CharField(max_length=255)
    amount_cents = models.PositiveIntegerField()
    currency = models.CharField(max_length=3)
    idempotency_key = models.CharField(max_length=255)
    last_error = models.TextField(blank=True, help_text="the gateway's message for the last failed attempt")
    # Who opened the checkout last: the receipt thanks them, the other organizers read that they paid.
    payer = models.ForeignKey("accounts.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(amount_cents__gt=0), name="payment_intent_amount_gt_0"),
        ]

    def __str__(self) -> str:
        return f"{self.intent_id} ({self.gateway})"


class Refund(models.Model):
    """The full refund of one paid booking that was cancelled: what the gateway needs and answered.

    Its state is the booking's `refund_status`, changed under the booking's row lock
    (bookings.services "refunds", driven by payments.refunds). Each attempt has its own
    idempotency key: repeating an attempt (a retried call, a second worker) never refunds twice,
    and an admin's new attempt after a failure is not answered with the failure Stripe stored
    for the previous key.
    """

    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="refund")
    gateway = models.CharField(max_length=16, choices=Gateway.choices, help_text="the gateway that took the payment")
    attempt = models.PositiveSmallIntegerField(default=1)
    idempotency_key = models.CharField(max_length=255)
    refund_id = models.CharField(max_length=255, blank=True, help_text="the gateway's id, once it accepted the refund")
    amount = models.DecimalField(
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        help_text="what is refunded when less than the whole payment (the total less a late fee); empty: all of it",
    )
    last_error = models.TextField(blank=True, help_text="why the last attempt failed (for admins only)")
    requested_at = models.DateTimeField(auto_now_add=True)
    attempted_at = models.DateTimeField(null=True, blank=True, help_text="when the gateway was last called")
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Refund of booking #{self.booking_id} (attempt {self.attempt})"


class ProcessedEvent(models.Model):
    """A webhook event already handled: its id is recorded in the transaction that handled it."""

    event_id = models.CharField(max_length=255, unique=True)
    event_type = models.CharField(max_length=100)
    intent_id = models.CharField(max_length=255, blank=True)
    outcome = models.CharField(max_length=32, help_text="what the event changed, e.g. paid, ignored")
    processed_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-processed_at"]

    def __str__(self) -> str:
        return f"{self.event_id} {self.event_type} -> {self.outcome}"


# ---------------------------------------------------------------- Stripe Connect (docs/payments.md)


class PayoutSetup(models.TextChoices):
    """What a provider's dashboard says about their payouts (ConnectedAccount.setup)."""

    NOT_SET_UP = "not_set_up", _("Payouts not set up")
    DETAILS_NEEDED = "details_needed", _("Details needed")
    ON = "on", _("Payouts on")


class ConnectedAccount(models.Model):
    """A provider's Stripe Express account (or the test gateway's simulated one) and its last known
    state, as Stripe's account object says it (the account.updated webhook keeps it current)."""

    provider = models.OneToOneField("providers.Provider", on_delete=models.CASCADE, related_name="connected_account")
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    account_id = models.CharField(max_length=255, unique=True)
    charges_enabled = models.BooleanField(default=False)
    payouts_enabled = models.BooleanField(default=False)
    details_submitted = models.BooleanField(default=False)
    requirements_due = models.JSONField(
        default=list, blank=True, help_text="Stripe's requirements currently_due and past_due"
    )
    disabled_reason = models.CharField(max_length=255, blank=True)
    state_at = models.DateTimeField(
        null=True, blank=True, help_text="when Stripe said the stored state (an older account.updated is ignored)"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.account_id} ({self.gateway})"

    @property
    def setup(self) -> PayoutSetup:
        """On: Stripe lets the account take charges and pay out, and asks for nothing now. Details
        needed: the provider went through the form but Stripe still needs something (or stopped
        payouts). Not set up: the form was never finished."""
        if self.charges_enabled and self.payouts_enabled and not self.requirements_due:
            return PayoutSetup.ON
        if self.details_submitted:
            return PayoutSetup.DETAILS_NEEDED
        return PayoutSetup.NOT_SET_UP


class PayoutState(models.TextChoices):
    """Where the provider's share of a paid booking is (docs/payments.md)."""

    PENDING = "pending", "Pending"  # held by Kindly: the visit is ahead, or payouts are not set up
    ON_ITS_WAY = "on_its_way", "On its way"  # transferred to the provider's account; Stripe pays it out
    PAID = "paid", "Paid"  # in a payout Stripe reports as paid to the provider's bank
    REVERSED = "reversed", "Reversed"  # the client was refunded: the share (and the fee) went back


class Earning(models.Model):
    """The split of one paid booking: gross (what the client paid), Kindly's fee, the provider's net.

    Computed on the server when the payment succeeds (payments.payouts.earning_split) and never
    changed afterwards (fee + net == gross: earning_split; no CHECK for it, as SQLite, the embedded
    default of make run, would compare the sums as floating point numbers); `state` follows the
    money (PayoutState). The provider is the booking's
    provider: a reassigned booking's share goes to whoever makes the visit.
    """

    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="earning")
    gross = models.DecimalField(max_digits=8, decimal_places=2)
    fee = models.DecimalField(max_digits=8, decimal_places=2)
    net = models.DecimalField(max_digits=8, decimal_places=2)
    fee_percent = models.DecimalField(max_digits=5, decimal_places=2)
    currency = models.CharField(max_length=3)
    state = models.CharField(max_length=16, choices=PayoutState.choices, default=PayoutState.PENDING)
    gateway = models.CharField(max_length=16, choices=Gateway.choices, help_text="the gateway that took the payment")
    transfer_id = models.CharField(max_length=255, blank=True)
    destination_payment_id = models.CharField(
        max_length=255, blank=True, help_text="the transfer's payment on the connected account (py_...)"
    )
    payout_id = models.CharField(max_length=255, blank=True)
    reversal_id = models.CharField(max_length=255, blank=True)
    reversed_after_payout = models.BooleanField(default=False)
    last_error = models.TextField(blank=True, help_text="why the last transfer or reversal failed (admins only)")
    created_at = models.DateTimeField(auto_now_add=True)
    transferred_at = models.DateTimeField(null=True, blank=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    reversed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(fee__gte=0) & Q(net__gte=0), name="earning_fee_net_gte_0"),
        ]
        indexes = [
            models.Index(fields=["transfer_id"], name="earning_transfer_idx"),
            models.Index(fields=["destination_payment_id"], name="earning_dest_payment_idx"),
        ]

    def __str__(self) -> str:
        return f"Earning of booking #{self.booking_id}: {self.net} ({self.state})"


class LateFeeKind(models.TextChoices):
    LATE_CANCEL = "late_cancel", "Cancelled by support inside 48 hours"
    NOBODY_HOME = "nobody_home", "Nobody home"


class LateFeeState(models.TextChoices):
    """Where a late fee is (docs/payments.md "Cancellation policy")."""

    HELD = "held", "Held for the family's dispute"  # nobody home: the family may dispute it first
    DISPUTED = "disputed", "Disputed"  # the family disputed it: staff decide
    PENDING = "pending", "Pending"  # to be transferred once the helper's payouts are on
    ON_ITS_WAY = "on_its_way", "On its way"  # transferred to the helper's account
    WAIVED = "waived", "Waived"  # staff waived it: nothing kept, the family got it all back


class LateFee(models.Model):
    """The late-cancellation fee of one cancelled booking, paid in full to its helper (no platform
    fee) by a Connect transfer of its own (idempotency key kindly-booking-<id>-late-fee-transfer).
    It is kept from the refund of the booking's payment (payments.Refund.amount): nothing new is
    charged. amount never changes; state follows the money."""

    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="late_fee")
    kind = models.CharField(max_length=16, choices=LateFeeKind.choices)
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    currency = models.CharField(max_length=3)
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    state = models.CharField(max_length=16, choices=LateFeeState.choices)
    waive_reason = models.TextField(blank=True)
    # Nobody home: the time is the booking's cancelled_at, where the helper was its check-out
    # position (when the browser gave it; cleared with the visit's positions after 90 days).
    release_after = models.DateTimeField(help_text="held until then for a dispute (nobody home)")
    dispute_reason = models.TextField(blank=True)
    disputed_at = models.DateTimeField(null=True, blank=True)
    decided_reason = models.TextField(blank=True, help_text="staff's answer to a dispute")
    transfer_id = models.CharField(max_length=255, blank=True)
    refund_id = models.CharField(max_length=255, blank=True, help_text="the refund of a fee waived after a dispute")
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    transferred_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="late_fee_amount_gt_0")]

    def __str__(self) -> str:
        return f"Late fee of booking #{self.booking_id}: {self.amount} ({self.state})"


# ---------------------------------------------------------------- saved cards (docs/payments.md "A saved card")


class SavedCard(models.Model):
    """An organizer's card, saved once (a Stripe SetupIntent on her Stripe customer, or the test
    gateway's simulated one) to charge her visits off-session (payments.cards). One per person:
    saving another replaces it. Only its owner ever reads brand, last4 and expiry (API and page).

    A row without payment_method_id is a card being saved (setup_intent_id) or one removed: the
    customer is kept, so the next card goes on the same Stripe customer."""

    user = models.OneToOneField("accounts.User", on_delete=models.CASCADE, related_name="saved_card")
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    customer_id = models.CharField(max_length=255)
    setup_intent_id = models.CharField(max_length=255, blank=True)
    setup_client_secret = models.CharField(max_length=255, blank=True)
    payment_method_id = models.CharField(max_length=255, blank=True)
    brand = models.CharField(max_length=32, blank=True)
    last4 = models.CharField(max_length=4, blank=True)
    exp_month = models.PositiveSmallIntegerField(null=True, blank=True)
    exp_year = models.PositiveSmallIntegerField(null=True, blank=True)
    # "Charge my saved card automatically" for her one-off bookings too (series are always charged).
    charge_every_booking = models.BooleanField(default=False)
    saved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"{self.brand or 'card'} {self.last4 or '(none)'} of user {self.user_id}"

    @property
    def ready(self) -> bool:
        return bool(self.payment_method_id)

    @property
    def label(self) -> str:
        """ "Visa •••• 4242" (for its owner only)."""
        brand = {"amex": "American Express", "mastercard": "Mastercard"}.get(self.brand, self.brand.title())
        return f"{brand or 'Card'} \u2022\u2022\u2022\u2022 {self.last4}"


class VisitChargeState(models.TextChoices):
    """Where the off-session charge of one visit is (payments.cards)."""

    PENDING = "pending", "To be charged"  # recorded with the accept; the Celery task charges it
    SUBMITTED = "submitted", "Charged, waiting for Stripe's word"  # the webhook confirms it
    SUCCEEDED = "succeeded", "Paid"
    FAILED = "failed", "The card was declined"
    ACTION_NEEDED = "action_needed", "The bank asks the card holder to confirm"
    CANCELLED = "cancelled", "Not charged (the visit was cancelled or paid another way)"


class VisitCharge(models.Model):
    """The automatic charge of one visit to its organizer's saved card: an off-session
    PaymentIntent (idempotency key visit-charge-<booking id>), made from Celery after the accept
    commits, confirmed by Stripe's webhook. The intent is also the booking's PaymentIntent, so a
    failed charge is fixed on the booking's checkout page with the same intent."""

    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="visit_charge")
    card = models.ForeignKey(SavedCard, null=True, blank=True, on_delete=models.SET_NULL, related_name="charges")
    payer = models.ForeignKey("accounts.User", on_delete=models.PROTECT, related_name="+")
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    state = models.CharField(max_length=16, choices=VisitChargeState.choices, default=VisitChargeState.PENDING)
    card_label = models.CharField(max_length=64, help_text="the card as its owner reads it, when charged")
    amount_cents = models.PositiveIntegerField()
    idempotency_key = models.CharField(max_length=255)
    intent_id = models.CharField(max_length=255, blank=True)
    decline_code = models.CharField(max_length=64, blank=True, help_text="card_declined, authentication_required...")
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    attempted_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount_cents__gt=0), name="visit_charge_amount_gt_0")]

    def __str__(self) -> str:
        return f"Charge of booking #{self.booking_id} ({self.state})"


# ---------------------------------------------------------------- tips (payments.tips)


class TipState(models.TextChoices):
    """Where a tip is (docs/payments.md "Tips")."""

    AWAITING_PAYMENT = "awaiting_payment", "Waiting for the card"  # intent made; the card not charged yet
    FAILED = "failed", "Card declined"  # the card was declined: the organizer may try again
    PENDING = "pending", "Pending"  # paid by the family; to be transferred once the helper's payouts are on
    ON_ITS_WAY = "on_its_way", "On its way"  # transferred, all of it, to the helper's account
    # The visit was refunded in full before the tip was transferred: the tip went back to the card too.
    REFUNDED = "refunded", "Refunded to the family"


class Tip(models.Model):
    """A family's thank-you for one visit, added by an organizer within TIP_WINDOW_HOURS of the
    check-out: charged as a PaymentIntent of its own (idempotency key per tip and amount) and
    transferred in full to the helper (no platform fee; key kindly-tip-<id>-transfer). One tip per
    visit: an unpaid one may be changed, a paid one is final."""

    booking = models.OneToOneField("bookings.Booking", on_delete=models.PROTECT, related_name="tip")
    payer = models.ForeignKey("accounts.User", on_delete=models.PROTECT, related_name="+")
    amount = models.DecimalField(max_digits=8, decimal_places=2)
    currency = models.CharField(max_length=3)
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    state = models.CharField(max_length=20, choices=TipState.choices, default=TipState.AWAITING_PAYMENT)
    intent_id = models.CharField(max_length=255, blank=True, db_index=True)
    client_secret = models.CharField(max_length=255, blank=True)
    idempotency_key = models.CharField(max_length=255, blank=True)
    transfer_id = models.CharField(max_length=255, blank=True)
    destination_payment_id = models.CharField(
        max_length=255, blank=True, help_text="the transfer's payment on the connected account (py_...)"
    )
    last_error = models.TextField(blank=True, help_text="the card's or the transfer's last error (admins only)")
    # The visit was refunded in full (payments.tips "Refunds"): the tip's refund at the gateway, or,
    # when the tip had already gone to the helper, when it was flagged for staff to decide.
    refund_id = models.CharField(max_length=255, blank=True)
    refunded_at = models.DateTimeField(null=True, blank=True)
    refund_flagged_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="the visit was refunded in full after this tip reached the helper: staff decide",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    paid_at = models.DateTimeField(null=True, blank=True)
    transferred_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(amount__gt=0), name="tip_amount_gt_0")]

    def __str__(self) -> str:
        return f"Tip of booking #{self.booking_id}: {self.amount} ({self.state})"


# ---------------------------------------------------------------- instant payouts (payments.instant)


class InstantPayoutState(models.TextChoices):
    REQUESTED = "requested", "Requested"  # recorded; the gateway not answered yet
    IN_TRANSIT = "in_transit", "On its way to your card"  # the gateway accepted it
    PAID = "paid", "Paid to your card"  # payout.paid
    FAILED = "failed", "Failed"  # refused, or payout.failed: the money stays in the balance


class InstantPayout(models.Model):
    """A helper's "Get paid now": a Stripe Instant Payout (method=instant) of her connected
    account's instantly available balance to her debit card, less Stripe's instant fee
    (payments.instant.instant_fee, shown before she confirms). Standard payouts stay free."""

    provider = models.ForeignKey("providers.Provider", on_delete=models.PROTECT, related_name="instant_payouts")
    account_id = models.CharField(max_length=255)
    gateway = models.CharField(max_length=16, choices=Gateway.choices)
    amount = models.DecimalField(max_digits=10, decimal_places=2, help_text="taken from the helper's balance")
    fee = models.DecimalField(max_digits=10, decimal_places=2, help_text="Stripe's instant fee, as shown")
    currency = models.CharField(max_length=3)
    state = models.CharField(max_length=16, choices=InstantPayoutState.choices, default=InstantPayoutState.REQUESTED)
    idempotency_key = models.CharField(max_length=255)
    payout_id = models.CharField(max_length=255, blank=True, db_index=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=Q(amount__gt=0) & Q(fee__gte=0) & Q(fee__lt=models.F("amount")),
                name="instant_payout_amount_fee",
            )
        ]

    def __str__(self) -> str:
        return f"Instant payout {self.payout_id or self.pk} of {self.amount} ({self.state})"

    @property
    def received(self):
        """What reaches the card: the amount less the fee."""
        return self.amount - self.fee
