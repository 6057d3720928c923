from __future__ import annotations

import datetime as dt
import zoneinfo
from decimal import Decimal

from django.conf import settings
from django.db import models
from django.db.models import Q

from core.wellbeing import Wellbeing
from requests_app.models import WINDOW_START, TimeWindow, window_length

# Money is kept to the cent (total_amount's two decimal places).
CENT = Decimal("0.01")


class BookingStatus(models.TextChoices):
    SCHEDULED = "scheduled", "Scheduled"
    CONFIRMED = "confirmed", "Confirmed"
    COMPLETED = "completed", "Completed"
    CANCELLED = "cancelled", "Cancelled"
    # Its helper left (cancelled, was removed by staff, or was suspended) and Kindly is offering the
    # visit to others (bookings.services.replacement): no helper holds it meanwhile (no address, no
    # check-in, her time is free); it goes back to scheduled or confirmed (by its payment) when one
    # takes it, or ends cancelled.
    REPLACING = "replacing", "Finding a replacement"


class PaymentStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    PAID = "paid", "Paid"
    FAILED = "failed", "Failed"
    REFUNDED = "refunded", "Refunded"


class RefundStatus(models.TextChoices):
    """The full refund of a paid booking that was cancelled (bookings.services "refunds", payments.refunds).

    none: nothing to refund; pending: asked for, the gateway's answer (or its webhook) not in yet;
    succeeded: the money went back (paymentStatus refunded); failed: the gateway refused or could
    not be reached; the booking stays cancelled and paid until an admin retries (retry_refunds).
    """

    NONE = "none", "None"
    PENDING = "pending", "Pending"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


