"""Care recipients and their care circles.

A care recipient is the person who receives the help (the senior). They need not have an
account; when they do, `account` points at it and they are a member of their own circle. The
circle is the recipient's members: organizers (post, edit and cancel requests, pay, invite and
remove members) and members (see everything booked for the recipient, message, get notified).
Requests and bookings belong to a recipient; everything a member sees is scoped through their
circles (circles.selectors).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from core.addresses import Address, area_line, full_line, parse_one_line
from core.geocoding import PlaceStatus
from core.languages import DEFAULT_LANGUAGE, Language

# An invitation's link works for 7 days.
INVITATION_MAX_AGE = dt.timedelta(days=7)


def site_time_zone() -> str:
    """A new care recipient lives in the site's zone until someone says otherwise."""
    return settings.SITE_TIME_ZONE


# How a zone is named to a person ("2:00 PM Eastern Time"), as the browser's Intl names it
# (timeZoneName "longGeneric"); any other zone by its city.
ZONE_NAMES = {
    "America/New_York": "Eastern Time",
    "America/Detroit": "Eastern Time",
    "America/Chicago": "Central Time",
    "America/Denver": "Mountain Time",
    "America/Phoenix": "Mountain Time",
    "America/Los_Angeles": "Pacific Time",
    "America/Anchorage": "Alaska Time",
    "Pacific/Honolulu": "Hawaii-Aleutian Time",
}


def zone_name(time_zone: str) -> str:
    if time_zone in ZONE_NAMES:
        return ZONE_NAMES[time_zone]
    if time_zone.startswith("Etc/") or time_zone == "UTC":
        # A zone with no name: its offset now, "GMT+3" (Etc/GMT-3 counts the POSIX way round).
        offset = dt.datetime.now(zoneinfo.ZoneInfo(time_zone)).utcoffset() or dt.timedelta(0)
        hours, rest = divmod(int(offset.total_seconds()), 3600)
        return f"GMT{hours:+d}" + (f":{rest // 60:02d}" if rest else "") if offset else "GMT"
    return time_zone.rsplit("/", 1)[-1].replace("_", " ") + " time"


def validate_time_zone(value: str) -> None:
    if value not in zoneinfo.available_timezones():
        raise ValidationError(gettext("Choose a time zone such as America/Chicago."))


# What of a recipient goes with the street line to the booked helper only (and to the circle).
RECIPIENT_PRIVATE = ("phone", "notes_for_helpers")
# Where the recipient lives, to the metre: shown to nobody (people see rounded distances).
RECIPIENT_PLACE = ("latitude", "longitude")


