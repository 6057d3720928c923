from django.contrib import admin, messages

from adminpanel.models import AuditLog
from adminpanel.services import admin_provider_set_status
from core.errors import DomainError
from providers.admin import ProviderAdmin
from providers.models import Provider, VerificationStatus


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


class ProviderApprovalAdmin(ProviderAdmin):
    """The providers' admin with approval: through admin_provider_set_status, so the evidence rule
    (vetting.selectors.approval_problem, asked by providers.services.provider_set_status) and the audit log apply
    as on /admin."""

    actions = ("approve_selected",)

    @admin.action(description="Approve the selected providers (only with a verified ID and a clear check)")
    def approve_selected(self, request, queryset):
        for provider in queryset.select_related("user"):
            try:
                admin_provider_set_status(
                    provider_id=provider.pk, actor=request.user, status=VerificationStatus.VERIFIED
                )
            except DomainError as exc:
                self.message_user(request, f"{provider.user}: {exc.message}", level=messages.ERROR)
            else:
                self.message_user(request, f"{provider.user}: approved.", level=messages.SUCCESS)


admin.site.unregister(Provider)
admin.site.register(Provider, ProviderApprovalAdmin)
