"""Service request and category shapes in the spec's camelCase, and the create/edit inputs (spec section 5)."""

from __future__ import annotations

from functools import cached_property

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from accounts.api.serializers import UserSummarySerializer
from accounts.models import User
from marketplace.api import StrictSerializer, as_minutes
from providers.selectors import user_is_vetted_provider
from requests_app.api.fields import (
    MONEY_MAX,
    DateOrDateTimeField,
    MoneyField,
    StrictCharField,
    StrictIntegerField,
    check_step,
)
from requests_app.models import ServiceCategory, ServiceRequest, TimeWindow, Urgency
from requests_app.selectors import category_get_active, client_fully_named_to, private_details_visible_to
from requests_app.services import PREFERRED_DATE_REQUIRED, preferred_date_problem

MAX_DURATION = 24 * 60


class ServiceCategorySerializer(serializers.ModelSerializer):
    isActive = serializers.BooleanField(source="is_active", read_only=True)
    features = serializers.ListField(child=serializers.CharField(), read_only=True)

    class Meta:
        model = ServiceCategory
        fields = ["id", "slug", "name", "description", "icon", "features", "isActive"]
        read_only_fields = fields


class CategorySummarySerializer(serializers.ModelSerializer):
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


class ServiceRequestSerializer(serializers.ModelSerializer):
    """Needs context["request"]; the viewer decides whether location, special requirements and the
    client's full name and email show (requests_app.selectors.private_details_visible_to)."""

    clientId = serializers.CharField(source="client_id", read_only=True)
    categoryId = serializers.IntegerField(source="category_id", read_only=True, allow_null=True)
    preferredDate = serializers.DateField(source="preferred_date", read_only=True, allow_null=True)
    preferredTime = serializers.CharField(source="preferred_time", read_only=True)
    location = serializers.SerializerMethodField()
    specialRequirements = serializers.SerializerMethodField()
    estimatedDuration = serializers.IntegerField(source="estimated_duration", read_only=True)
    maxBudget = serializers.DecimalField(
        source="max_budget", max_digits=8, decimal_places=2, coerce_to_string=False, read_only=True, allow_null=True
    )
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)
    client = serializers.SerializerMethodField()
    serviceCategory = CategorySummarySerializer(source="category", read_only=True, allow_null=True)
    bookingId = serializers.IntegerField(source="booking_id", read_only=True, allow_null=True, default=None)

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
            "specialRequirements",
            "estimatedDuration",
            "maxBudget",
            "status",
            "createdAt",
            "updatedAt",
            "client",
            "serviceCategory",
            "bookingId",
        ]
        read_only_fields = fields

    def _viewer(self):
        return self.context["request"].user

    def _vetted(self) -> bool:
        """Whether the viewer is a verified provider (asked once per serializer, when it matters)."""
        if "vetted_provider" not in self.context:
            self.context["vetted_provider"] = user_is_vetted_provider(user=self._viewer())
        return self.context["vetted_provider"]

    def _private_details_visible(self, obj: ServiceRequest) -> bool:
        return private_details_visible_to(obj, self._viewer(), vetted=self._vetted)

    @extend_schema_field({"type": "string", "nullable": True})
    def get_location(self, obj: ServiceRequest) -> str | None:
        return str(obj.location) if self._private_details_visible(obj) else None

    @extend_schema_field({"type": "string", "nullable": True})
    def get_specialRequirements(self, obj: ServiceRequest) -> str | None:
        return str(obj.special_requirements) if self._private_details_visible(obj) else None

    @extend_schema_field(
        PolymorphicProxySerializer(
            component_name="RequestClient",
            serializers=[UserSummarySerializer, ClientInitialSerializer],
            resource_type_field_name=None,
        )
    )
    def get_client(self, obj: ServiceRequest) -> dict:
        return self._client_shapes[client_fully_named_to(obj, self._viewer())].to_representation(obj.client)

    @cached_property
    def _client_shapes(self) -> dict[bool, serializers.Serializer]:
        """The client's two shapes, built once per list (a list's rows share this serializer)."""
        return {True: UserSummarySerializer(), False: ClientInitialSerializer()}


