from django.contrib import admin

from providers.models import Provider


@admin.register(Provider)
class ProviderAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "verification_status",
        "service_area",
        "hourly_rate",
        "rating",
        "total_reviews",
        "is_active",
        "created_at",
    )
    list_filter = ("verification_status", "is_active", "created_at")
    search_fields = ("user__email", "user__first_name", "user__last_name", "service_area", "bio")
    list_select_related = ("user",)
    autocomplete_fields = ("user",)
    readonly_fields = ("rating", "total_reviews", "created_at", "updated_at")