class Booking(models.Model):
    service_request = models.ForeignKey(
        "requests_app.ServiceRequest", on_delete=models.PROTECT, related_name="bookings"
    )
    provider = models.ForeignKey("providers.Provider", on_delete=models.PROTECT, related_name="bookings")
    client = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="client_bookings")
    # The request's recipient, copied at accept: every member of their circle sees the booking.
    recipient = models.ForeignKey("circles.CareRecipient", on_delete=models.PROTECT, related_name="bookings")
    scheduled_date = models.DateField()
    scheduled_time = models.CharField(max_length=16, choices=TimeWindow.choices)
    # The arrival time the helper confirmed when she accepted, inside the family's window, on the
    # clock of the person cared for ("Vera will arrive at 2:00 PM"): the visit starts then (its
    # check-in opening, its late and missed alerts, the calendar feed). Null: the window's start.
    arrival_time = models.TimeField(null=True, blank=True)
    duration = models.PositiveIntegerField(default=60, help_text="minutes")
    total_amount = models.DecimalField(max_digits=8, decimal_places=2, default=0)
    status = models.CharField(max_length=16, choices=BookingStatus.choices, default=BookingStatus.SCHEDULED)
    payment_status = models.CharField(max_length=16, choices=PaymentStatus.choices, default=PaymentStatus.PENDING)
    payment_intent_id = models.CharField(max_length=255, blank=True)
    refund_status = models.CharField(max_length=16, choices=RefundStatus.choices, default=RefundStatus.NONE)
    notes = models.TextField(blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancellation_reason = models.TextField(blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The visit's place in its request's series (1, 2, ...), null for a one-off visit.
    series_index = models.PositiveSmallIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # 0 while the visit is ahead (scheduled, confirmed), 1 once it is over. The lists order by it
    # (active first); a stored column instead of a CASE in ORDER BY, which Django re-resolves and
    # re-compiles on every query of the dashboard's most frequent call.
    active_rank = models.GeneratedField(
        expression=models.Case(
            models.When(
                status__in=[BookingStatus.SCHEDULED, BookingStatus.CONFIRMED, BookingStatus.REPLACING],
                then=models.Value(0),
            ),
            default=models.Value(1),
        ),
        output_field=models.SmallIntegerField(),
        db_persist=True,
        editable=False,
    )

    # When the visit runs (visit_start, plus its duration), stored for the rule that a provider
    # holds no two visits at once: on PostgreSQL the exclusion constraint NO_OVERLAP (migration
    # 0004) over [starts_at, ends_at) of the provider's scheduled and confirmed bookings; the
    # services check it first for a clear 409 (bookings.services.check_provider_free). Set by save()
    # (and fill_visit_times() before a bulk_create); a QuerySet.update() of the date must set them too.
    starts_at = models.DateTimeField(editable=False)
    ends_at = models.DateTimeField(editable=False)

    # The visit as it happened: times recorded by the server when the provider checks in
    # and out; where, only with the provider's consent, rounded to 3 decimals (about 100 m) and
    # cleared 90 days later (bookings.services.visit_locations_purge).
    checked_in_at = models.DateTimeField(null=True, blank=True)
    checked_out_at = models.DateTimeField(null=True, blank=True)
    check_in_latitude = models.DecimalField(max_digits=6, decimal_places=3, null=True, blank=True)
    check_in_longitude = models.DecimalField(max_digits=6, decimal_places=3, null=True, blank=True)
    check_out_latitude = models.DecimalField(max_digits=6, decimal_places=3, null=True, blank=True)
    check_out_longitude = models.DecimalField(max_digits=6, decimal_places=3, null=True, blank=True)
    # Whether each position was at the home of the person cared for (bookings.visit_place): true
    # inside the radius, false outside or without a usable position (the helper's reason is kept),
    # null when the home has no coordinates to compare with. Never blocks a check-in or check-out.
    check_in_verified = models.BooleanField(null=True, blank=True)
    check_in_reason = models.CharField(max_length=200, blank=True)
    check_out_verified = models.BooleanField(null=True, blank=True)
    check_out_reason = models.CharField(max_length=200, blank=True)

    NO_OVERLAP = "booking_provider_no_overlap"

    class Meta:
        ordering = ["scheduled_date", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(total_amount__gte=0), name="booking_total_amount_gte_0"),
            models.UniqueConstraint(
                fields=["service_request", "series_index"],
                condition=Q(series_index__isnull=False),
                name="one_booking_per_series_index",
            ),
        ]
        indexes = [
            models.Index(fields=["client", "status"], name="booking_client_status_idx"),
            models.Index(fields=["recipient", "status"], name="booking_recipient_status_idx"),
            models.Index(fields=["provider", "status"], name="booking_provider_status_idx"),
            # The visits holding a helper's time over some hours (providers.ports.busy_prefetch: the
            # pool of a round of offers, the browse page's next free window), for many helpers at once.
            models.Index(
                fields=["provider", "starts_at", "ends_at"],
                condition=Q(status__in=["scheduled", "confirmed"]),
                name="booking_provider_busy_idx",
            ),
            models.Index(fields=["status"], name="booking_status_idx"),
            # The day's visits (provider's and admins' "Today", the late-visit alerts).
            models.Index(fields=["starts_at"], name="booking_starts_at_idx"),
            models.Index(fields=["payment_intent_id"], name="booking_payment_intent_idx"),
        ]

    def __str__(self) -> str:
        return f"Booking #{self.pk}"

    def save(self, *args, **kwargs) -> None:
        self.fill_visit_times()
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and {"scheduled_date", "scheduled_time", "arrival_time", "duration"} & set(
            update_fields
        ):
            kwargs["update_fields"] = {*update_fields, "starts_at", "ends_at"}
        super().save(*args, **kwargs)

    @property
    def time_zone(self) -> zoneinfo.ZoneInfo:
        """The zone of the person cared for: the window the family was told is their clock."""
        return self.recipient.zone

    @property
    def visit_start(self) -> dt.datetime:
        """When the visit starts: the date plus the arrival time the helper confirmed (else the start
        of its time window), in the recipient's zone."""
        start = self.arrival_time or WINDOW_START.get(self.scheduled_time, WINDOW_START[TimeWindow.FLEXIBLE])
        return dt.datetime.combine(self.scheduled_date, start, tzinfo=self.time_zone)

    @property
    def window_starts_at(self) -> dt.datetime:
        """The start of the window the family was told, in the recipient's zone."""
        start = WINDOW_START.get(self.scheduled_time, WINDOW_START[TimeWindow.FLEXIBLE])
        return dt.datetime.combine(self.scheduled_date, start, tzinfo=self.time_zone)

    def fill_visit_times(self) -> None:
        """starts_at and ends_at from the date, window and duration (save() calls it; bulk_create does not)."""
        self.starts_at = self.visit_start
        self.ends_at = self.starts_at + dt.timedelta(minutes=self.duration)

    # What the family was told is the window ("Afternoon (12PM - 5PM)"); a visit inside it is on time.
    # No alarm while the helper can still arrive and finish inside it: "late" once the latest start
    # that fits has passed (window end minus the duration, never before 15 minutes after the start),
    # "missed" once the window is over. With a confirmed arrival time the family was told that time:
    # late 15 minutes after it.
    @property
    def window_ends_at(self) -> dt.datetime:
        return self.window_starts_at + window_length(self.scheduled_time)

    @property
    def check_in_by(self) -> dt.datetime:
        """The latest start the family was promised: the arrival time plus 15 minutes when she
        confirmed one, else the latest start that still fits the window. Late after it."""
        if self.arrival_time is not None:
            return self.starts_at + LATE_AFTER
        return max(self.window_ends_at - dt.timedelta(minutes=self.duration), self.starts_at + LATE_AFTER)

    @property
    def check_out_due(self) -> dt.datetime:
        """When a checked-in visit should be over: its duration after the check-in (or the start)."""
        began = max(self.checked_in_at or self.starts_at, self.starts_at)
        return began + dt.timedelta(minutes=self.duration)


class Review(models.Model):
    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="reviews")
    reviewer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews_given")
    reviewed = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reviews_received")
    rating = models.PositiveSmallIntegerField()
    comment = models.TextField(blank=True)
    is_public = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=Q(rating__gte=1) & Q(rating__lte=5), name="review_rating_1_5"),
            models.UniqueConstraint(fields=["booking", "reviewer"], name="one_review_per_booking_reviewer"),
        ]
        indexes = [models.Index(fields=["reviewed", "is_public"], name="review_reviewed_idx")]

    def __str__(self) -> str:
        return f"{self.rating}★ for {self.reviewed}"


