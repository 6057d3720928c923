"""User shapes in the spec's camelCase. Nested by every app that shows a person."""

from django.utils.translation import gettext_lazy
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from accounts.models import EmergencyContact, User, UserType
from core.api import PlainCharField, PlainEmailField, PlainIntegerField, StrictSerializer
from core.languages import Language
from core.validators import phone_problem

USER_TYPE_MESSAGE = "userType must be client or provider."
LANGUAGE_MESSAGE = _("Choose English or Español.")
LANGUAGE_ERRORS = {code: LANGUAGE_MESSAGE for code in ("invalid_choice", "required", "null", "blank")}


class PublicUserSerializer(serializers.ModelSerializer):
    """What anyone may see of a person (public provider listings): no email."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.CharField(source="last_name", read_only=True)
    profileImageUrl = serializers.CharField(source="profile_image_url", read_only=True)

    class Meta:
        model = User
        fields = ["id", "firstName", "lastName", "profileImageUrl"]


class UserSummarySerializer(PublicUserSerializer):
    """A person as seen by someone they deal with (booking parties, admins): adds email."""

    class Meta(PublicUserSerializer.Meta):
        fields = [*PublicUserSerializer.Meta.fields, "email"]


class UserSerializer(UserSummarySerializer):
    """The signed-in user's own profile (GET /api/auth/user)."""

    userType = serializers.ChoiceField(UserType.choices, source="user_type", read_only=True)
    language = serializers.ChoiceField(
        Language.choices, read_only=True, help_text="The language Kindly speaks to them in (pages, emails, texts)."
    )
    stripeCustomerId = serializers.CharField(source="stripe_customer_id", read_only=True)
    stripeSubscriptionId = serializers.CharField(source="stripe_subscription_id", read_only=True)
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    updatedAt = serializers.DateTimeField(source="updated_at", read_only=True)

    class Meta(UserSummarySerializer.Meta):
        fields = [
            *UserSummarySerializer.Meta.fields,
            "userType",
            "language",
            "stripeCustomerId",
            "stripeSubscriptionId",
            "createdAt",
            "updatedAt",
        ]


class SessionInputSerializer(StrictSerializer):
    """POST /api/auth/session: the Firebase ID token, plus the names typed at sign-up."""

    idToken = serializers.CharField(required=False, allow_blank=True, trim_whitespace=True)
    firstName = PlainCharField(label=gettext_lazy("First name"), required=False, allow_blank=True, max_length=150)
    lastName = PlainCharField(label=gettext_lazy("Last name"), required=False, allow_blank=True, max_length=150)
    language = serializers.ChoiceField(
        Language.choices,
        required=False,
        error_messages=LANGUAGE_ERRORS,
        help_text="Chosen on the sign-up card; a new account only (else the browser's language).",
    )


class LanguageInputSerializer(StrictSerializer):
    """PUT /api/auth/language."""

    language = serializers.ChoiceField(Language.choices, error_messages=LANGUAGE_ERRORS)


class UserTypeInputSerializer(StrictSerializer):
    """PUT /api/auth/user-type."""

    userType = serializers.CharField(
        max_length=16, error_messages={"max_length": USER_TYPE_MESSAGE, "blank": USER_TYPE_MESSAGE}
    )


class EmergencyContactSerializer(serializers.ModelSerializer):
    """Output shape of an emergency contact."""

    isPrimary = serializers.BooleanField(source="is_primary", read_only=True)
    recipientId = serializers.IntegerField(
        source="recipient_id", read_only=True, allow_null=True, help_text="The care recipient the contact is for."
    )
    createdAt = serializers.DateTimeField(source="created_at", read_only=True)

    class Meta:
        model = EmergencyContact
        fields = ["id", "name", "relationship", "phone", "email", "isPrimary", "recipientId", "createdAt"]
        read_only_fields = fields


class EmergencyContactInputSerializer(StrictSerializer):
    """Input for create (POST), replace (PUT) and partial update (PATCH, with partial=True)."""

    name = PlainCharField(label=gettext_lazy("Name"), max_length=200)
    relationship = PlainCharField(
        label=gettext_lazy("Relationship"), max_length=100, required=False, allow_blank=True, default=""
    )
    phone = PlainCharField(label=gettext_lazy("Phone number"), max_length=40)
    email = PlainEmailField(label=gettext_lazy("Email"), max_length=254, required=False, allow_blank=True, default="")
    isPrimary = serializers.BooleanField(source="is_primary", required=False, default=False)

    def validate_phone(self, value: str) -> str:
        # The service owns the rule; checked here too so it shows beside the other fields' messages.
        problem = phone_problem(value)
        if problem:
            raise serializers.ValidationError(problem)
        return value


class EmergencyContactCreateSerializer(EmergencyContactInputSerializer):
    """POST: also the care recipient the contact is for (default: the caller themself)."""

    recipientId = PlainIntegerField(
        label=gettext_lazy("Care recipient"),
        source="recipient_id",
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=2**63 - 1,
        error_messages={
            code: gettext_lazy("Care recipient not found.") for code in ("min_value", "max_value", "max_string_length")
        },
    )


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
