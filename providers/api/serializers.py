"""Provider shapes in the spec's camelCase: public (no email/phone), own and admin (full)."""

from __future__ import annotations

from rest_framework import serializers

from accounts.api.serializers import PublicUserSerializer, UserSummarySerializer
from bookings.models import Review
from marketplace.api import StrictSerializer, as_dollars
from marketplace.validators import PHONE_TOO_SHORT, phone_problem
from providers.models import Provider, Specialty, VerificationStatus
from providers.selectors import SORTS
from requests_app.api.fields import StrictCharField, StrictNumberField, check_step

_PUBLIC_FIELDS = [
    "id",
    "userId",
    "specialties",
    "hourlyRate",
    "availability",
    "serviceArea",
    "bio",
    "experience",
    "verificationStatus",
    "isActive",
    "rating",
    "totalReviews",
    "createdAt",
    "updatedAt",
    "user",
]


class PublicProviderSerializer(serializers.ModelSerializer):
    userId = serializers.CharField(source="user_id", read_only=True)
    specialties = serializers.ListField(child=serializers.CharField(), read_only=True)
    hourlyRate = serializers.DecimalField(
        source="hourly_rate", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    availability = serializers.JSONField(read_only=True)
    serviceArea = serializers.CharField(source="service_area", read_only=True)
    verificationStatus = serializers.CharField(source="verification_status", read_only=True)
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    rating = serializers.DecimalField(max_digits=3, decimal_places=2, coerce_to_string=False, read_only=True)
    totalReviews = serializers.IntegerField(source="total_reviews", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    user = PublicUserSerializer(read_only=True)

    class Meta:
        model = Provider
        fields = _PUBLIC_FIELDS


class ProviderSerializer(PublicProviderSerializer):
    """Own profile and admin view: adds phone and the user's email."""

    user = UserSummarySerializer(read_only=True)

    class Meta(PublicProviderSerializer.Meta):
        fields = [*_PUBLIC_FIELDS, "phone"]


class ProviderApplicationSerializer(StrictSerializer):
    """POST /api/provider/profile, with the spec's messages (section 5); other limits in plain words."""

    phone = StrictCharField(
        label="Phone number",
        max_length=40,
        error_messages={
            "blank": PHONE_TOO_SHORT,
            "required": PHONE_TOO_SHORT,
            "null": PHONE_TOO_SHORT,
        },
    )
    specialties = serializers.ListField(
        child=serializers.ChoiceField(choices=Specialty.choices),
        allow_empty=False,
        max_length=len(Specialty.choices),
        error_messages={
            "empty": "Please select at least one specialty",
            "required": "Please select at least one specialty",
            "null": "Please select at least one specialty",
            "max_length": f"Choose at most {len(Specialty.choices)} services.",
        },
    )
    hourlyRate = StrictNumberField(
        label="Hourly rate",
        source="hourly_rate",
        min_value=15,
        max_value=100,
        limit_format=as_dollars,
        error_messages={
            "required": "Please enter your hourly rate",
            "null": "Please enter your hourly rate",
            "min_value": "Hourly rate must be between $15 and $100",
            "max_value": "Hourly rate must be between $15 and $100",
        },
    )
    serviceArea = StrictCharField(
        label="Service area",
        source="service_area",
        max_length=255,
        error_messages={
            "required": "Please enter your service area",
            "blank": "Please enter your service area",
            "null": "Please enter your service area",
        },
    )
    bio = StrictCharField(
        label="Bio",
        min_length=50,
        max_length=5000,
        error_messages={
            "required": "Please provide a detailed bio (at least 50 characters)",
            "blank": "Please provide a detailed bio (at least 50 characters)",
            "null": "Please provide a detailed bio (at least 50 characters)",
            "min_length": "Please provide a detailed bio (at least 50 characters)",
        },
    )
    experience = StrictCharField(
        label="Experience",
        min_length=20,
        max_length=5000,
        error_messages={
            "required": "Please describe your experience",
            "blank": "Please describe your experience",
            "null": "Please describe your experience",
            "min_length": "Please describe your experience",
        },
    )

    def validate_phone(self, value: str) -> str:
        # The service owns the rule (digits, not letters); checked here too to show it with the rest.
        problem = phone_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value

    def validate_hourlyRate(self, value):
        check_step(value, 5, "Hourly rate must be a multiple of $5")
        return value


class ProviderStatusSerializer(StrictSerializer):
    """PUT /api/admin/providers/{id}/status."""

    status = serializers.ChoiceField(
        choices=[VerificationStatus.VERIFIED, VerificationStatus.REJECTED],
        error_messages={"invalid_choice": "Status must be verified or rejected."},
    )
    reason = StrictCharField(label="Reason", required=False, allow_blank=True, max_length=2000)


class ProviderListQuerySerializer(serializers.Serializer):
    """Query of GET /api/providers."""

    verified = serializers.ChoiceField(choices=["true", "false"], required=False)
    search = StrictCharField(label="Search", required=False, allow_blank=True, max_length=200)
    specialty = serializers.ChoiceField(choices=Specialty.choices, required=False, allow_blank=True)
    sort = serializers.ChoiceField(choices=list(SORTS), required=False, allow_blank=True)


class ReviewSerializer(serializers.ModelSerializer):
    bookingId = serializers.IntegerField(source="booking_id", read_only=True)
    reviewerId = serializers.CharField(source="reviewer_id", read_only=True)
    reviewedId = serializers.CharField(source="reviewed_id", read_only=True)
    isPublic = serializers.BooleanField(source="is_public", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    reviewer = PublicUserSerializer(read_only=True)

    class Meta:
        model = Review
        fields = [
            "id",
            "bookingId",
            "reviewerId",
            "reviewedId",
            "rating",
            "comment",
            "isPublic",
            "createdAt",
            "reviewer",
        ]
        read_only_fields = fields
