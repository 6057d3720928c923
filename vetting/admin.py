"""The Django admin shows the checks read-only: results come from Stripe and Checkr, decisions
through the vetting queue on /admin (vetting.services), approval through providers.services
(vetting.selectors.approval_problem's rule)."""

from django.contrib import admin

from vetting.models import Adjudication, AdverseActionStep, BackgroundCheck, IdentityCheck, SeenEvent


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(IdentityCheck)
class IdentityCheckAdmin(ReadOnlyAdmin):
    list_display = ("provider", "status", "verified_first_name", "verified_last_name", "started_at", "completed_at")
    list_filter = ("status",)
    search_fields = ("provider__user__email", "session_id")


@admin.register(BackgroundCheck)
class BackgroundCheckAdmin(ReadOnlyAdmin):
    list_display = ("provider", "kind", "status", "package", "started_at", "completed_at")
    list_filter = ("status", "kind")
    search_fields = ("provider__user__email", "candidate_id", "report_id")


@admin.register(Adjudication)
class AdjudicationAdmin(ReadOnlyAdmin):
    list_display = ("check_record", "outcome", "decided_by", "decided_at")


@admin.register(AdverseActionStep)
class AdverseActionStepAdmin(ReadOnlyAdmin):
    list_display = ("adjudication", "step", "recorded_by", "recorded_at")


@admin.register(SeenEvent)
class SeenEventAdmin(ReadOnlyAdmin):
    list_display = ("source", "event_id", "event_type", "outcome", "received_at")
    list_filter = ("source",)
