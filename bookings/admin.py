import datetime as dt

from django import forms
from django.contrib import admin
from django.utils import timezone

from bookings.models import (
    Booking,
    BookingStatus,
    CalendarFeed,
    Replacement,
    ReplacementOffer,
    Review,
    VisitAlert,
    VisitPhoto,
    VisitReport,
    VisitReportEdit,
    VisitTaskOutcome,
)
from bookings.selectors import provider_visit_problems
from providers.selectors import BUSY, OUTSIDE_HOURS, TIME_OFF, provider_offers

# The words of a booked visit's helper or time changed here, as the admin dashboard's reassign says them.
ADMIN_VISIT_PROBLEMS = {
    TIME_OFF: "This provider is on time off that day.",
    OUTSIDE_HOURS: "This visit is outside this provider's available hours.",
    BUSY: "This provider already has a visit at that time.",
}


class BookingAdminForm(forms.ModelForm):
    """A scheduled or confirmed visit whose helper or time is changed here obeys the reassign's
    rules (bookings.services.booking_reassign): a service she offers, a time she can make."""

    class Meta:
        model = Booking
        fields = "__all__"  # noqa: DJ007 - the admin shows every field; readonly ones are left out by it

    def clean(self):
        cleaned = super().clean()
        moved = {"provider", "scheduled_date", "scheduled_time", "duration"} & set(self.changed_data)
        status = cleaned.get("status")
        provider, request = cleaned.get("provider"), cleaned.get("service_request")
        if not moved or status not in (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED) or not provider:
            return cleaned
        if request is not None and not provider_offers(provider, request.category.slug):
            raise forms.ValidationError(f"This provider does not offer {request.category.name}.")
        visit = Booking(
            scheduled_date=cleaned.get("scheduled_date"),
            scheduled_time=cleaned.get("scheduled_time") or "",
            duration=cleaned.get("duration") or 0,
            # The visit's window is on the clock of the person cared for.
            recipient_id=self.instance.recipient_id or (request.recipient_id if request is not None else None),
        )
        if visit.scheduled_date is None or not visit.duration:
            return cleaned
        start = visit.visit_start
        exclude = [self.instance.pk] if self.instance.pk else []
        [problem] = provider_visit_problems(
            provider, [(start, start + dt.timedelta(minutes=visit.duration))], exclude_booking_ids=exclude
        )
        if problem:
            raise forms.ValidationError(ADMIN_VISIT_PROBLEMS[problem])
        return cleaned


@admin.register(Booking)
class BookingAdmin(admin.ModelAdmin):
    form = BookingAdminForm
    list_display = (
        "id",
        "service_request",
        "client",
        "provider",
        "scheduled_date",
        "scheduled_time",
        "status",
        "payment_status",
        "total_amount",
    )
    list_filter = ("status", "payment_status", "scheduled_date")
    search_fields = ("id", "client__email", "provider__user__email", "service_request__title", "payment_intent_id")
    list_select_related = ("client", "provider__user", "service_request")
    raw_id_fields = ("service_request", "provider", "client", "recipient", "cancelled_by")
    date_hierarchy = "scheduled_date"
    readonly_fields = ("created_at", "updated_at", "cancelled_at")


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ("booking", "reviewer", "reviewed", "rating", "is_public", "created_at")
    list_filter = ("rating", "is_public")
    search_fields = ("comment", "reviewer__email", "reviewed__email")
    list_select_related = ("reviewer", "reviewed", "booking")
    raw_id_fields = ("booking", "reviewer", "reviewed")


@admin.register(CalendarFeed)
class CalendarFeedAdmin(admin.ModelAdmin):
    """Who has a calendar feed; the token (the feed's secret address) is never shown. A user
    resets it from /calendar; deleting the row here turns the address off."""

    list_display = ("user", "created_at", "updated_at")
    search_fields = ("user__email",)
    fields = ("user", "created_at", "updated_at")
    readonly_fields = fields

    def has_add_permission(self, request) -> bool:
        return False


