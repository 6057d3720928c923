from django.contrib import admin

from bookings.models import Booking, CalendarFeed, Review


@admin.register(Booking)
class BookingAdmin(admin.ModelAdmin):
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
