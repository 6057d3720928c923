from django import forms
from django.contrib import admin
from django.db import transaction

from providers import services
from providers.models import Provider, TimeOff, WeeklyHours


class ProviderAdminForm(forms.ModelForm):
    """The application's rules (providers.services.provider_application_problems): all of them for
    a new provider; for a change, those of the fields it changes."""

    class Meta:
        model = Provider
        fields = "__all__"  # noqa: DJ007 - the admin shows every field; readonly ones are left out by it

    def clean(self):
        cleaned = super().clean()
        creating = self.instance.pk is None
        values = {name: cleaned.get(name) for name in services.API_FIELD_NAMES}
        errors = services.provider_application_problems(**values)
        for name, api_name in services.API_FIELD_NAMES.items():
            checked = name in cleaned and (creating or name in self.changed_data)
            for message in errors.get(api_name, []) if checked else []:
                self.add_error(name, message)
        return cleaned


@admin.register(Provider)
class ProviderAdmin(admin.ModelAdmin):
    form = ProviderAdminForm
    list_display = (
        "user",
        "verification_status",
        "service_area",
        "home_zip",
        "travel_miles",
        "place_status",
        "hourly_rate",
        "rating",
        "total_reviews",
        "is_active",
        "created_at",
    )
    # place_status "Could not be placed": a home ZIP the geocoder could not find (core.geocoding).
    list_filter = ("verification_status", "is_active", "place_status", "created_at")
    search_fields = ("user__email", "user__first_name", "user__last_name", "service_area", "home_zip", "bio")
    list_select_related = ("user",)
    autocomplete_fields = ("user",)
    # Approval goes through providers.services.provider_set_status (the evidence rule of
    # vetting.selectors.approval_problem), audited: adminpanel.admin's action, never an edited status.
    readonly_fields = (
        "verification_status",
        "identity_verified_at",
        "background_checked_at",
        "rating",
        "total_reviews",
        "latitude",
        "longitude",
        "place_status",
        "created_at",
        "updated_at",
    )

    def save_model(self, request, obj, form, change):
        """A home ZIP changed here is placed again after the save, as on her profile page."""
        with transaction.atomic():
            if "home_zip" in form.changed_data:
                services.provider_home_moved(obj)
            super().save_model(request, obj, form, change)


class WeeklyHoursAdminForm(forms.ModelForm):
    """A window changed here keeps the provider's booked visits inside her week, as /schedule does
    (providers.services.hours_visits_problem)."""

    class Meta:
        model = WeeklyHours
        fields = ("provider", "weekday", "start_time", "end_time")

    def clean(self):
        cleaned = super().clean()
        provider = cleaned.get("provider")
        if provider is None or None in (cleaned.get("weekday"), cleaned.get("start_time"), cleaned.get("end_time")):
            return cleaned
        others = WeeklyHours.objects.filter(provider=provider).exclude(pk=self.instance.pk)
        week = [{"weekday": w.weekday, "start_time": w.start_time, "end_time": w.end_time} for w in others]
        week.append({name: cleaned[name] for name in ("weekday", "start_time", "end_time")})
        problem = services.hours_visits_problem(provider, week)
        if problem:
            raise forms.ValidationError(problem)
        return cleaned


class TimeOffAdminForm(forms.ModelForm):
    """Time off added here never drops a booked visit, as /schedule (providers.services.time_off_visits_problem)."""

    class Meta:
        model = TimeOff
        fields = ("provider", "first_day", "last_day", "note")

    def clean(self):
        cleaned = super().clean()
        provider, first, last = cleaned.get("provider"), cleaned.get("first_day"), cleaned.get("last_day")
        if provider is None or first is None or last is None:
            return cleaned
        problem = services.time_off_visits_problem(provider, first_day=first, last_day=last)
        if problem:
            raise forms.ValidationError(problem)
        return cleaned


@admin.register(WeeklyHours)
class WeeklyHoursAdmin(admin.ModelAdmin):
    """A provider's weekly hours; the provider edits them on /schedule (providers.services checks the rules)."""

    form = WeeklyHoursAdminForm
    list_display = ("provider", "weekday", "start_time", "end_time")
    list_filter = ("weekday",)
    search_fields = ("provider__user__email",)
    raw_id_fields = ("provider",)


@admin.register(TimeOff)
class TimeOffAdmin(admin.ModelAdmin):
    form = TimeOffAdminForm
    list_display = ("provider", "first_day", "last_day", "note")
    search_fields = ("provider__user__email", "note")
    raw_id_fields = ("provider",)
