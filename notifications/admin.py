"""Deliveries in the Django admin: failed ones are what staff look for (filter by status)."""

from django.contrib import admin

from notifications.models import Contact, Delivery, Event, Preference, TextOptOut


@admin.register(Delivery)
class DeliveryAdmin(admin.ModelAdmin):
    list_display = ["id", "event_kind", "recipient", "channel", "status", "attempts", "last_error_short", "updated_at"]
    list_filter = ["status", "channel", "event__kind"]
    search_fields = ["recipient__email", "event__key"]
    list_select_related = ["event", "recipient"]
    readonly_fields = [f.name for f in Delivery._meta.fields]

    @admin.display(description="kind", ordering="event__kind")
    def event_kind(self, obj: Delivery) -> str:
        return obj.event.kind

    @admin.display(description="last error")
    def last_error_short(self, obj: Delivery) -> str:
        return obj.last_error[:80]

    def has_add_permission(self, request) -> bool:
        return False


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["key", "kind", "booking", "created_at"]
    list_filter = ["kind"]
    search_fields = ["key"]
    readonly_fields = ["key", "kind", "booking", "text", "context", "created_at"]


@admin.register(Preference)
class PreferenceAdmin(admin.ModelAdmin):
    list_display = ["user", "kind", "channel", "enabled", "updated_at"]
    list_filter = ["kind", "channel", "enabled"]


@admin.register(Contact)
class ContactAdmin(admin.ModelAdmin):
    list_display = ["user", "phone", "phone_opted_out_at", "new_requests"]


@admin.register(TextOptOut)
class TextOptOutAdmin(admin.ModelAdmin):
    """Numbers that answered STOP (a care recipient's own phone too): read-only; START lifts it."""

    list_display = ["phone", "opted_out_at"]
    search_fields = ["phone"]
    readonly_fields = ["phone", "opted_out_at"]

    def has_add_permission(self, request) -> bool:
        return False
