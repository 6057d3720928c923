"""User shapes in the spec's camelCase. Nested by every app that shows a person.

The read shapes that lists and the dashboard serve on every call build their dict directly from
the instance (`to_representation`), without DRF's per-field machinery; the declared fields stay
for the OpenAPI schema, and tests pin the fast output to the generic one for every viewer.
"""

import decimal
from decimal import Decimal

from django.conf import settings
from django.utils import timezone
from rest_framework import ISO_8601, serializers
from rest_framework.settings import api_settings

from accounts.models import EmergencyContact, User
from marketplace.api import PlainCharField, PlainEmailField, StrictSerializer
from marketplace.validators import phone_problem

USER_TYPE_MESSAGE = "userType must be client or provider."
_DATETIME = serializers.DateTimeField()
_DATE = serializers.DateField()
_CENTS = Decimal("0.01")


def current_zone():
    """The zone DRF writes datetimes in (the active one); look it up once per row, not per field."""
    return timezone.get_current_timezone()


def datetime_json(value, zone=None):
    """A datetime as DRF's DateTimeField writes it (ISO 8601 in the active zone, "Z" for UTC)."""
    if value is None:
        return None
    if api_settings.DATETIME_FORMAT != ISO_8601 or not settings.USE_TZ or value.utcoffset() is None:
        return _DATETIME.to_representation(value)  # the general case, left to DRF
    text = value.astimezone(zone or timezone.get_current_timezone()).isoformat()
    return text[:-6] + "Z" if text.endswith("+00:00") else text


def date_json(value):
    """A date as DRF's DateField writes it (ISO 8601); None stays None."""
    if value is None:
        return None
    if api_settings.DATE_FORMAT != ISO_8601:
        return _DATE.to_representation(value)
    return value.isoformat()


def money_json(value, max_digits: int = 8):
    """A Decimal(max_digits, 2) as DRF's DecimalField(coerce_to_string=False) gives it to the renderer."""
    if value is None:
        return None
    if not isinstance(value, Decimal):
        value = Decimal(str(value).strip())
    context = decimal.getcontext().copy()
    context.prec = max_digits
    return value.quantize(_CENTS, context=context)


def public_user_payload(user: User) -> dict:
    """PublicUserSerializer's shape, built directly."""
    return {
        "id": str(user.pk),
        "firstName": str(user.first_name),
        "lastName": str(user.last_name),
        "profileImageUrl": str(user.profile_image_url),
    }


def user_summary_payload(user: User) -> dict:
    """UserSummarySerializer's shape (adds email), built directly."""
    return {
        "id": str(user.pk),
        "firstName": str(user.first_name),
        "lastName": str(user.last_name),
        "profileImageUrl": str(user.profile_image_url),
        "email": str(user.email),
    }


class PublicUserSerializer(serializers.ModelSerializer):
    """What anyone may see of a person (public provider listings): no email."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.CharField(source="last_name", read_only=True)
    profileImageUrl = serializers.CharField(source="profile_image_url", read_only=True)

    class Meta:
        model = User
        fields = ["id", "firstName", "lastName", "profileImageUrl"]

    def to_representation(self, instance: User) -> dict:
        return public_user_payload(instance)


class UserSummarySerializer(PublicUserSerializer):
    """A person as seen by someone they deal with (booking parties, admins): adds email."""

    class Meta(PublicUserSerializer.Meta):
        fields = [*PublicUserSerializer.Meta.fields, "email"]

    def to_representation(self, instance: User) -> dict:
        return user_summary_payload(instance)


class UserSerializer(UserSummarySerializer):
    """The signed-in user's own profile (GET /api/auth/user)."""

    userType = serializers.CharField(source="user_type", read_only=True)
    stripeCustomerId = serializers.CharField(source="stripe_customer_id", read_only=True)
    stripeSubscriptionId = serializers.CharField(source="stripe_subscription_id", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)

    class Meta(UserSummarySerializer.Meta):
        fields = [
            *UserSummarySerializer.Meta.fields,
            "userType",
            "stripeCustomerId",
            "stripeSubscriptionId",
            "createdAt",
            "updatedAt",
        ]

    def to_representation(self, instance: User) -> dict:
        zone = current_zone()
        return {
            "id": str(instance.pk),
            "firstName": str(instance.first_name),
            "lastName": str(instance.last_name),
            "profileImageUrl": str(instance.profile_image_url),
            "email": str(instance.email),
            "userType": str(instance.user_type),
            "stripeCustomerId": str(instance.stripe_customer_id),
            "stripeSubscriptionId": str(instance.stripe_subscription_id),
            "createdAt": datetime_json(instance.created_at, zone),
            "updatedAt": datetime_json(instance.updated_at, zone),
        }


class SessionInputSerializer(StrictSerializer):
    """POST /api/auth/session: the Firebase ID token, plus the names typed at sign-up."""

    idToken = serializers.CharField(required=False, allow_blank=True, trim_whitespace=True)
    firstName = PlainCharField(label="First name", required=False, allow_blank=True, max_length=150)
    lastName = PlainCharField(label="Last name", required=False, allow_blank=True, max_length=150)


class UserTypeInputSerializer(StrictSerializer):
    """PUT /api/auth/user-type."""

    userType = serializers.CharField(
        max_length=16, error_messages={"max_length": USER_TYPE_MESSAGE, "blank": USER_TYPE_MESSAGE}
    )


class EmergencyContactSerializer(serializers.ModelSerializer):
    """Output shape of an emergency contact."""

    isPrimary = serializers.BooleanField(source="is_primary", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)

    class Meta:
        model = EmergencyContact
        fields = ["id", "name", "relationship", "phone", "email", "isPrimary", "createdAt"]
        read_only_fields = fields


class EmergencyContactInputSerializer(StrictSerializer):
    """Input for create (POST), replace (PUT) and partial update (PATCH, with partial=True)."""

    name = PlainCharField(label="Name", max_length=200)
    relationship = PlainCharField(label="Relationship", max_length=100, required=False, allow_blank=True, default="")
    phone = PlainCharField(label="Phone number", max_length=40)
    email = PlainEmailField(label="Email", max_length=254, required=False, allow_blank=True, default="")
    isPrimary = serializers.BooleanField(source="is_primary", required=False, default=False)

    def validate_phone(self, value: str) -> str:
        # The service owns the rule; checked here too so it shows beside the other fields' messages.
        problem = phone_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class AccountCloseInputSerializer(StrictSerializer):
    """POST /api/account/close: {"confirm": "CLOSE"}, typed by the user."""

    confirm = serializers.CharField(
        max_length=20,
        trim_whitespace=True,
        error_messages={
            code: "Type CLOSE to confirm that you want to close your account."
            for code in ("required", "blank", "null", "max_length")
        },
    )
