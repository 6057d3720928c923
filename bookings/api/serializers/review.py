"""Reviews (the one a family writes, as its writer and the profile read it, as anyone reads it)
and a helper's public profile with her newest public reviews."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from accounts.api.serializers import PublicUserSerializer
from bookings.models import Review
from core.api import StrictSerializer
from core.fields import StrictCharField, StrictIntegerField
from core.languages import speaks_line
from providers.api.serializers import TrackRecordFields
from providers.models import Provider, VerificationStatus
from requests_app.api.serializers import last_initial


class ReviewCreateSerializer(StrictSerializer):
    """POST /api/bookings/{id}/review."""

    rating = StrictIntegerField(
        label=gettext_lazy("Rating"),
        min_value=1,
        max_value=5,
        error_messages={
            "min_value": gettext_lazy("Rating must be from 1 to 5."),
            "max_value": gettext_lazy("Rating must be from 1 to 5."),
            "required": gettext_lazy("Please choose a rating from 1 to 5."),
            "null": gettext_lazy("Please choose a rating from 1 to 5."),
        },
    )
    comment = StrictCharField(label=gettext_lazy("Comment"), required=False, allow_blank=True, max_length=2000)


class ReviewSerializer(serializers.ModelSerializer):
    """A review as the provider's profile and its writer see it."""

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


class PublicReviewerSerializer(serializers.Serializer):
    """Who wrote a public review: first name and last initial ("Linda M."), never an id, email or
    photo: a public review must not lead anyone to the family."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.SerializerMethodField()

    def get_lastName(self, obj) -> str:
        return last_initial(obj.last_name)


class PublicReviewSerializer(serializers.ModelSerializer):
    """A review as anyone sees it (a provider's public reviews, the landing page): the rating, the
    words, when, the service and the reviewer as first name + last initial; no booking, reviewer or
    reviewed id."""

    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    serviceName = serializers.CharField(
        source="booking.service_request.category.display_name", read_only=True, allow_null=True, default=None
    )
    reviewer = PublicReviewerSerializer(read_only=True)

    class Meta:
        model = Review
        fields = ["id", "rating", "comment", "createdAt", "serviceName", "reviewer"]
        read_only_fields = fields


class ProviderProfileSerializer(TrackRecordFields, serializers.ModelSerializer):
    """GET /api/providers/{id}/profile and the /providers/{id} page: what a family sees of a helper.
    Her photo (or initial) and name, services, the area she names (never where she lives), rate,
    the dates of her identity and background checks (null: not checked yet), rating, her
    completed visits, how quickly she answers and how many of her last visits she completed (her
    card's words: TrackRecordFields), and newest public reviews."""

    specialties = serializers.ListField(child=serializers.CharField(), read_only=True)
    languages = serializers.ListField(child=serializers.CharField(), read_only=True)
    speaks = serializers.SerializerMethodField(help_text='"Speaks English, Spanish", in the reader\'s language.')
    hourlyRate = serializers.DecimalField(
        source="hourly_rate", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    serviceArea = serializers.CharField(source="service_area", read_only=True)
    verificationStatus = serializers.ChoiceField(
        VerificationStatus.choices, source="verification_status", read_only=True
    )
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    identityVerifiedAt = serializers.DateTimeField(source="identity_verified_at", read_only=True, allow_null=True)
    backgroundCheckedAt = serializers.DateTimeField(source="background_checked_at", read_only=True, allow_null=True)
    rating = serializers.DecimalField(max_digits=3, decimal_places=2, coerce_to_string=False, read_only=True)
    totalReviews = serializers.IntegerField(source="total_reviews", read_only=True)
    visitsCompleted = serializers.IntegerField(source="visits_completed", read_only=True)
    memberSince = serializers.DateTimeField(source="created_at", read_only=True)
    user = PublicUserSerializer(read_only=True)
    reviews = PublicReviewSerializer(source="profile_reviews", many=True, read_only=True)

    class Meta:
        model = Provider
        fields = [
            "id",
            "user",
            "specialties",
            "languages",
            "speaks",
            "hourlyRate",
            "serviceArea",
            "bio",
            "experience",
            "verificationStatus",
            "isActive",
            "identityVerifiedAt",
            "backgroundCheckedAt",
            "rating",
            "totalReviews",
            "visitsCompleted",
            "answerMinutes",
            "completion",
            "memberSince",
            "reviews",
        ]
        read_only_fields = fields

    def get_speaks(self, provider: Provider) -> str:
        return speaks_line(provider.languages or [])
