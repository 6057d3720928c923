"""Shapes of /api/admin/* that belong to the admin panel: the lists' queries and the count cards."""

from __future__ import annotations

from rest_framework import serializers

from bookings.models import BookingStatus
from core.fields import StrictCharField
from providers.models import VerificationStatus
from requests_app.models import RequestStatus


class AdminListQuerySerializer(serializers.Serializer):
    """?search= of an admin list (what it covers: adminpanel.selectors)."""

    search = StrictCharField(label="Search", required=False, allow_blank=True, max_length=200)


class AdminProviderQuerySerializer(AdminListQuerySerializer):
    status = serializers.ChoiceField(choices=VerificationStatus.choices, required=False, allow_blank=True)


class AdminBookingQuerySerializer(AdminListQuerySerializer):
    status = serializers.ChoiceField(choices=BookingStatus.choices, required=False, allow_blank=True)
    date = serializers.DateField(required=False, help_text="The visit's date (YYYY-MM-DD).")


class AdminServiceRequestQuerySerializer(AdminListQuerySerializer):
    status = serializers.ChoiceField(choices=RequestStatus.choices, required=False, allow_blank=True)


class ProviderCountsSerializer(serializers.Serializer):
    pending = serializers.IntegerField()
    verified = serializers.IntegerField()
    rejected = serializers.IntegerField()
    total = serializers.IntegerField()


class BookingCountsSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    confirmed = serializers.IntegerField()
    cancelled = serializers.IntegerField()


class ServiceRequestCountsSerializer(serializers.Serializer):
    total = serializers.IntegerField()
    open = serializers.IntegerField()
    completed = serializers.IntegerField()


class AdminSummarySerializer(serializers.Serializer):
    """The count cards of /admin (GET /api/admin/summary, and the page's first props)."""

    providers = ProviderCountsSerializer()
    bookings = BookingCountsSerializer()
    serviceRequests = ServiceRequestCountsSerializer()


class VerifiedShareSerializer(serializers.Serializer):
    """One helper's check-ins of the last 90 days: how many at the home (bookings.selectors)."""

    providerId = serializers.IntegerField()  # noqa: N815
    name = serializers.CharField()
    visits = serializers.IntegerField(help_text="Checked-in visits in the last 90 days.")
    verified = serializers.IntegerField(help_text="Checked in at the home.")
    unverified = serializers.IntegerField(help_text="Checked in elsewhere, with the helper's reason.")
    share = serializers.FloatField(allow_null=True, help_text="Verified of those compared; null: none.")
