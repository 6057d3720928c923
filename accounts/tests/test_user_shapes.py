"""The person shapes nested by every app: what each audience sees of a user."""

import datetime as dt

import pytest

from accounts.api.serializers import PublicUserSerializer, UserSerializer, UserSummarySerializer
from accounts.tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_the_public_shape_never_has_the_email_and_the_summary_adds_it():
    user = UserFactory(profile_image_url="https://img.example/u.png")
    assert PublicUserSerializer(user).data == {
        "id": user.pk,
        "firstName": user.first_name,
        "lastName": user.last_name,
        "profileImageUrl": "https://img.example/u.png",
    }
    assert UserSummarySerializer(user).data == {**PublicUserSerializer(user).data, "email": user.email}


def test_the_own_profile_adds_the_account_fields_with_iso_datetimes(client):
    user = UserFactory(stripe_customer_id="cus_123")
    client.force_login(user)
    body = client.get("/api/auth/user").json()
    assert body == {**UserSerializer(user).data}
    assert (body["userType"], body["stripeCustomerId"], body["stripeSubscriptionId"]) == (user.user_type, "cus_123", "")
    assert dt.datetime.fromisoformat(body["createdAt"]) == user.created_at
