from django.contrib import admin

from phoneline.models import PhoneContact


@admin.register(PhoneContact)
class PhoneContactAdmin(admin.ModelAdmin):
    """Calls and texts through the booking lines, read only: when, which way, how long (no numbers)."""

    list_display = ("at", "booking", "kind", "direction", "seconds", "outcome")
    list_filter = ("kind", "direction")
    fields = ("booking", "kind", "direction", "at", "seconds", "outcome")
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
