"""Masked calls and texts: a Kindly number from a small pool bound to one booking's pair.

The helper and one person on the family's side (the recipient herself, or the circle member who
asked) each call or text the Kindly number; Kindly connects them to the other. Neither sees the
other's number. A record of each call and text (when, how long, which way) is kept for staff;
never what was said or written.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class PhoneLink(models.Model):
    """One Kindly number joining the booked helper's phone and one family phone for a booking,
    until `ends_at` (24 hours after the visit) or until the helper no longer holds the visit."""

    booking = models.ForeignKey("bookings.Booking", on_delete=models.CASCADE, related_name="+")
    number = models.CharField(max_length=16, help_text="The Kindly number (E.164) both sides call or text.")
    # The helper of the booking when it was bound: a reassigned booking ends the link.
    provider = models.ForeignKey("providers.Provider", on_delete=models.CASCADE, related_name="+")
    helper_phone = models.CharField(max_length=16)
    # Who is on the family's side: a circle member (their own number for texts), or nobody when it
    # is the care recipient's phone.
    family_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    family_phone = models.CharField(max_length=16)
    family_name = models.CharField(max_length=150)
    ends_at = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["number", "ends_at"], name="phone_link_number_idx")]
        constraints = [
            models.UniqueConstraint(fields=["booking", "family_phone"], name="phone_link_once_per_pair"),
        ]

    def __str__(self) -> str:
        return f"line {self.number} for booking {self.booking_id}"


class Direction(models.TextChoices):
    HELPER_TO_FAMILY = "helper_to_family", "Helper to family"
    FAMILY_TO_HELPER = "family_to_helper", "Family to helper"


class ContactKind(models.TextChoices):
    CALL = "call", "Call"
    TEXT = "text", "Text"


class PhoneContact(models.Model):
    """One call or text through a link: when, how long, which way. Never its content."""

    link = models.ForeignKey(PhoneLink, on_delete=models.CASCADE, related_name="contacts")
    booking = models.ForeignKey("bookings.Booking", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=ContactKind.choices)
    direction = models.CharField(max_length=20, choices=Direction.choices)
    # Twilio's CallSid or MessageSid: a webhook Twilio sends again is recognised (no second relay).
    sid = models.CharField(max_length=64, unique=True)
    at = models.DateTimeField(auto_now_add=True)
    # A call's length once it ended (Twilio's DialCallDuration), and how it ended.
    seconds = models.PositiveIntegerField(null=True, blank=True)
    outcome = models.CharField(max_length=16, blank=True)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.direction} on booking {self.booking_id}"