class CalendarFeed(models.Model):
    """A user's private iCalendar feed of their visits: /calendar/<token>.ics, which calendar apps
    subscribe to without signing in. Anyone with the address can read it, so the user can reset
    the token (the old address stops working at once)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="calendar_feed"
    )
    token = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Calendar feed of {self.user_id}"


# The visit's timings: check-in opens 30 minutes before the start; the helper is reminded an hour
# before she would be late (Booking.check_in_by), the circle is alerted when she is; no check-out 2
# hours after the visit should be over raises a second alert; the report can be corrected for 24
# hours; positions are kept 90 days.
CHECK_IN_FROM = dt.timedelta(minutes=30)
LATE_AFTER = dt.timedelta(minutes=15)
REMIND_BEFORE_LATE = dt.timedelta(hours=1)
NO_CHECK_OUT_AFTER = dt.timedelta(hours=2)
REPORT_EDIT_WINDOW = dt.timedelta(hours=24)
LOCATION_KEPT = dt.timedelta(days=90)


class VisitReport(models.Model):
    """What the provider reports at check-out, for the circle. The provider may
    correct it for 24 hours after check-out; each correction keeps the previous text in
    VisitReportEdit."""

    booking = models.OneToOneField(Booking, on_delete=models.CASCADE, primary_key=True, related_name="report")
    # What was done: items of the request category's checklist (ServiceCategory.features), plus free text.
    tasks_done = models.JSONField(default=list, blank=True)
    notes = models.TextField(blank=True)
    wellbeing = models.PositiveSmallIntegerField(choices=Wellbeing.choices)
    for_family = models.TextField(blank=True, help_text="Anything the family should know.")
    follow_up_suggested = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(wellbeing__gte=1) & Q(wellbeing__lte=5), name="visit_report_wellbeing_1_5"
            ),
        ]

    def __str__(self) -> str:
        return f"Report of booking #{self.booking_id}"


class VisitReportEdit(models.Model):
    """One correction of a visit report: what it said before."""

    report = models.ForeignKey(VisitReport, on_delete=models.CASCADE, related_name="edits")
    edited_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+")
    edited_at = models.DateTimeField(auto_now_add=True)
    before = models.JSONField()

    class Meta:
        ordering = ["edited_at", "id"]

    def __str__(self) -> str:
        return f"Edit of the report of booking #{self.report_id}"


class VisitAlertKind(models.TextChoices):
    CHECK_IN_SOON = "check_in_soon", "The helper reminded an hour before she would be late"
    LATE = "late", "No check-in by the latest start that fits the window"
    NO_CHECK_OUT = "no_check_out", "Missed (no check-in by the window's end) or no check-out 2 hours after"


class VisitAlert(models.Model):
    """An alert raised about a visit, once per booking and kind (the beat job's idempotency)."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="alerts")
    kind = models.CharField(max_length=16, choices=VisitAlertKind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [models.UniqueConstraint(fields=["booking", "kind"], name="one_visit_alert_per_kind")]

    def __str__(self) -> str:
        return f"{self.kind} alert of booking #{self.booking_id}"


class VisitTaskOutcome(models.Model):
    """One item of the family's task list (ServiceRequest.tasks), as the helper marked it at
    check-out: done, or not done with a short reason. The task's words are copied, so the record
    stays true if the request's list is ever changed."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="task_outcomes")
    position = models.PositiveSmallIntegerField()
    task = models.CharField(max_length=200)
    done = models.BooleanField()
    reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["booking", "position"]
        constraints = [models.UniqueConstraint(fields=["booking", "position"], name="one_outcome_per_visit_task")]

    def __str__(self) -> str:
        return f"{'Done' if self.done else 'Not done'}: {self.task}"


class ReplacementCause(models.TextChoices):
    HELPER_CANCELLED = "helper_cancelled", "The helper cancelled"
    STAFF_REMOVED = "staff_removed", "Staff removed the helper"
    SUSPENDED = "suspended", "The helper was suspended"


class ReplacementState(models.TextChoices):
    # Offered to the best helpers free then, round after round, until one takes it.
    SEEKING = "seeking", "Finding a replacement"
    # Its deadline passed with nobody: staff were alerted and the family offered a refund (offers go
    # on while they keep waiting, until the visit's start).
    UNFILLED = "unfilled", "No replacement yet"
    FOUND = "found", "Replacement confirmed"
    # The booking was cancelled (the family took the refund, staff cancelled, the visit's time came).
    ENDED = "ended", "Ended without a replacement"


REPLACEMENT_OPEN = (ReplacementState.SEEKING, ReplacementState.UNFILLED)


class Replacement(models.Model):
    """One search for a new helper for a booking whose helper left (bookings.services.replacement).
    The booking keeps its id, tasks, series place, price and payment; only its provider changes."""

    booking = models.ForeignKey(Booking, on_delete=models.CASCADE, related_name="replacements")
    left_provider = models.ForeignKey("providers.Provider", on_delete=models.PROTECT, related_name="+")
    cause = models.CharField(max_length=20, choices=ReplacementCause.choices)
    reason = models.TextField(blank=True)
    state = models.CharField(max_length=12, choices=ReplacementState.choices, default=ReplacementState.SEEKING)
    # The status the booking goes back to when a helper takes it (its payment decides: paid = confirmed).
    started_at = models.DateTimeField()
    # Until when the search runs before staff are alerted and the family offered a refund.
    deadline = models.DateTimeField()
    round = models.PositiveSmallIntegerField(default=0)
    # When the current round of offers runs out (the next widens); null before the first.
    answer_by = models.DateTimeField(null=True, blank=True)
    # The family chose to keep waiting after the deadline (the refund question is not asked again).
    family_waits = models.BooleanField(default=False)
    found_provider = models.ForeignKey(
        "providers.Provider", on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    found_at = models.DateTimeField(null=True, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["booking"],
                condition=Q(state__in=["seeking", "unfilled"]),
                name="one_open_replacement_per_booking",
            )
        ]
        indexes = [
            models.Index(fields=["state", "answer_by"], name="replacement_due_idx"),
            models.Index(fields=["started_at"], name="replacement_started_idx"),
        ]

    def __str__(self) -> str:
        return f"Replacement for booking #{self.booking_id}"


class ReplacementOfferAnswer(models.TextChoices):
    WAITING = "", "Waiting for her answer"
    ACCEPTED = "accepted", "Accepted"
    CLOSED = "closed", "Closed before she answered"


class ReplacementOffer(models.Model):
    """A visit that needs a new helper, offered to one helper (ranked like a request's offers:
    requests_app.selectors.offer_score)."""

    replacement = models.ForeignKey(Replacement, on_delete=models.CASCADE, related_name="offers")
    provider = models.ForeignKey("providers.Provider", on_delete=models.CASCADE, related_name="+")
    round = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    miles = models.FloatField(null=True, blank=True)
    offered_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    answer = models.CharField(max_length=10, choices=ReplacementOfferAnswer.choices, blank=True, default="")

    class Meta:
        ordering = ["round", "rank"]
        constraints = [
            models.UniqueConstraint(fields=["replacement", "provider"], name="one_replacement_offer_per_helper")
        ]
        indexes = [models.Index(fields=["provider", "answer"], name="replacement_offer_helper_idx")]

    def __str__(self) -> str:
        return f"Replacement offer to provider #{self.provider_id}"


def visit_photo_storage():
    """Where visit photos are kept: settings.STORAGES["visit_photos"], a private location (a folder
    outside static and media under make run and tests, a private bucket through django-storages in
    production). Nothing there has a public URL: bookings.visit_photo serves each by a signed link."""
    from django.core.files.storage import storages

    return storages["visit_photos"]


class VisitPhoto(models.Model):
    """The one photo a helper may add to a visit at check-out (bookings.visit_photo), re-encoded
    without its metadata (a phone's photo carries where it was taken). Deleted, file and row, with
    the check-in points 90 days after the visit."""

    booking = models.OneToOneField(Booking, on_delete=models.CASCADE, related_name="visit_photo")
    file = models.FileField(storage=visit_photo_storage, max_length=200)
    content_type = models.CharField(max_length=32)
    size = models.PositiveIntegerField(help_text="bytes, as stored")
    uploaded_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Photo of visit #{self.booking_id}"
