from django.contrib import admin

from requests_app.models import ServiceCategory, ServiceRequest


@admin.register(ServiceCategory)
class ServiceCategoryAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "icon", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")


@admin.register(ServiceRequest)
class ServiceRequestAdmin(admin.ModelAdmin):
    list_display = (
        "title",
        "client",
        "category",
        "urgency",
        "status",
        "preferred_date",
        "preferred_time",
        "created_at",
    )
    list_filter = ("status", "urgency", "category", "preferred_time", "created_at")
    search_fields = ("title", "description", "location", "client__email", "client__first_name", "client__last_name")
    list_select_related = ("client", "category")
    autocomplete_fields = ("client",)
    date_hierarchy = "created_at"
    readonly_fields = ("created_at", "updated_at")
