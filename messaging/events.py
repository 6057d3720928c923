"""Realtime events pushed to users over the websocket (ARCHITECTURE.md "Realtime").

Each user's sockets join the group user_<id>. Services call these functions inside their
transaction; the send happens on commit, so a rolled-back change never reaches a browser.
"""

from __future__ import annotations

import hashlib
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


_GROUP_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")


def user_group(user_id: str) -> str:
    """Channel-layer group of one user's sockets: user_<id>.

    Group names allow only [a-zA-Z0-9_.-] and fewer than 100 characters. A uid outside that
    (Firebase allows up to 128 of any character) gets a digest instead, under another prefix,
    so two different users can never share a group.
    """
    uid = str(user_id)
    if uid and len(uid) <= 90 and set(uid) <= _GROUP_SAFE:
        return f"user_{uid}"
    return "userh_" + hashlib.sha256(uid.encode()).hexdigest()


async def _group_send_all(layer, user_ids: list[str], message: dict[str, Any]) -> None:
    for user_id in user_ids:
        try:
            await layer.group_send(user_group(user_id), message)
        except Exception:  # a down Redis must not break the request that caused the event
            logger.exception("Could not push %s to user %s", message.get("event"), user_id)


def send_now(user_ids: Iterable[str], event_type: str, payload: dict[str, Any]) -> None:
    """Send one event to every socket of the given users, in the order given (duplicates
    dropped). Failures are logged, never raised."""
    layer = get_channel_layer()
    if layer is None:
        return
    ids = list(dict.fromkeys(user_ids))
    message = {"type": "push.event", "event": event_type, "payload": payload}
    try:
        async_to_sync(_group_send_all)(layer, ids, message)
    except Exception:
        logger.exception("Could not push %s to users %s", event_type, ids)


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
