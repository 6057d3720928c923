from django import forms
from django.contrib import admin

from core.addresses import FULL, STAFF_SEES, STREET_PARTS
from requests_app import services
from requests_app.models import Offer, ServiceCategory, ServiceRequest
from requests_app.selectors import address_shown_to


@admin.register(ServiceCategory)
class ServiceCategoryAdmin(admin.ModelAdmin):
    list_display = ("name", "slug", "icon", "is_active")
    list_filter = ("is_active",)
    search_fields = ("name", "slug", "description")


class ServiceRequestAdminForm(forms.ModelForm):
    """The service's rules (requests_app.services.service_request_problems): a new request follows
    create's rules; a change is held to the edit rules for the fields it changes, and the series'
    (repeat, its end, the first date) as a whole when any of them changes."""

    class Meta:
        model = ServiceRequest
        fields = "__all__"  # noqa: DJ007 - the admin shows every field; readonly ones are left out by it

    def clean_tasks(self):
        """An empty box is no task list (the field is kept as a list, tidied like the API's)."""
        return services.clean_tasks(self.cleaned_data.get("tasks") or [])

    def clean(self):
        cleaned = super().clean()
        creating = self.instance.pk is None
        names = [
            name for name in services.API_FIELD_NAMES if name in cleaned and (creating or name in self.changed_data)
        ]
        errors = services.service_request_problems({name: cleaned[name] for name in names}, creating=creating)
        if set(services.SERIES_FIELDS) & set(self.changed_data):
            # A repeat is checked whole: changing its end alone may make 27 visits.
            errors.update(services.series_problems({name: cleaned.get(name) for name in services.SERIES_FIELDS}))
        model_names = {api: model for model, api in services.API_FIELD_NAMES.items()}
        for api_name, messages in errors.items():
            for message in messages:
                self.add_error(model_names[api_name], message)
        return cleaned


@admin.register(ServiceRequest)
class ServiceRequestAdmin(admin.ModelAdmin):
    form = ServiceRequestAdminForm
    list_display = (
        "title",
        "client",
        "category",
        "town",
        "zip_code",
        "urgency",
        "status",
        "preferred_date",
        "preferred_time",
        "created_at",
    )
    # "Offered by town": its place is unknown, so it went to every helper of the service (offers).
    list_filter = ("status", "offered_by_town", "offered_to", "urgency", "category", "preferred_time", "created_at")
    # Staff find a request by its town or ZIP, never by a street they would then see matched.
    search_fields = (
        "title",
        "description",
        "town",
        "zip_code",
        "client__email",
        "client__first_name",
        "client__last_name",
    )
    list_select_related = ("client", "category")
    autocomplete_fields = ("client",)
    raw_id_fields = ("recipient",)
    date_hierarchy = "created_at"
    readonly_fields = ("offered_to", "offer_round", "offers_answer_by", "offered_by_town", "created_at", "updated_at")

    def get_exclude(self, request, obj=None):
        # The rule the API and /admin follow (address_shown_to): staff see the town, state and ZIP,
        # never the street line.
        shown = address_shown_to(obj, request.user) if obj is not None else STAFF_SEES
        hidden = () if shown == FULL else STREET_PARTS
        return (*(super().get_exclude(request, obj) or ()), *hidden)


@admin.register(Offer)
class OfferAdmin(admin.ModelAdmin):
    """Who was offered which request, when, how far, and how she answered (read only: offers are
    made and answered by requests_app.services)."""

    list_display = ("service_request", "provider", "round", "rank", "miles", "offered_at", "answered_at", "answer")
    list_filter = ("answer", "round")
    list_select_related = ("service_request", "provider__user")
    raw_id_fields = ("service_request", "provider")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
