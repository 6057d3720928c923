"""A message's length limit in plain words."""

from __future__ import annotations

import pytest

from messaging.models import Message

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("length", [2001, 20001])  # the service's rule, and the body guard before it
def test_a_too_long_message_names_the_limit(api_for, booking, client_user, verified_provider, length):
    response = api_for(client_user).post(
        "/api/messages", {"receiverId": verified_provider.user.pk, "content": "x" * length}, format="json"
    )
    assert response.status_code == 400
    message = "Message can be at most 2,000 characters."
    assert response.json() == {"message": message, "errors": {"content": [message]}}
    assert not Message.objects.filter(sender=client_user).exists()
