from __future__ import annotations

from django.db import models
from django.db.models import Q


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
