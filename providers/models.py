from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q


class VerificationStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    VERIFIED = "verified", "Verified"
    REJECTED = "rejected", "Rejected"


class Specialty(models.TextChoices):
    """The six services; their ids are the provider specialty ids of spec section 9."""

    TECH_SUPPORT = "tech-support", "Technology Support"
    WELLNESS_CHECKS = "wellness-checks", "Wellness Checks"
    LIGHT_ERRANDS = "light-errands", "Light Errands"
    APPOINTMENT_SUPPORT = "appointment-support", "Appointment Support"
    HOME_ORGANIZATION = "home-organization", "Home Organization"
    COMMUNICATION_SUPPORT = "communication-support", "Communication Support"


class Provider(models.Model):
    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="provider")
    phone = models.CharField(max_length=40, blank=True)
    specialties = models.JSONField(default=list, blank=True)
    hourly_rate = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    availability = models.JSONField(default=dict, blank=True)
    service_area = models.CharField(max_length=255, blank=True)
    bio = models.TextField(blank=True)
    experience = models.TextField(blank=True)
    verification_status = models.CharField(
        max_length=16, choices=VerificationStatus.choices, default=VerificationStatus.PENDING
    )
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
        ]
        indexes = [models.Index(fields=["verification_status", "is_active"], name="provider_status_idx")]

    def __str__(self) -> str:
        return f"{self.user} ({self.verification_status})"

    @property
    def is_verified(self) -> bool:
        return self.verification_status == VerificationStatus.VERIFIED