class CareRecipient(models.Model):
    first_name = models.CharField(max_length=150)
    last_name = models.CharField(max_length=150, blank=True)
    # The address in parts: the street line and unit go to the booked provider only, while the
    # booking is on (requests_app.selectors.address_shown_to); the town and ZIP may be shown before.
    street = models.CharField(max_length=255, blank=True)
    unit = models.CharField(max_length=40, blank=True)
    town = models.CharField(max_length=120, blank=True)
    state = models.CharField(max_length=40, blank=True)
    zip_code = models.CharField("ZIP", max_length=10, blank=True)
    # Where the address is, filled by the geocoder after the save (core.geocoding): helpers near
    # her are found from it. Never shown: people see rounded distances (core.geo.shown_miles).
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    place_status = models.CharField(
        max_length=16,
        choices=PlaceStatus.choices,
        default=PlaceStatus.NO_ADDRESS,
        db_default=PlaceStatus.NO_ADDRESS,
        blank=True,
    )
    phone = models.CharField(max_length=40, blank=True)
    notes_for_helpers = models.TextField(blank=True, help_text='For example "Hard of hearing, ring twice".')
    # Where the person cared for lives: every time of their visits (the window, check-in and out,
    # reports, emails, the calendar feed) is in this zone, whoever reads it.
    time_zone = models.CharField(
        max_length=64, default=site_time_zone, validators=[validate_time_zone], help_text="For example America/Chicago."
    )
    # The language she is most at ease in: what her helper is chosen to speak (offers prefer a
    # helper who speaks it) and what the phone speaks to her. The organizer sets it on /care-circle.
    language = models.CharField(
        max_length=8, choices=Language.choices, default=DEFAULT_LANGUAGE, db_default=DEFAULT_LANGUAGE
    )
    # The recipient's own account, when they have one (a senior who signed up for themself).
    account = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="care_recipient_self",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["first_name", "last_name", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(latitude__isnull=True, longitude__isnull=True)
                | Q(latitude__gte=-90, latitude__lte=90, longitude__gte=-180, longitude__lte=180),
                name="care_recipient_place_on_earth",
            ),
        ]
        indexes = [
            models.Index(fields=["latitude", "longitude"], name="care_recipient_place_idx"),
            models.Index(fields=["place_status"], name="care_recipient_status_idx"),
        ]

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}".strip()

    @property
    def zone(self) -> zoneinfo.ZoneInfo:
        return zoneinfo.ZoneInfo(self.time_zone or settings.SITE_TIME_ZONE)

    @property
    def zone_name(self) -> str:
        """ "Eastern Time": said beside a time wherever its reader's clock may differ."""
        return zone_name(self.time_zone or settings.SITE_TIME_ZONE)

    @property
    def address(self) -> str:
        """The whole address on one line (for those who may see it all)."""
        return full_line(self.street, self.unit, self.town, self.state, self.zip_code)

    @address.setter
    def address(self, text: str) -> None:
        # The one-line form still accepted (older API clients, fixtures): read into parts, best effort.
        for name, value in parse_one_line(text).as_dict().items():
            setattr(self, name, value)

    @property
    def address_parts(self) -> Address:
        """The address as the geocoder reads it (the one it placed, when it still matches)."""
        return Address(self.street, self.unit, self.town, self.state, self.zip_code)

    @property
    def area(self) -> str:
        """The town, state and ZIP only."""
        return area_line(self.town, self.state, self.zip_code)


class CircleRole(models.TextChoices):
    ORGANIZER = "organizer", "Organizer"
    MEMBER = "member", "Member"


class CircleMember(models.Model):
    recipient = models.ForeignKey(CareRecipient, on_delete=models.CASCADE, related_name="members")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="circle_memberships")
    role = models.CharField(max_length=16, choices=CircleRole.choices, default=CircleRole.MEMBER)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["recipient", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["recipient", "user"], name="one_membership_per_circle"),
        ]
        indexes = [models.Index(fields=["user", "role"], name="circle_member_user_role_idx")]

    def __str__(self) -> str:
        return f"{self.user_id} in the circle of {self.recipient_id} ({self.role})"


class InvitationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    ACCEPTED = "accepted", "Accepted"
    REVOKED = "revoked", "Revoked"


class CircleInvitation(models.Model):
    """An email invitation to join a circle: a signed link that expires after 7 days and works once.

    Expiry is not a stored state: a pending invitation older than INVITATION_MAX_AGE is expired.
    """

    recipient = models.ForeignKey(CareRecipient, on_delete=models.CASCADE, related_name="invitations")
    email = models.EmailField()
    role = models.CharField(max_length=16, choices=CircleRole.choices, default=CircleRole.MEMBER)
    # The invitation is for the recipient themself: accepting links their account to the
    # recipient (they then can never be removed from their own circle).
    for_recipient = models.BooleanField(default=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The language of the email when the address has no account yet ("": the inviter's); an
    # address with an account gets it in that account's language.
    language = models.CharField(max_length=8, choices=Language.choices, blank=True, default="")
    status = models.CharField(max_length=16, choices=InvitationStatus.choices, default=InvitationStatus.PENDING)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    responded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One pending invitation per address and circle (sending again replaces it).
            models.UniqueConstraint(
                fields=["recipient", "email"],
                condition=Q(status="pending"),
                name="one_pending_invitation_per_email",
            ),
        ]

    def __str__(self) -> str:
        return f"Invitation of {self.email} to the circle of {self.recipient_id}"

    @property
    def expires_at(self) -> dt.datetime:
        return self.created_at + INVITATION_MAX_AGE

    @property
    def expired(self) -> bool:
        return self.status == InvitationStatus.PENDING and self.expires_at <= timezone.now()
