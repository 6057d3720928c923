"""The unread badge's serializer builds its dict directly (issue 8): same output as DRF's fields."""

from __future__ import annotations

import pytest

from accounts.tests.representation import assert_same_output, assert_same_response
from messaging.api.serializers import UnreadCountSerializer
from messaging.selectors import unread_summary
from messaging.tests.factories import MessageFactory, SystemMessageFactory

pytestmark = pytest.mark.django_db


def test_unread_count_answers_the_same_bytes_as_drf(client, client_user, verified_provider, stranger):
    client.force_login(client_user)
    assert assert_same_response(client, "/api/messages/unread-count") == {"count": 0, "systemCount": 0, "bySender": {}}
    MessageFactory.create_batch(2, sender=verified_provider.user, receiver=client_user)
    MessageFactory(sender=stranger, receiver=client_user)
    MessageFactory(sender=stranger, receiver=client_user, is_read=True)
    MessageFactory(sender=client_user, receiver=stranger)
    SystemMessageFactory.create_batch(3, receiver=client_user)
    body = assert_same_response(client, "/api/messages/unread-count")
    assert body == {"count": 6, "systemCount": 3, "bySender": {verified_provider.user.pk: 2, stranger.pk: 1}}


def test_serializer_equals_drf_for_summaries_and_plain_payloads(client_user, stranger):
    MessageFactory(sender=stranger, receiver=client_user)
    SystemMessageFactory(receiver=client_user)
    payload = unread_summary(user_id=client_user.pk).as_payload()
    assert_same_output(lambda: UnreadCountSerializer(payload).data)
    assert_same_output(lambda: UnreadCountSerializer({"count": 0, "systemCount": 0, "bySender": {}}).data)