def visit_moment(moment: dt.datetime | None, booking: Booking) -> str:
    """A moment of a visit (its report written or corrected) on the clock of the person cared for,
    her zone named: staff read it from anywhere, as the family does, "Thu, Nov 19, 2026, 1:35 PM
    Central Time"."""
    if moment is None:
        return "-"
    local = timezone.localtime(moment, booking.time_zone)
    clock = f"{local:%I:%M %p}".lstrip("0")
    return f"{local:%a, %b} {local.day}, {local.year}, {clock} {booking.recipient.zone_name}"


class VisitReportEditInline(admin.TabularInline):
    model = VisitReportEdit
    extra = 0
    can_delete = False
    fields = ("corrected", "edited_by", "before")
    readonly_fields = fields

    @admin.display(description="Edited at", ordering="edited_at")
    def corrected(self, edit: VisitReportEdit) -> str:
        return visit_moment(edit.edited_at, edit.report.booking)


@admin.register(VisitReport)
class VisitReportAdmin(admin.ModelAdmin):
    """Read only: the provider writes a report (bookings.services.visit_report_save keeps the 24-hour
    window and the history of corrections), staff read it."""

    list_display = ("booking", "wellbeing", "follow_up_suggested", "written", "corrected")
    list_filter = ("wellbeing", "follow_up_suggested")
    search_fields = ("booking__id", "booking__provider__user__email", "notes", "for_family")
    list_select_related = ("booking__recipient",)
    raw_id_fields = ("booking",)
    readonly_fields = ("written", "corrected")
    inlines = [VisitReportEditInline]

    @admin.display(description="Written at", ordering="created_at")
    def written(self, report: VisitReport) -> str:
        return visit_moment(report.created_at, report.booking)

    @admin.display(description="Updated at", ordering="updated_at")
    def corrected(self, report: VisitReport) -> str:
        return visit_moment(report.updated_at, report.booking)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(VisitTaskOutcome)
class VisitTaskOutcomeAdmin(admin.ModelAdmin):
    """Read only: the helper marks each task at check-out (bookings.services.visit_record)."""

    list_display = ("booking", "position", "task", "done", "reason")
    list_filter = ("done",)
    search_fields = ("booking__id", "task")
    raw_id_fields = ("booking",)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(VisitReportEdit)
class VisitReportEditAdmin(admin.ModelAdmin):
    list_display = ("report", "edited_by", "corrected")
    list_select_related = ("report__booking__recipient", "edited_by")
    raw_id_fields = ("report", "edited_by")
    readonly_fields = ("corrected",)

    @admin.display(description="Edited at", ordering="edited_at")
    def corrected(self, edit: VisitReportEdit) -> str:
        return visit_moment(edit.edited_at, edit.report.booking)

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False


@admin.register(VisitAlert)
class VisitAlertAdmin(admin.ModelAdmin):
    list_display = ("booking", "kind", "created_at")
    list_filter = ("kind",)
    raw_id_fields = ("booking",)


class _ReadOnly(admin.ModelAdmin):
    """Written by the services only (bookings.services.replacement, bookings.visit_photo): staff read."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Replacement)
class ReplacementAdmin(_ReadOnly):
    """A search for a new helper (staff act on it from /admin: reassign or cancel)."""

    list_display = ("booking", "cause", "state", "started_at", "deadline", "found_provider")
    list_filter = ("state", "cause")
    raw_id_fields = ("booking", "left_provider", "found_provider")


@admin.register(ReplacementOffer)
class ReplacementOfferAdmin(_ReadOnly):
    list_display = ("replacement", "provider", "round", "rank", "answer", "offered_at")
    list_filter = ("answer",)
    raw_id_fields = ("replacement", "provider")


@admin.register(VisitPhoto)
class VisitPhotoAdmin(_ReadOnly):
    """The photo's record only: the file has no URL, and the circle reads it through a signed link."""

    list_display = ("booking", "content_type", "size", "created_at")
    exclude = ("file",)
    raw_id_fields = ("booking", "uploaded_by")
