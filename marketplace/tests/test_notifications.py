"""core.notifications: the hook the apps below messaging notify people through."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import transaction

from core import events
from core.notices.bookings import InApp
from core.notifications import notify
from messaging.models import Message, MessageType

pytestmark = pytest.mark.django_db

REFUNDED = {"title": "Tea", "total": "30.00"}


def test_notify_writes_one_system_message_per_person(client_user, provider_user):
    notify(receivers=[client_user, provider_user, client_user], notice=InApp.REFUNDED, facts=REFUNDED)
    messages = Message.objects.order_by("receiver_id")
    assert sorted(m.receiver_id for m in messages) == sorted([client_user.pk, provider_user.pk])
    assert {(m.sender_id, m.message_type, m.content) for m in messages} == {
        (None, MessageType.SYSTEM, 'Your payment of $30.00 for "Tea" has been refunded in full.')
    }


def test_a_notice_rolls_back_with_the_change_that_sent_it(client_user):
    with pytest.raises(RuntimeError), transaction.atomic():
        notify(receivers=[client_user], notice=InApp.REFUNDED, facts=REFUNDED)
        raise RuntimeError("the change failed")
    assert not Message.objects.exists()


def test_notify_fails_loudly_when_no_app_delivers_it(client_user, monkeypatch):
    monkeypatch.setitem(events.SUBSCRIPTIONS, events.SystemNoticeWritten, [])
    with pytest.raises(ImproperlyConfigured, match="SystemNoticeWritten"):
        notify(receivers=[client_user], notice=InApp.REFUNDED, facts=REFUNDED)
    assert not Message.objects.exists()
