"""Shapes of /api/admin/* that belong to the admin panel: the lists' queries and the count cards."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from bookings.models import BookingStatus
from core.fields import StrictCharField
from providers.models import VerificationStatus
from requests_app.models import RequestStatus


class AdminListQuerySerializer(serializers.Serializer):
    """?search= of an admin list (what it covers: adminpanel.selectors)."""

    search = StrictCharField(label=gettext_lazy("Search"), required=False, allow_blank=True, max_length=200)


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


class MarketAreaSerializer(serializers.Serializer):
    """Unfilled requests of one area: the first three digits of their ZIP code."""

    zipPrefix = serializers.CharField(source="zip_prefix", help_text='"627"; "" when no ZIP was given.')  # noqa: N815
    place = serializers.CharField(help_text="The area's most frequent town and state among them.")
    unfilled = serializers.IntegerField()


class MarketPeriodSerializer(serializers.Serializer):
    """The market over the last `days` days (adminpanel.selectors.market_summary)."""

    days = serializers.IntegerField()
    posted = serializers.IntegerField(help_text="Requests posted in the period (not those deleted by their family).")
    judged = serializers.IntegerField(help_text="Of those, the ones whose first day is over.")
    filled = serializers.IntegerField(help_text="Of those judged, the ones a helper accepted within their first day.")
    fillRate = serializers.FloatField(  # noqa: N815
        source="fill_rate", allow_null=True, help_text="filled / judged, 0 to 1; null: none judged yet."
    )
    accepted = serializers.IntegerField(help_text="Requests of the period a helper accepted (at any time).")
    medianMinutesToAccept = serializers.FloatField(  # noqa: N815
        source="median_minutes_to_accept", allow_null=True, help_text="From posting to accept; null: none accepted."
    )
    replacementsNeeded = serializers.IntegerField(  # noqa: N815
        source="replacements_needed", help_text="Booked helpers who cancelled, were removed or suspended."
    )
    replacementsFound = serializers.IntegerField(  # noqa: N815
        source="replacements_found", help_text="Of those, the visits a new helper took."
    )
    unfilledByArea = MarketAreaSerializer(source="unfilled_by_area", many=True)  # noqa: N815


class MarketDaySerializer(serializers.Serializer):
    date = serializers.DateField(help_text="The day the requests were posted (the site's date).")
    posted = serializers.IntegerField()
    filled = serializers.IntegerField(help_text="Of them, accepted within their first day.")


class MarketSerializer(serializers.Serializer):
    """/admin's Market tab (GET /api/admin/market): is each request filled, and how fast."""

    fillWithinHours = serializers.IntegerField(source="fill_within_hours")  # noqa: N815
    periods = MarketPeriodSerializer(many=True)
    daily = MarketDaySerializer(many=True)


class LateFeeDisputeRowSerializer(serializers.Serializer):
    """A late fee a family disputed, waiting for staff (GET /api/admin/late-fee-disputes): the
    visit, the family's reason, the helper, the amount and since when it waits. Paying it releases
    the amount to the helper; waiving it refunds the same amount to the family's card."""

    bookingId = serializers.IntegerField(source="booking_id", read_only=True)  # noqa: N815
    title = serializers.CharField(source="booking.service_request.title", read_only=True)
    scheduledDate = serializers.DateField(source="booking.scheduled_date", read_only=True)  # noqa: N815
    scheduledTime = serializers.CharField(source="booking.scheduled_time", read_only=True)  # noqa: N815
    timeZone = serializers.CharField(source="booking.recipient.time_zone", read_only=True)  # noqa: N815
    recipientName = serializers.CharField(source="booking.recipient.full_name", read_only=True)  # noqa: N815
    familyName = serializers.CharField(  # noqa: N815
        source="booking.client.full_name", read_only=True, help_text="The organizer who booked the visit."
    )
    helperName = serializers.CharField(source="booking.provider.user.full_name", read_only=True)  # noqa: N815
    amount = serializers.DecimalField(max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True)
    disputeReason = serializers.CharField(source="dispute_reason", read_only=True)  # noqa: N815
    disputedAt = serializers.DateTimeField(source="disputed_at", read_only=True)  # noqa: N815