_EDIT_MESSAGES = {
    "title": {"required": "Title is required", "blank": "Title is required", "null": "Title is required"},
    "description": {
        "required": "Description must be at least 10 characters",
        "blank": "Description must be at least 10 characters",
        "null": "Description must be at least 10 characters",
        "min_length": "Description must be at least 10 characters",
    },
    "categoryId": {
        "required": "Category is required",
        "null": "Category is required",
        "min_value": "Category is required",
        "max_value": "Category is required",
    },
    "location": {"required": "Location is required", "blank": "Location is required", "null": "Location is required"},
}


class _RequestInput(StrictSerializer):
    """The fields create and edit share. Limits answer in plain words (each field's label)."""

    title = StrictCharField(label="Title", max_length=200, error_messages=_EDIT_MESSAGES["title"])
    description = StrictCharField(
        label="Description", min_length=10, max_length=5000, error_messages=_EDIT_MESSAGES["description"]
    )
    categoryId = StrictIntegerField(
        label="Category", min_value=1, max_value=2**31 - 1, error_messages=_EDIT_MESSAGES["categoryId"]
    )
    location = StrictCharField(label="Location", max_length=255, error_messages=_EDIT_MESSAGES["location"])
    preferredTime = serializers.ChoiceField(
        choices=TimeWindow.choices,
        required=False,
        allow_blank=True,
        allow_null=True,
        error_messages={"invalid_choice": "Preferred time must be morning, afternoon, evening or flexible."},
    )
    specialRequirements = StrictCharField(
        label="Special requirements", required=False, allow_blank=True, allow_null=True, max_length=5000
    )

    def validate_categoryId(self, value: int) -> int:
        if category_get_active(category_id=value) is None:
            raise serializers.ValidationError("Category is required")
        return value

    def validate_preferredDate(self, value):
        # The service owns the rule; checked here too so it shows beside the other fields' messages.
        problem = preferred_date_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value

    def to_service_kwargs(self) -> dict:
        """validated_data in model field names (category as an object)."""
        names = {
            "categoryId": "category",
            "preferredDate": "preferred_date",
            "preferredTime": "preferred_time",
            "specialRequirements": "special_requirements",
            "estimatedDuration": "estimated_duration",
            "maxBudget": "max_budget",
        }
        out = {}
        for key, value in self.validated_data.items():
            if key == "categoryId":
                value = category_get_active(category_id=value)
            elif key in ("preferredTime", "specialRequirements") and value is None:
                value = ""  # the form's "none chosen"
            out[names.get(key, key)] = value
        return out


class ServiceRequestCreateSerializer(_RequestInput):
    """POST /api/service-requests."""

    urgency = serializers.ChoiceField(
        choices=Urgency.choices,
        required=False,
        error_messages={"invalid_choice": "Urgency must be low, normal, high or urgent."},
    )
    preferredDate = DateOrDateTimeField(
        label="Preferred date",
        error_messages={code: PREFERRED_DATE_REQUIRED for code in ("required", "null")},
    )
    estimatedDuration = StrictIntegerField(
        label="Duration",
        required=False,
        min_value=15,
        max_value=MAX_DURATION,
        limit_format=as_minutes,
        error_messages={"min_value": "Duration must be at least 15 minutes"},
    )
    maxBudget = MoneyField(label="Budget", required=False, allow_null=True, min_value=0, max_value=MONEY_MAX)

    def validate_estimatedDuration(self, value: int) -> int:
        if value % 15:
            raise serializers.ValidationError("Duration must be in steps of 15 minutes")
        return value

    def validate_maxBudget(self, value):
        check_step(value, 5, "Budget must be in steps of $5")
        return value


class ServiceRequestUpdateSerializer(_RequestInput):
    """PUT /api/service-requests/{id}: the edit page's rules and messages (spec section 5)."""

    urgency = serializers.ChoiceField(
        choices=[Urgency.LOW, Urgency.NORMAL, Urgency.HIGH],
        required=False,
        error_messages={"invalid_choice": "Urgency must be low, normal or high."},
    )
    # Optional on the edit page (spec section 5): a cleared date ("" or null) removes it.
    preferredDate = DateOrDateTimeField(label="Preferred date", required=False, allow_null=True)
    estimatedDuration = StrictIntegerField(
        label="Duration",
        required=False,
        min_value=1,
        max_value=MAX_DURATION,
        limit_format=as_minutes,
        error_messages={"min_value": "Duration must be at least 1 minute"},
    )
    maxBudget = MoneyField(label="Budget", required=False, allow_null=True, min_value=0, max_value=MONEY_MAX)
