"""User shapes in the spec's camelCase. Nested by every app that shows a person."""

from rest_framework import serializers

from accounts.models import User


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
