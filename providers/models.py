from __future__ import annotations

import datetime as dt
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Case, F, Q, Value, When
from django.db.models.functions import Cos
from django.utils.translation import gettext_lazy as _

from core.addresses import Address
from core.geo import EARTH_RADIUS_MILES, unit_vector_columns
from core.geocoding import PlaceStatus


class VerificationStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    VERIFIED = "verified", _("Verified")
    REJECTED = "rejected", _("Rejected")


class Specialty(models.TextChoices):
    """The six services; their ids are the provider specialty ids of spec section 9."""

    TECH_SUPPORT = "tech-support", "Technology Support"
    WELLNESS_CHECKS = "wellness-checks", "Wellness Checks"
    LIGHT_ERRANDS = "light-errands", "Light Errands"
    APPOINTMENT_SUPPORT = "appointment-support", "Appointment Support"
    HOME_ORGANIZATION = "home-organization", "Home Organization"
    COMMUNICATION_SUPPORT = "communication-support", "Communication Support"


# Checks are re-done every 12 months (vetting.tasks.check_renewals asks ahead).
CHECKS_VALID_DAYS = 365

# How far a helper travels from home, in miles (providers.services owns the rule and its words).
TRAVEL_MILES_MIN = 1
TRAVEL_MILES_MAX = 100
TRAVEL_MILES_DEFAULT = 10
# Bands of travel distance, (first, last) miles: browse and offers read each band's helpers in a box
# of its largest distance around the place (providers.selectors.within_reach), on Provider.travel_band.
TRAVEL_BANDS = ((1, 5), (6, 10), (11, 20), (21, 40), (41, 70), (71, 100))


# Her home on the unit sphere, as the database works it out (core.geo.unit_vector_columns).
_UNIT = unit_vector_columns()


def default_languages() -> list[str]:
    return ["en"]


