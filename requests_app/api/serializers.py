"""Service request and category shapes in the spec's camelCase, and the create/edit inputs (spec section 5)."""

from __future__ import annotations

import datetime as dt
from functools import cached_property

from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import UserSummarySerializer
from accounts.models import User
from circles.models import CareRecipient, CircleRole
from core.api import StrictSerializer, as_minutes
from core.fields import (
    DateOrDateTimeField,
    MoneyField,
    StrictCharField,
    StrictIntegerField,
)
from core.geo import shown_miles
from providers.models import Provider
from providers.selectors import user_is_vetted_provider
from requests_app import services
from requests_app.models import (
    Repeat,
    RequestStatus,
    ServiceCategory,
    ServiceRequest,
    TimeWindow,
    Urgency,
    arrival_choices,
)
from requests_app.selectors import (
    ADDRESS_FULL,
    address_line_for,
    address_shown_to,
    care_details_shown_to,
    category_get_active,
    circle_role_of,
    client_fully_named_to,
    direct_window_next_end,
    recipient_contacts,
    viewer_in_circle,
)
from requests_app.series import request_visit_dates


class ServiceCategorySerializer(serializers.ModelSerializer):
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    features = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = ServiceCategory
        fields = ["id", "slug", "name", "description", "icon", "features", "isActive"]
        read_only_fields = fields


class CategorySummarySerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="display_name", read_only=True)

    class Meta:
        model = ServiceCategory
        fields = ["id", "slug", "name", "icon"]
        read_only_fields = fields


def last_initial(last_name: str) -> str:
    """ "Smith" -> "S."; "" stays ""."""
    name = str(last_name).strip()
    return f"{name[0].upper()}." if name else ""


class ClientInitialSerializer(serializers.ModelSerializer):
    """The client of an open request as a verified provider sees them before booking: first name
    and last initial; no email, no photo."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.SerializerMethodField()

    class Meta:
        model = User
        fields = ["id", "firstName", "lastName"]
        read_only_fields = fields

    def get_lastName(self, obj: User) -> str:
        return last_initial(obj.last_name)


class RecipientSummarySerializer(serializers.ModelSerializer):
    """Whom a request or booking is for: everyone who may see the item sees this much
    (requests_app.selectors.RECIPIENT_SUMMARY_FIELDS)."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.CharField(source="last_name", read_only=True)
    # Every time of their visits is shown on this clock (IANA name, e.g. "America/Chicago").
    timeZone = serializers.CharField(source="time_zone", read_only=True)

    class Meta:
        model = CareRecipient
        fields = ["id", "firstName", "lastName", "timeZone"]
        read_only_fields = fields


class CareContactSerializer(serializers.Serializer):
    """One organizer of the circle, as the booked provider sees them: a name to ask for (they
    reach the circle through the booking's messages; never an email or a phone)."""

    firstName = serializers.CharField(source="user__first_name", read_only=True)
    lastName = serializers.CharField(source="user__last_name", read_only=True)


class RecipientCareDetailsSerializer(serializers.ModelSerializer):
    """The recipient as the provider booked on their visit sees them: where to go, what helps, and
    whom in the circle to contact. Only in one request's or one booking's detail, once booked, to
    that provider (never before, never in lists). Never a phone number: she calls or texts through
    the booking's Kindly line (phoneline), which keeps both numbers private."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.CharField(source="last_name", read_only=True)
    address = serializers.CharField(read_only=True)
    notesForHelpers = serializers.CharField(source="notes_for_helpers", read_only=True)
    contacts = serializers.SerializerMethodField()

    class Meta:
        model = CareRecipient
        fields = ["id", "firstName", "lastName", "address", "notesForHelpers", "contacts"]
        read_only_fields = fields

    @extend_schema_field(CareContactSerializer(many=True))
    def get_contacts(self, obj: CareRecipient) -> list[dict]:
        return CareContactSerializer(recipient_contacts(recipient_id=obj.pk), many=True).data


class RequestedProviderSerializer(serializers.ModelSerializer):
    """The provider a request was sent to: everyone who sees the request sees their name."""

    firstName = serializers.CharField(source="user.first_name", read_only=True)
    lastName = serializers.CharField(source="user.last_name", read_only=True)

    class Meta:
        model = Provider
        fields = ["id", "firstName", "lastName"]
        read_only_fields = fields


def care_details_for(recipient_id: int) -> dict:
    """RecipientCareDetailsSerializer's data for one recipient (read fresh: lists load names only)."""
    return RecipientCareDetailsSerializer(CareRecipient.objects.get(pk=recipient_id)).data


