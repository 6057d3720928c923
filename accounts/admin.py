from django import forms
from django.contrib import admin

from accounts.models import EmergencyContact, User
from core.validators import phone_problem


class EmergencyContactAdminForm(forms.ModelForm):
    """The services' phone rule (core.validators.phone_problem), for a new or changed number."""

    class Meta:
        model = EmergencyContact
        fields = "__all__"  # noqa: DJ007 - the admin shows every field

    def clean_phone(self) -> str:
        phone = self.cleaned_data["phone"]
        if self.instance.pk is None or "phone" in self.changed_data:
            problem = phone_problem(phone)
            if problem:
                raise forms.ValidationError(problem)
        return phone.strip()


class EmergencyContactInline(admin.TabularInline):
    model = EmergencyContact
    form = EmergencyContactAdminForm
    extra = 0


@admin.register(User)
class UserAdmin(admin.ModelAdmin):
    list_display = ("email", "first_name", "last_name", "user_type", "is_active", "closed_at", "created_at")
    list_filter = ("user_type", "is_active", "created_at", "closed_at")
    search_fields = ("email", "first_name", "last_name", "id")
    # Closing and purging go through the Settings page and purge_closed_accounts only.
    readonly_fields = ("id", "created_at", "updated_at", "last_login", "closed_at", "purged_at")
    exclude = ("password",)
    ordering = ("-created_at",)
    inlines = [EmergencyContactInline]


@admin.register(EmergencyContact)
class EmergencyContactAdmin(admin.ModelAdmin):
    form = EmergencyContactAdminForm
    list_display = ("name", "user", "relationship", "phone", "is_primary", "created_at")
    list_filter = ("is_primary",)
    search_fields = ("name", "phone", "email", "user__email")
    list_select_related = ("user",)
    autocomplete_fields = ("user",)
