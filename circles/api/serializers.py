"""Care-circle shapes in camelCase: a recipient with its circle, a member, an invitation; inputs.

The input serializers only shape the JSON: every rule (required first name, lengths, roles,
emails) lives in circles.services, so the API and the pages answer with the same words.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from rest_framework import serializers

from accounts.api.serializers import LANGUAGE_ERRORS, EmergencyContactSerializer, UserSummarySerializer
from circles.models import CareRecipient, CircleInvitation, CircleMember, CircleRole
from core.api import PlainCharField, StrictSerializer
from core.languages import Language


class CircleMemberSerializer(serializers.ModelSerializer):
    """A member as the other members see them (their email too: only members see this shape)."""

    user = UserSummarySerializer(read_only=True)
    isRecipient = serializers.SerializerMethodField()

    class Meta:
        model = CircleMember
        fields = ["id", "user", "role", "isRecipient"]
        read_only_fields = fields

    def get_isRecipient(self, member: CircleMember) -> bool:
        return member.recipient.account_id == member.user_id


class CircleInvitationSerializer(serializers.ModelSerializer):
    """A pending invitation, as its circle's organizers see it."""

    createdAt = serializers.DateTimeField(source="created_at", read_only=True)
    expiresAt = serializers.DateTimeField(source="expires_at", read_only=True)
    expired = serializers.BooleanField(read_only=True)
    forRecipient = serializers.BooleanField(source="for_recipient", read_only=True)

    class Meta:
        model = CircleInvitation
        fields = ["id", "email", "role", "forRecipient", "status", "createdAt", "expiresAt", "expired"]
        read_only_fields = fields


class CareRecipientSerializer(serializers.ModelSerializer):
    """A recipient with their circle, from circles.selectors.care_circle_list (which sets my_role,
    visible_invitations and contacts)."""

    firstName = serializers.CharField(source="first_name", read_only=True)
    lastName = serializers.CharField(source="last_name", read_only=True)
    notesForHelpers = serializers.CharField(source="notes_for_helpers", read_only=True)
    # The address in parts (the one-line "address" is composed from them).
    address = serializers.CharField(read_only=True)
    zipCode = serializers.CharField(source="zip_code", read_only=True)
    language = serializers.ChoiceField(
        Language.choices, read_only=True, help_text="Her language: what her helper is chosen to speak."
    )
    isSelf = serializers.SerializerMethodField()
    myRole = serializers.ChoiceField(CircleRole.choices, source="my_role", read_only=True)
    members = CircleMemberSerializer(many=True, read_only=True)
    invitations = CircleInvitationSerializer(many=True, read_only=True, source="visible_invitations")
    emergencyContacts = EmergencyContactSerializer(many=True, read_only=True, source="contacts")

    class Meta:
        model = CareRecipient
        fields = [
            "id",
            "firstName",
            "lastName",
            "address",
            "street",
            "unit",
            "town",
            "state",
            "zipCode",
            "phone",
            "notesForHelpers",
            "language",
            "isSelf",
            "myRole",
            "members",
            "invitations",
            "emergencyContacts",
        ]
        read_only_fields = fields

    def get_isSelf(self, recipient: CareRecipient) -> bool:
        viewer = self.context.get("viewer_id")
        return recipient.account_id is not None and recipient.account_id == viewer


class CareRecipientInputSerializer(StrictSerializer):
    """POST /api/care-recipients (firstName required there) and PATCH /api/care-recipients/{id}."""

    firstName = serializers.CharField(source="first_name", required=False, allow_blank=True, trim_whitespace=False)
    lastName = serializers.CharField(source="last_name", required=False, allow_blank=True, trim_whitespace=False)
    # The one-line address (read into parts, best effort) or its parts (they win when both come).
    address = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    street = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    unit = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    town = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    state = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    zipCode = serializers.CharField(source="zip_code", required=False, allow_blank=True, trim_whitespace=False)
    phone = serializers.CharField(required=False, allow_blank=True, trim_whitespace=False)
    notesForHelpers = serializers.CharField(
        source="notes_for_helpers", required=False, allow_blank=True, trim_whitespace=False
    )
    language = serializers.ChoiceField(
        Language.choices,
        required=False,
        error_messages=LANGUAGE_ERRORS,
        help_text='"en" or "es" (circles.services checks it too); default: the language of whoever adds her.',
    )


class CareRecipientCreateSerializer(CareRecipientInputSerializer):
    isSelf = serializers.BooleanField(
        source="is_self", required=False, default=False, help_text="The person is the signed-in user themself."
    )


class InvitationInputSerializer(StrictSerializer):
    """POST /api/care-recipients/{id}/invitations."""

    email = PlainCharField(label=gettext_lazy("Email address"), allow_blank=True, max_length=254)
    role = PlainCharField(label=gettext_lazy("Role"), required=False, default=CircleRole.MEMBER, max_length=16)
    forRecipient = serializers.BooleanField(
        source="for_recipient",
        required=False,
        default=False,
        help_text="The invitation is for the person cared for themself: their account becomes theirs in the circle.",
    )
    language = PlainCharField(
        label=gettext_lazy("Language of the email"),
        required=False,
        default="",
        allow_blank=True,
        max_length=8,
        help_text="The email's language (en, es) when the address has no account yet; empty: the inviter's.",
    )


class MemberRoleInputSerializer(StrictSerializer):
    """PATCH /api/care-recipients/{id}/members/{memberId}."""

    role = PlainCharField(label=gettext_lazy("Role"), max_length=16)


class InvitationAcceptInputSerializer(StrictSerializer):
    """POST /api/care-invitations/accept."""

    token = PlainCharField(label=gettext_lazy("Invitation link"), max_length=1000)