class Provider(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider")
    phone = models.CharField(max_length=40, blank=True)
    specialties = models.JSONField(default=list, blank=True)
    hourly_rate = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    availability = models.JSONField(default=dict, blank=True)
    service_area = models.CharField(max_length=255, blank=True)
    # Her home base: a US ZIP code only (Kindly never asks a helper for her street), placed at the
    # ZIP's centre by the geocoder after the save (core.geocoding), and how far she will travel.
    # Database defaults too: rows written by code that predates these columns (a rolling deploy,
    # older migrations' data steps) still insert.
    home_zip = models.CharField("home ZIP", max_length=10, blank=True, default="", db_default="")
    travel_miles = models.PositiveSmallIntegerField(default=TRAVEL_MILES_DEFAULT, db_default=TRAVEL_MILES_DEFAULT)
    latitude = models.FloatField(null=True, blank=True)
    longitude = models.FloatField(null=True, blank=True)
    place_status = models.CharField(
        max_length=16,
        choices=PlaceStatus.choices,
        default=PlaceStatus.NO_ADDRESS,
        db_default=PlaceStatus.NO_ADDRESS,
        blank=True,
    )
    # Kept by the database from the columns above (nobody writes them): her home as a point on the
    # unit sphere, and the closeness of a place at her travel distance (core.geo.closeness). Browse
    # and offers ask "does her travel cover this place?" as one dot product against these, a few
    # multiplications a row (providers.selectors.within_reach). Empty while she is not placed.
    place_x = models.GeneratedField(expression=_UNIT["x"], output_field=models.FloatField(), db_persist=True)
    place_y = models.GeneratedField(expression=_UNIT["y"], output_field=models.FloatField(), db_persist=True)
    place_z = models.GeneratedField(expression=_UNIT["z"], output_field=models.FloatField(), db_persist=True)
    # Her band of TRAVEL_BANDS (1 to 6): the index reads each band's helpers in its own box.
    travel_band = models.GeneratedField(
        expression=Case(
            *(When(travel_miles__lte=last, then=Value(band)) for band, (_first, last) in enumerate(TRAVEL_BANDS, 1)),
            default=Value(len(TRAVEL_BANDS)),
        ),
        output_field=models.PositiveSmallIntegerField(),
        db_persist=True,
    )
    reach_closeness = models.GeneratedField(
        expression=Cos(F("travel_miles") / Value(EARTH_RADIUS_MILES, output_field=models.FloatField())),
        output_field=models.FloatField(),
        db_persist=True,
    )
    bio = models.TextField(blank=True)
    # The languages she speaks, codes of core.languages.SPOKEN in her order (["en", "es"]): shown as
    # "Speaks English, Spanish", filtered on by browse (?language=es), preferred by offers.
    languages = models.JSONField(default=default_languages, db_default=["en"], blank=True)
    experience = models.TextField(blank=True)
    verification_status = models.CharField(
        max_length=16, choices=VerificationStatus.choices, default=VerificationStatus.PENDING
    )
    # The dates of the evidence behind "verified" (set by the vetting checks, shown to families as
    # "ID verified <month year>" and "Background checked <month year>"): empty until a check says so.
    identity_verified_at = models.DateTimeField(null=True, blank=True)
    background_checked_at = models.DateTimeField(null=True, blank=True)
    # When her checks expire (12 months after the last clear check; providers approved before checks
    # existed got a grace period): past it she is hidden from browse and new requests until renewed.
    # Empty: nothing due (an applicant not yet approved).
    checks_due_by = models.DateTimeField(null=True, blank=True, db_index=True)
    is_active = models.BooleanField(default=True)
    rating = models.DecimalField(max_digits=3, decimal_places=2, default=Decimal("0"))
    total_reviews = models.IntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-rating", "-total_reviews", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(hourly_rate__isnull=True) | Q(hourly_rate__gte=0), name="provider_hourly_rate_gte_0"
            ),
            models.CheckConstraint(condition=Q(rating__gte=0) & Q(rating__lte=5), name="provider_rating_0_5"),
            models.CheckConstraint(condition=Q(total_reviews__gte=0), name="provider_total_reviews_gte_0"),
            models.CheckConstraint(
                condition=Q(travel_miles__gte=TRAVEL_MILES_MIN) & Q(travel_miles__lte=TRAVEL_MILES_MAX),
                name="provider_travel_miles_1_100",
            ),
            models.CheckConstraint(
                condition=Q(latitude__isnull=True, longitude__isnull=True)
                | Q(latitude__gte=-90, latitude__lte=90, longitude__gte=-180, longitude__lte=180),
                name="provider_place_on_earth",
            ),
        ]
        indexes = [
            models.Index(fields=["verification_status", "is_active"], name="provider_status_idx"),
            # Browse by distance (providers.selectors.within_reach): the public helpers whose travel
            # is in a band, inside that band's box around the care recipient.
            models.Index(
                fields=["verification_status", "is_active", "travel_band", "latitude", "longitude"],
                name="provider_reach_idx",
            ),
            models.Index(fields=["place_status"], name="provider_place_status_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.verification_status})"

    @property
    def is_verified(self) -> bool:
        return self.verification_status == VerificationStatus.VERIFIED

    @property
    def home_address(self) -> Address:
        """Her home base as the geocoder reads it: the ZIP code alone."""
        return Address(zip_code=self.home_zip)


# The visit windows of a service request (requests_app.models.TimeWindow and WINDOW_START, which sit
# above this app): when each starts and ends, in the site's time zone. A booked visit starts at its
# window's start ("flexible" counts as 8 AM, like the morning).
VISIT_WINDOWS: dict[str, tuple[dt.time, dt.time]] = {
    "morning": (dt.time(8, 0), dt.time(12, 0)),
    "afternoon": (dt.time(12, 0), dt.time(17, 0)),
    "evening": (dt.time(17, 0), dt.time(20, 0)),
}

WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]


class WeeklyHours(models.Model):
    """One window of a provider's regular week: on `weekday` (0 Monday .. 6 Sunday) from `start_time`
    to `end_time`, site time. Several per day, never overlapping (providers.services owns the rules).
    A provider with none at all is available any time (providers.selectors.is_available)."""

    provider = models.ForeignKey(Provider, on_delete=models.CASCADE, related_name="weekly_hours")
    weekday = models.PositiveSmallIntegerField()
    start_time = models.TimeField()
    end_time = models.TimeField()

    class Meta:
        # "hours" is already plural: Django's default would add an s ("weekly hourss").
        verbose_name = "weekly hours"
        verbose_name_plural = "weekly hours"
        ordering = ["weekday", "start_time", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(weekday__gte=0) & Q(weekday__lte=6), name="weekly_hours_weekday_0_6"),
            models.CheckConstraint(
                condition=Q(end_time__gt=models.F("start_time")), name="weekly_hours_end_after_start"
            ),
        ]
        indexes = [models.Index(fields=["provider", "weekday"], name="weekly_hours_provider_day_idx")]

    def __str__(self) -> str:
        return f"{WEEKDAYS[self.weekday]} {self.start_time:%H:%M}-{self.end_time:%H:%M}"


class TimeOff(models.Model):
    """Days a provider does not work, first_day to last_day inclusive (no overlap with another of theirs)."""

    provider = models.ForeignKey(Provider, on_delete=models.CASCADE, related_name="time_off")
    first_day = models.DateField()
    last_day = models.DateField()
    note = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "time off"
        verbose_name_plural = "time off"
        ordering = ["first_day", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(last_day__gte=models.F("first_day")), name="time_off_last_gte_first"),
        ]
        indexes = [models.Index(fields=["provider", "last_day"], name="time_off_provider_last_idx")]

    def __str__(self) -> str:
        return f"{self.first_day} to {self.last_day}"
