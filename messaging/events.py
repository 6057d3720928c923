"""Realtime events pushed to users over the websocket (ARCHITECTURE.md "Realtime").

Each user's sockets join the group user_<id>. Services call these functions inside their
transaction; the send happens on commit, so a rolled-back change never reaches a browser.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

logger = logging.getLogger(__name__)


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
