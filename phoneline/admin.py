from django.contrib import admin

from phoneline.models import PhoneContact, StaffVoicemail


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


@admin.register(StaffVoicemail)
class StaffVoicemailAdmin(admin.ModelAdmin):
    """Messages callers left for staff on the phone menu; staff mark them handled."""

    list_display = ("created_at", "recipient", "seconds", "handled_at")
    list_filter = ("handled_at",)
    readonly_fields = ("call_sid", "recipient", "recording_url", "seconds", "transcription", "created_at")
    fields = (*readonly_fields, "handled_at")

    def has_add_permission(self, request):
        return False
