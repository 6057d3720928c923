from django.contrib import admin

from adminpanel.models import AuditLog


@admin.register(AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    """Read-only: the log is written by the admin services and never edited by hand."""

    list_display = ("created_at", "actor", "action", "target_type", "target_id", "reason")
    list_filter = ("action", "target_type", "created_at")
    search_fields = ("target_id", "reason", "actor__email", "actor__first_name", "actor__last_name")
    list_select_related = ("actor",)
    date_hierarchy = "created_at"
    readonly_fields = ("created_at", "actor", "action", "target_type", "target_id", "reason", "details")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
