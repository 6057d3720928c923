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


# ---------------------------------------------------------------- calling Kindly (the phone menu)


class PhonePin(models.Model):
    """The 4-digit PIN a care recipient says on the phone menu (with her own phone's caller ID).
    Set by an organizer on /care-circle; kept hashed; locked after PIN_ATTEMPTS wrong tries until
    an organizer sets it again."""

    recipient = models.OneToOneField("circles.CareRecipient", on_delete=models.CASCADE, related_name="+")
    pin_hash = models.CharField(max_length=128)
    failed_attempts = models.PositiveSmallIntegerField(default=0)
    locked_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"phone PIN of recipient {self.recipient_id}"


class MenuCall(models.Model):
    """One call to the phone menu (Twilio's CallSid): who it is once the PIN was right, and what it
    did, so a webhook Twilio sends again does nothing twice."""

    call_sid = models.CharField(max_length=64, unique=True)
    recipient = models.ForeignKey(
        "circles.CareRecipient", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    verified_at = models.DateTimeField(null=True, blank=True)
    # {"confirm": booking id, "cancel": booking id, "again": request id}: what this call did.
    done = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"menu call {self.call_sid}"


class PhoneConfirmation(models.Model):
    """A visit the care recipient confirmed by phone ("Confirmed by phone" for the helper)."""

    booking = models.OneToOneField("bookings.Booking", on_delete=models.CASCADE, related_name="+")
    at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"booking {self.booking_id} confirmed by phone"


class StaffVoicemail(models.Model):
    """A message a caller left for Kindly staff (menu option 0): Twilio's recording, its length
    and, when Twilio offers it, its transcription. Shown to staff on /admin."""

    call_sid = models.CharField(max_length=64, unique=True)
    recipient = models.ForeignKey(
        "circles.CareRecipient", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recording_url = models.URLField(max_length=500)
    seconds = models.PositiveIntegerField(default=0)
    transcription = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    handled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"voicemail {self.call_sid}"


# ---------------------------------------------------------------- reminder calls the evening before


class ReminderBy(models.TextChoices):
    CALL = "call", "A phone call"
    TEXT = "text", "A text message"
    NONE = "none", "No reminder"


class PhoneReminderChoice(models.Model):
    """How the care recipient hears of a visit the evening before, on her own phone (the family's
    choice on /care-circle; without a row: none)."""

    recipient = models.OneToOneField("circles.CareRecipient", on_delete=models.CASCADE, related_name="+")
    by = models.CharField(max_length=8, choices=ReminderBy.choices, default=ReminderBy.NONE)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"reminders of recipient {self.recipient_id} by {self.by}"


class ReminderCall(models.Model):
    """The evening-before reminder of one visit: its tries, and how it ended."""

    booking = models.OneToOneField("bookings.Booking", on_delete=models.CASCADE, related_name="+")
    by = models.CharField(max_length=8, choices=ReminderBy.choices)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_try_at = models.DateTimeField(null=True, blank=True)
    # "confirmed", "talk" (asked for Kindly), "answered", "no_answer" (two tries), "texted".
    outcome = models.CharField(max_length=16, blank=True)
    sids = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"reminder of booking {self.booking_id}"
