"""The user shapes build their dict directly (issue 8): same output as DRF's generic path."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from accounts.api.serializers import PublicUserSerializer, UserSerializer, UserSummarySerializer
from accounts.models import User, UserType
from accounts.tests.factories import AdminUserFactory, UserFactory
from accounts.tests.representation import assert_same_output, assert_same_response

pytestmark = pytest.mark.django_db


@pytest.fixture
def users():
    return [
        UserFactory(),
        UserFactory(
            user_type=UserType.PROVIDER,
            first_name="",
            last_name="",
            profile_image_url="https://img.example/u.png",
            stripe_customer_id="cus_123",
            stripe_subscription_id="sub_456",
        ),
        AdminUserFactory(first_name="Ada", last_name="O'Neill-Ünal"),
    ]


def test_auth_user_answers_the_same_bytes_as_drf_for_every_user_type(client, users):
    for user in users:
        client.force_login(user)
        body = assert_same_response(client, "/api/auth/user")
        assert (body["id"], body["userType"]) == (user.pk, user.user_type)


@pytest.mark.parametrize("serializer", [PublicUserSerializer, UserSummarySerializer, UserSerializer])
def test_user_shapes_equal_drf(users, serializer):
    rows = list(User.objects.order_by("pk"))
    assert_same_output(lambda: serializer(rows, many=True).data)
    fresh = users[0]
    fresh.updated_at = dt.datetime(2026, 7, 1, 9, 30, tzinfo=dt.UTC)  # as a service leaves it, before a reload
    for zone in ("UTC", "Asia/Kolkata", "America/New_York"):
        with timezone.override(zone):
            assert_same_output(lambda: serializer(fresh).data)


def test_public_shape_never_has_the_email(users):
    assert "email" not in PublicUserSerializer(users[0]).data
    assert UserSummarySerializer(users[0]).data["email"] == users[0].email
