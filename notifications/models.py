"""Events people are told about, one delivery per (event, recipient, channel), and each person's choices."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from notifications.kinds import Channel, Frequency, Kind


class Event(models.Model):
    """Something that happened and that people may hear of by email or text.

    `key` names the event once (e.g. "visit_reminder:booking:12:2026-11-24T08:00"): a scheduled
    job that finds the same thing again records nothing new.
    """

    key = models.CharField(max_length=200, unique=True)
    kind = models.CharField(max_length=32, choices=Kind.choices)
    booking = models.ForeignKey("bookings.Booking", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    # The in-app text (the text message body) and what the email shows beyond the booking.
    text = models.TextField()
    context = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.key


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENDING = "sending", "Being sent"
    RETRYING = "retrying", "Failed, will try again"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed after the last try"
    SKIPPED = "skipped", "Not sent (turned off, or no address)"
    # The worker stopped after handing it to the mail server or Twilio and before hearing back:
    # it may have arrived, so it is not sent again (at most one message per person and channel).
    UNKNOWN = "unknown", "Maybe sent: the worker stopped while sending"


class Delivery(models.Model):
    """One message to one person on one channel. Unique per event, recipient and channel, so an
    event is sent at most once to each, however often a task runs."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    recipient = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    status = models.CharField(max_length=16, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # Set just before the mail server or Twilio is called, cleared when it answers.
    handed_over_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "deliveries"
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "recipient", "channel"], name="delivery_once_per_channel"),
        ]
        indexes = [models.Index(fields=["status", "updated_at"], name="delivery_status_idx")]

    def __str__(self) -> str:
        return f"{self.event.kind} to {self.recipient_id} by {self.channel}: {self.status}"


class Preference(models.Model):
    """A person's choice for one kind on one channel; without a row the default holds (email on, text off)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=32, choices=Kind.choices)
    channel = models.CharField(max_length=8, choices=Channel.choices)
    enabled = models.BooleanField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "kind", "channel"], name="preference_once_per_channel"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.channel}: {'on' if self.enabled else 'off'}"


class Contact(models.Model):
    """Where texts go (opt-in) and how often a provider hears of new requests."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    # E.164 ("+15551234567"); empty: no texts.
    phone = models.CharField(max_length=16, blank=True)
    # The number answered STOP (Twilio refuses it, error 21610): nothing is texted until it opts in again.
    phone_opted_out_at = models.DateTimeField(null=True, blank=True)
    new_requests = models.CharField(max_length=8, choices=Frequency.choices, default=Frequency.DAILY)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"contact of {self.user_id}"


class TextOptOut(models.Model):
    """A phone number that answered STOP (or whose texts Twilio refused as unsubscribed, error 21610),
    whoever it belongs to: a person with an account (her Contact says so too) or a care recipient
    whose own phone gets the evening reminder texts (phoneline). Nothing is texted to it until it
    answers START."""

    phone = models.CharField(max_length=16, unique=True, help_text="E.164")
    opted_out_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.phone} answered STOP"