class RequestAddressSerializer(serializers.Serializer):
    """Where the visit is, in parts; the street line and unit only for those who may see it all
    (requests_app.selectors.address_shown_to), null for the rest."""

    street = serializers.CharField(read_only=True, allow_null=True)
    unit = serializers.CharField(read_only=True, allow_null=True)
    town = serializers.CharField(read_only=True)
    state = serializers.CharField(read_only=True)
    zipCode = serializers.CharField(read_only=True)


def address_parts_for(place, shown: str | None) -> dict | None:
    """RequestAddressSerializer's data for a request as address_shown_to allows (None: nothing)."""
    if shown is None:
        return None
    full = shown == ADDRESS_FULL
    return {
        "street": place.street if full else None,
        "unit": place.unit if full else None,
        "town": place.town,
        "state": place.state,
        "zipCode": place.zip_code,
    }


class ArrivalChoiceSerializer(serializers.Serializer):
    value = serializers.CharField(help_text='"14:00"')
    label = serializers.CharField(help_text='"2:00 PM"')


class ServiceRequestSerializer(serializers.ModelSerializer):
    """Needs context["request"]; the viewer decides how much of the address (in full, the town and
    ZIP, nothing), the special requirements and the client's full name and email show
    (requests_app.selectors.address_shown_to)."""

    clientId = serializers.CharField(source="client_id", read_only=True)
    categoryId = serializers.IntegerField(source="category_id", read_only=True, allow_null=True)
    preferredDate = serializers.DateField(source="preferred_date", read_only=True, allow_null=True)
    preferredTime = serializers.ChoiceField(
        TimeWindow.choices, source="preferred_time", allow_blank=True, read_only=True
    )
    location = serializers.SerializerMethodField()
    address = serializers.SerializerMethodField()
    specialRequirements = serializers.SerializerMethodField()
    tasks = serializers.ListField(child=serializers.CharField(), read_only=True)
    estimatedDuration = serializers.IntegerField(source="estimated_duration", read_only=True)
    maxBudget = serializers.DecimalField(
        source="max_budget", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    client = serializers.SerializerMethodField()
    serviceCategory = CategorySummarySerializer(source="category", read_only=True, allow_null=True)
    bookingId = serializers.IntegerField(source="booking_id", read_only=True, allow_null=True, default=None)
    recipient = RecipientSummarySerializer(read_only=True)
    circleRole = serializers.SerializerMethodField()
    bookedWithYou = serializers.SerializerMethodField()
    careDetails = serializers.SerializerMethodField()
    repeat = serializers.ChoiceField(Repeat.choices, allow_blank=True, read_only=True)
    repeatCount = serializers.IntegerField(source="repeat_count", read_only=True, allow_null=True)
    repeatUntil = serializers.DateField(source="repeat_until", read_only=True, allow_null=True)
    visitDates = serializers.SerializerMethodField()
    requestedProvider = RequestedProviderSerializer(source="requested_provider", read_only=True, allow_null=True)
    directUntil = serializers.DateTimeField(source="direct_until", read_only=True, allow_null=True)
    onlyRequestedProvider = serializers.BooleanField(source="only_requested_provider", read_only=True)
    declinedAt = serializers.DateTimeField(source="declined_at", read_only=True, allow_null=True)
    declineReason = serializers.SerializerMethodField()
    askedYou = serializers.SerializerMethodField()
    distanceMiles = serializers.SerializerMethodField()
    arrivalChoices = serializers.SerializerMethodField()

    class Meta:
        model = ServiceRequest
        fields = [
            "id",
            "clientId",
            "categoryId",
            "title",
            "description",
            "preferredDate",
            "preferredTime",
            "urgency",
            "location",
            "address",
            "specialRequirements",
            "tasks",
            "estimatedDuration",
            "maxBudget",
            "status",
            "createdAt",
            "updatedAt",
            "client",
            "serviceCategory",
            "bookingId",
            "recipient",
            "circleRole",
            "bookedWithYou",
            "careDetails",
            "repeat",
            "repeatCount",
            "repeatUntil",
            "visitDates",
            "requestedProvider",
            "directUntil",
            "onlyRequestedProvider",
            "declinedAt",
            "declineReason",
            "askedYou",
            "distanceMiles",
            "arrivalChoices",
        ]
        read_only_fields = fields

    def _viewer(self):
        return self.context["request"].user

    @extend_schema_field(serializers.ListField(child=serializers.DateField()))
    def get_visitDates(self, obj: ServiceRequest) -> list[str]:
        """The dates of the visits: the series', or the one preferred
        date; empty without a date."""
        return [day.isoformat() for day in request_visit_dates(obj)]

    @extend_schema_field(serializers.ChoiceField(choices=CircleRole.choices, allow_null=True))
    def get_circleRole(self, obj: ServiceRequest) -> str | None:
        """The viewer's role in the recipient's care circle: "organizer" (may edit, cancel or delete it
        while open), "member" (sees it, may not change it), null (not in the circle)."""
        viewer = self._viewer()
        return circle_role_of(obj, viewer) if viewer.is_authenticated else None

    def get_bookedWithYou(self, obj: ServiceRequest) -> bool:
        """Whether the viewer is the helper booked for it (for a series, of its visit shown: the next
        still ahead, else the last): the page tells her it is hers, not that it is "no longer open"."""
        viewer = self._viewer()
        return viewer.is_authenticated and getattr(obj, "booked_provider_user_id", None) == viewer.pk

    @extend_schema_field(RecipientCareDetailsSerializer(allow_null=True))
    def get_careDetails(self, obj: ServiceRequest) -> dict | None:
        """The recipient in full, for the booked provider while her booking is on (a dropped helper
        gets nothing), in a single request's detail (context["care_details"]); null otherwise."""
        if not self.context.get("care_details") or not care_details_shown_to(obj, self._viewer()):
            return None
        return care_details_for(obj.recipient_id)

    @extend_schema_field({"type": "string", "nullable": True})
    def get_declineReason(self, obj: ServiceRequest) -> str | None:
        """Why the requested provider declined: for the circle, that provider and admins; null for
        everyone else, and when they have not declined."""
        if obj.declined_at is None:
            return None
        viewer = self._viewer()
        if viewer.is_admin or viewer_in_circle(obj, viewer) or self.get_askedYou(obj):
            return obj.decline_reason
        return None

    def get_askedYou(self, obj: ServiceRequest) -> bool:
        """Whether the request was sent to the viewer (they are its requestedProvider)."""
        provider = obj.requested_provider
        return provider is not None and provider.user_id == self._viewer().pk

    def _vetted(self) -> bool:
        """Whether the viewer is a verified provider (asked once per serializer, when it matters)."""
        if "vetted_provider" not in self.context:
            self.context["vetted_provider"] = user_is_vetted_provider(user=self._viewer())
        return self.context["vetted_provider"]

    def _address_shown(self, obj: ServiceRequest) -> str | None:
        """address_shown_to for this row, asked once per row."""
        shown = self.context.setdefault("address_shown", {})
        if obj.pk not in shown:
            shown[obj.pk] = address_shown_to(obj, self._viewer(), vetted=self._vetted)
        return shown[obj.pk]

    @extend_schema_field(ArrivalChoiceSerializer(many=True))
    def get_arrivalChoices(self, obj: ServiceRequest) -> list[dict[str, str]]:
        """The arrival times a helper may pick when she accepts this open request (inside the
        family's window, the whole visit fitting in it); [] once it is not open."""
        if obj.status != RequestStatus.OPEN:
            return []
        return arrival_choices(obj.preferred_time, obj.estimated_duration)

    @extend_schema_field(serializers.FloatField(allow_null=True))
    def get_distanceMiles(self, obj: ServiceRequest) -> float | None:
        """How far the visit is from the viewing helper's home, rounded as people see distances
        (core.geo.shown_miles): a request offered to her, in her list; null everywhere else."""
        miles = getattr(obj, "offer_miles", None)
        return None if miles is None else shown_miles(miles)

    @extend_schema_field({"type": "string", "nullable": True})
    def get_location(self, obj: ServiceRequest) -> str | None:
        """The spec's one-line location: in full for the circle and the booked helper while her
        booking is on, the town and ZIP for the rest who may see the request, null otherwise."""
        return address_line_for(obj, self._address_shown(obj))

    @extend_schema_field(RequestAddressSerializer(allow_null=True))
    def get_address(self, obj: ServiceRequest) -> dict | None:
        return address_parts_for(obj, self._address_shown(obj))

    @extend_schema_field({"type": "string", "nullable": True})
    def get_specialRequirements(self, obj: ServiceRequest) -> str | None:
        """Shared by the family with helpers considering the request: for whoever sees its town."""
        return str(obj.special_requirements) if self._address_shown(obj) is not None else None

    @extend_schema_field(
        PolymorphicProxySerializer(
            component_name="RequestClient",
            serializers=[UserSummarySerializer, ClientInitialSerializer],
            resource_type_field_name=None,
        )
    )
    def get_client(self, obj: ServiceRequest) -> dict:
        viewer = self._viewer()
        data = self._client_shapes[client_fully_named_to(obj, viewer)].to_representation(obj.client)
        return without_circle_email(data, obj, viewer)

    @cached_property
    def _client_shapes(self) -> dict[bool, serializers.Serializer]:
        """The client's two shapes, built once per list (a list's rows share this serializer)."""
        return {True: UserSummarySerializer(), False: ClientInitialSerializer()}


def direct_window_max_age(requests: list[dict], *, provider_viewer: bool = False) -> float | None:
    """How long these serialized requests stay true by the clock: until the first direct request's
    window ends (it opens to all; None when none is waiting). A provider's list also turns stale
    when a direct request hidden from them opens (`provider_viewer`: one query for the next end)."""
    now = timezone.now()
    ends = [
        dt.datetime.fromisoformat(item["directUntil"])
        for item in requests
        if item.get("directUntil") and not item["onlyRequestedProvider"] and item["declinedAt"] is None
    ]
    if provider_viewer:
        ends.append(direct_window_next_end(now=now))
    ends = [end for end in ends if end is not None and end > now]
    return (min(ends) - now).total_seconds() if ends else None


def without_circle_email(data: dict, obj, viewer) -> dict:
    """A provider never sees the email of anyone in the recipient's circle (they
    reach the circle through the booking's messages): the booked provider gets the client's name
    without the email. The circle itself and admins see it."""
    if "email" in data and not (viewer.is_admin or viewer_in_circle(obj, viewer)):
        data.pop("email")
    return data


# The address's parts in the API (camelCase) -> the model's names.
PART_KEYS = {"street": "street", "unit": "unit", "town": "town", "state": "state", "zipCode": "zip_code"}


def _required(message: str) -> dict[str, str]:
    return {"required": message, "blank": message, "null": message}


def _rule(problem: str, value):
    """A field's value, or its problem as told by the service's rule (requests_app.services owns
    every rule; asked here too so its message shows beside the other fields' in one 400)."""
    if problem:
        raise serializers.ValidationError(problem)
    return value


class _RequestInput(StrictSerializer):
    """The fields create and edit share: JSON types here, rules in requests_app.services. The
    limits are declared with the service's numbers and texts too, for the schema and the forms
    (core.api.input_limits)."""

    title = StrictCharField(
        label=gettext_lazy("Title"),
        max_length=services.TITLE_MAX,
        error_messages={**_required(services.TITLE_REQUIRED), "max_length": services.TITLE_TOO_LONG},
    )
    description = StrictCharField(
        label=gettext_lazy("Description"),
        min_length=services.DESCRIPTION_MIN,
        max_length=services.TEXT_MAX,
        error_messages={
            **_required(services.DESCRIPTION_TOO_SHORT),
            "min_length": services.DESCRIPTION_TOO_SHORT,
            "max_length": services.DESCRIPTION_TOO_LONG,
        },
    )
    maxBudget = MoneyField(
        label=gettext_lazy("Budget"),
        required=False,
        allow_null=True,
        min_value=services.BUDGET_MIN,
        max_value=services.BUDGET_MAX,
        error_messages={"min_value": services.BUDGET_NEGATIVE, "max_value": services.BUDGET_TOO_HIGH},
    )
    categoryId = StrictIntegerField(
        label=gettext_lazy("Category"),
        min_value=1,
        max_value=2**31 - 1,
        error_messages={code: services.CATEGORY_REQUIRED for code in ("required", "null", "min_value", "max_value")},
    )
    location = StrictCharField(
        label=gettext_lazy("Location"),
        max_length=services.LOCATION_MAX,
        error_messages={**_required(services.LOCATION_REQUIRED), "max_length": services.LOCATION_TOO_LONG},
    )
    # The address in parts (the request form's fields); they win over the one-line location.
    street = StrictCharField(
        label=gettext_lazy("Street"), required=False, allow_blank=True, allow_null=True, max_length=255
    )
    unit = StrictCharField(
        label=gettext_lazy("Apartment or unit"), required=False, allow_blank=True, allow_null=True, max_length=40
    )
    town = StrictCharField(
        label=gettext_lazy("Town"), required=False, allow_blank=True, allow_null=True, max_length=120
    )
    state = StrictCharField(
        label=gettext_lazy("State"), required=False, allow_blank=True, allow_null=True, max_length=40
    )
    zipCode = StrictCharField(
        label=gettext_lazy("ZIP"), required=False, allow_blank=True, allow_null=True, max_length=10
    )
    preferredTime = serializers.ChoiceField(
        choices=TimeWindow.choices,
        required=False,
        allow_blank=True,
        allow_null=True,
        error_messages={
            "invalid_choice": gettext_lazy("Preferred time must be morning, afternoon, evening or flexible.")
        },
    )
    specialRequirements = StrictCharField(
        label=gettext_lazy("Special requirements"),
        required=False,
        allow_blank=True,
        allow_null=True,
        max_length=services.TEXT_MAX,
        error_messages={"max_length": services.SPECIAL_REQUIREMENTS_TOO_LONG},
    )
    # The family's task list; its rules (count, length, repeats) are the service's (tasks_problem).
    tasks = serializers.ListField(
        child=serializers.CharField(allow_blank=True, trim_whitespace=False),
        required=False,
        help_text="What the visit is for, in order: at most 10 items of at most 120 characters.",
    )

    repeat = serializers.ChoiceField(
        choices=Repeat.choices,
        required=False,
        allow_blank=True,
        allow_null=True,
        error_messages={"invalid_choice": gettext_lazy("Repeat must be weekly, every 2 weeks or monthly.")},
    )
    # The numbers' rules (2 to 26 visits, an end date after the first) are the service's
    # (requests_app.services.series_problems), which says how many visits the series would have.
    repeatCount = StrictIntegerField(
        label=gettext_lazy("Number of visits"), required=False, allow_null=True, max_value=2**15 - 1, min_value=-(2**15)
    )
    repeatUntil = DateOrDateTimeField(label=gettext_lazy("Last visit on or before"), required=False, allow_null=True)

    def validate_categoryId(self, value: int) -> int:
        return _rule(services.category_problem(category_get_active(category_id=value)), value)

    def validate_preferredDate(self, value):
        return _rule(services.preferred_date_problem(value), value)

    def to_service_kwargs(self) -> dict:
        """validated_data in model field names (category as an object)."""
        names = {
            "categoryId": "category",
            "preferredDate": "preferred_date",
            "preferredTime": "preferred_time",
            "specialRequirements": "special_requirements",
            "estimatedDuration": "estimated_duration",
            "maxBudget": "max_budget",
            "recipientId": "recipient_id",
            "repeatCount": "repeat_count",
            "repeatUntil": "repeat_until",
            "requestedProviderId": "requested_provider_id",
            "onlyRequestedProvider": "only_requested_provider",
            **PART_KEYS,
        }
        out = {}
        for key, value in self.validated_data.items():
            if key == "categoryId":
                value = category_get_active(category_id=value)
            elif key in ("preferredTime", "specialRequirements", "location", "repeat", *PART_KEYS) and value is None:
                value = ""  # the form's "none chosen"
            out[names.get(key, key)] = value
        return out


class ServiceRequestCreateSerializer(_RequestInput):
    """POST /api/service-requests. recipientId: whom it is for, one of the recipients the user
    organizes (left out or null: the user themself). A blank location takes the recipient's address
    (still "Location is required" when they have none)."""

    recipientId = StrictIntegerField(
        label=gettext_lazy("Who is this for?"),
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        error_messages={code: services.RECIPIENT_UNKNOWN for code in ("min_value", "max_value")},
    )
    location = StrictCharField(
        label=gettext_lazy("Location"),
        required=False,
        allow_blank=True,
        allow_null=True,
        max_length=services.LOCATION_MAX,
        error_messages={"max_length": services.LOCATION_TOO_LONG},
    )

    urgency = serializers.ChoiceField(
        choices=Urgency.choices,
        required=False,
        error_messages={"invalid_choice": gettext_lazy("Urgency must be low, normal, high or urgent.")},
    )
    # send it to one verified provider; only they may accept it for 24
    # hours, or for good with onlyRequestedProvider (ignored without a provider).
    requestedProviderId = StrictIntegerField(
        label=gettext_lazy("Helper"),
        required=False,
        allow_null=True,
        min_value=1,
        max_value=2**31 - 1,
        error_messages={code: services.REQUESTED_PROVIDER_UNKNOWN for code in ("min_value", "max_value")},
    )
    onlyRequestedProvider = serializers.BooleanField(required=False, default=False)
    preferredDate = DateOrDateTimeField(
        label=gettext_lazy("Preferred date"),
        error_messages={code: services.PREFERRED_DATE_REQUIRED for code in ("required", "null")},
    )
    estimatedDuration = StrictIntegerField(
        label=gettext_lazy("Duration"),
        required=False,
        min_value=services.DURATION_MIN,
        max_value=services.DURATION_MAX,
        limit_format=as_minutes,
        error_messages={"min_value": services.DURATION_TOO_SHORT, "max_value": services.DURATION_TOO_LONG},
    )

    def validate_estimatedDuration(self, value: int) -> int:
        return _rule(services.duration_problem(value, creating=True), value)

    def to_service_kwargs(self) -> dict:
        """As _RequestInput's, with the address's parts (when any is given) as one `address`."""
        out = super().to_service_kwargs()
        parts = {name: out.pop(name) for name in PART_KEYS.values() if name in out}
        if parts:
            out["address"] = parts
        return out

    def to_internal_value(self, data):
        # A repeating request without a date is told what the date is for (its first visit).
        if isinstance(data, dict) and data.get("repeat"):
            date_field = self.fields["preferredDate"]
            date_field.error_messages = {
                **date_field.error_messages,
                "required": services.REPEAT_NEEDS_DATE,
                "null": services.REPEAT_NEEDS_DATE,
            }
        return super().to_internal_value(data)

    def validate_maxBudget(self, value):
        return _rule(services.budget_problem(value, creating=True), value)


class ServiceRequestUpdateSerializer(_RequestInput):
    """PUT /api/service-requests/{id}: the edit page's rules and messages (spec section 5). Where:
    the one-line location or the address's parts (one of them is required)."""

    location = StrictCharField(
        label=gettext_lazy("Location"),
        required=False,
        allow_blank=True,
        max_length=services.LOCATION_MAX,
        error_messages={**_required(services.LOCATION_REQUIRED), "max_length": services.LOCATION_TOO_LONG},
    )

    def validate(self, attrs: dict) -> dict:
        if "location" not in attrs and not any(key in attrs for key in PART_KEYS):
            raise serializers.ValidationError({"location": [services.LOCATION_REQUIRED]})
        return attrs

    urgency = serializers.ChoiceField(
        choices=[Urgency.LOW, Urgency.NORMAL, Urgency.HIGH],
        required=False,
        error_messages={"invalid_choice": gettext_lazy("Urgency must be low, normal or high.")},
    )
    # Optional on the edit page (spec section 5): a cleared date ("" or null) removes it.
    preferredDate = DateOrDateTimeField(label=gettext_lazy("Preferred date"), required=False, allow_null=True)
    estimatedDuration = StrictIntegerField(
        label=gettext_lazy("Duration"),
        required=False,
        min_value=services.DURATION_MIN_ON_EDIT,
        max_value=services.DURATION_MAX,
        limit_format=as_minutes,
        error_messages={"min_value": services.DURATION_TOO_SHORT_ON_EDIT, "max_value": services.DURATION_TOO_LONG},
    )

    def validate_estimatedDuration(self, value: int) -> int:
        return _rule(services.duration_problem(value, creating=False), value)

    def validate_maxBudget(self, value):
        return _rule(services.budget_problem(value, creating=False), value)


class OfferDeclineSerializer(StrictSerializer):
    """POST /api/service-requests/{id}/not-for-me: a helper passes on a request offered to her, saying
    why if she likes (staff read it; the family is not told)."""

    reason = StrictCharField(
        label="Reason",
        required=False,
        allow_blank=True,
        default="",
        max_length=services.DECLINE_REASON_MAX,
        error_messages={"max_length": services.DECLINE_REASON_TOO_LONG},
    )


class OfferDeclineResultSerializer(serializers.Serializer):
    """What "Not for me" did: how many helpers were offered the request in her place (0 or 1)."""

    offeredNext = serializers.IntegerField()


class ServiceRequestDeclineSerializer(StrictSerializer):
    """POST /api/service-requests/{id}/decline: why the provider cannot take it (the circle reads it)."""

    reason = StrictCharField(
        label=gettext_lazy("Reason"),
        max_length=services.DECLINE_REASON_MAX,
        error_messages={
            **_required(services.DECLINE_REASON_REQUIRED),
            "max_length": services.DECLINE_REASON_TOO_LONG,
        },
    )

    def validate_reason(self, value: str) -> str:
        return _rule(services.decline_reason_problem(value), value)
