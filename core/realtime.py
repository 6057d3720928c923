"""Live events pushed to users over the websocket (ARCHITECTURE.md "Realtime").

Each user's sockets join the group user_<id>. Any app's services call send_on_commit inside their
transaction; the send happens on commit, so a rolled-back change never reaches a browser. The
messages' own events (message.created, unread.count) are built by messaging.events.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)

# Event types pushed to the browser ({"type": <event>, "payload": {...}}).
MESSAGE_CREATED = "message.created"
UNREAD_COUNT = "unread.count"
TYPING = "typing"
BOOKING_UPDATED = "booking.updated"
PROVIDER_UPDATED = "provider.updated"
# Each event's payload is declared once, in marketplace/realtime_events.py.


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
