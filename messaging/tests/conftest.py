"""Fixtures of the messaging tests: a booking between a client and a provider, signed-in clients."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.tests.factories import UserFactory
from bookings.tests.factories import BookingFactory
from requests_app.tests.factories import ServiceRequestFactory


@pytest.fixture
def booking(client_user, verified_provider):
    """A booking between Clara (client_user) and Vera (verified_provider)."""
    return BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, status="booked", title="Tablet video calls"),
        provider=verified_provider,
    )


@pytest.fixture
def stranger(db):
    """A client with no booking with anyone in these tests."""
    return UserFactory(first_name="Sam", email="sam@example.com")


@pytest.fixture
def api_for():
    """api_for(user) -> an APIClient signed in as that user (session, as the browser)."""

    def make(user) -> APIClient:
        api = APIClient()
        api.force_login(user)
        return api

    return make


# --- a care circle's booking ---------------------------------------------------


@pytest.fixture
def harold(client_user):
    """Harold Smith (no account), whose circle Clara organizes."""
    from circles.models import CareRecipient, CircleMember, CircleRole

    recipient = CareRecipient.objects.create(first_name="Harold", last_name="Smith", address="1 Oak Lane")
    CircleMember.objects.create(recipient=recipient, user=client_user, role=CircleRole.ORGANIZER)
    return recipient


@pytest.fixture
def bob(harold):
    """Bob, a member of Harold's circle."""
    from circles.models import CircleMember, CircleRole

    user = UserFactory(first_name="Bob", last_name="Smith", email="bob@example.com")
    CircleMember.objects.create(recipient=harold, user=user, role=CircleRole.MEMBER)
    return user


@pytest.fixture
def circle_booking(client_user, verified_provider, harold, bob):
    """Vera's booking for Harold, posted by Clara; Bob is in the circle too."""
    return BookingFactory(
        service_request=ServiceRequestFactory(
            client=client_user, recipient=harold, status="booked", title="Garden and groceries"
        ),
        provider=verified_provider,
    )


@pytest.fixture
def remove_member(django_capture_on_commit_callbacks):
    """remove_member(recipient, user): what the circles app does: delete the membership and publish
    CircleMemberRemoved, whose subscribers run once that has committed."""
    from circles.models import CircleMember
    from core import events

    def remove(recipient, user) -> None:
        with django_capture_on_commit_callbacks(execute=True):
            CircleMember.objects.filter(recipient=recipient, user=user).delete()
            events.publish(events.CircleMemberRemoved(recipient_id=recipient.pk, user_id=user.pk))

    return remove
