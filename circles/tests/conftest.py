"""A circle for Walter: Clara organizes it, Bob is a member, Walter himself has an account."""

import pytest

from accounts.tests.factories import UserFactory
from circles.models import CircleRole
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory


@pytest.fixture
def walter(db):
    return UserFactory(first_name="Walter", last_name="Stone", email="walter@example.com")


@pytest.fixture
def bob(db):
    return UserFactory(first_name="Bob", last_name="Stone", email="bob@example.com")


@pytest.fixture
def outsider(db):
    return UserFactory(first_name="Olga", email="olga@example.com")


@pytest.fixture
def circle(client_user, bob, walter):
    """Walter's recipient; Clara (client_user) organizer, Bob member, Walter's own account member."""
    recipient = CareRecipientFactory(account=walter)
    CircleMemberFactory(recipient=recipient, user=client_user, role=CircleRole.ORGANIZER)
    CircleMemberFactory(recipient=recipient, user=bob, role=CircleRole.MEMBER)
    CircleMemberFactory(recipient=recipient, user=walter, role=CircleRole.MEMBER)
    return recipient
