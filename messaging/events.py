"""Realtime events pushed to users over the websocket (ARCHITECTURE.md "Realtime").

Each user's sockets join the group user_<id>. Services call these functions inside their
transaction; the send happens on commit, so a rolled-back change never reaches a browser.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

if TYPE_CHECKING:
    from messaging.models import Message

logger = logging.getLogger(__name__)

# Event types pushed to the browser ({"type": <event>, "payload": {...}}).
MESSAGE_CREATED = "message.created"
UNREAD_COUNT = "unread.count"
TYPING = "typing"
BOOKING_UPDATED = "booking.updated"


def user_group(user_id: str) -> str:
    """Channel-layer group of one user's sockets (group names allow only [a-zA-Z0-9_.-])."""
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(user_id))
    return f"user_{safe}"[:99]


def send_now(user_ids: Iterable[str], event_type: str, payload: dict[str, Any]) -> None:
    """Send one event to every socket of the given users. Failures are logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    for user_id in set(user_ids):
        try:
            async_to_sync(layer.group_send)(
                user_group(user_id), {"type": "push.event", "event": event_type, "payload": payload}
            )
        except Exception:  # a down Redis must not break the request that caused the event
            logger.exception("Could not push %s to user %s", event_type, user_id)


def send_on_commit(user_ids: Iterable[str], event_type: str, payload: dict[str, Any]) -> None:
    """Send after the current transaction commits (at once when none is open)."""
    ids = list(user_ids)
    transaction.on_commit(lambda: send_now(ids, event_type, payload))


def push_unread_counts(user_ids: Iterable[str]) -> None:
    """Send each user their current unread summary (read now, so it is never stale)."""
    from messaging.selectors import unread_summary

    for user_id in set(user_ids):
        try:
            payload = unread_summary(user_id=user_id).as_payload()
        except Exception:
            logger.exception("Could not count unread messages of user %s", user_id)
            continue
        send_now([user_id], UNREAD_COUNT, payload)


def unread_count_on_commit(user_ids: Iterable[str]) -> None:
    """Push `unread.count` to these users after the current transaction commits."""
    ids = list(user_ids)
    transaction.on_commit(lambda: push_unread_counts(ids))


def messages_created_on_commit(messages: Iterable[Message]) -> None:
    """After commit: `message.created` to both people of each message (the sender's other tabs
    too; system messages only to the receiver), then `unread.count` to the receivers."""
    from messaging.api.serializers import message_payload

    messages = list(messages)
    items = [(message_payload(m), [m.receiver_id, *([m.sender_id] if m.sender_id else [])]) for m in messages]
    receivers = {m.receiver_id for m in messages}

    def push() -> None:
        for payload, user_ids in items:
            send_now(user_ids, MESSAGE_CREATED, payload)
        push_unread_counts(receivers)

    transaction.on_commit(push)
