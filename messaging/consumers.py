"""The one websocket of a page: /ws/events/ (ARCHITECTURE.md "Realtime").

Each signed-in user's sockets join the group user_<id>; services push events to that group
(messaging.events) and `push_event` relays them as {"type": <event>, "payload": {...}}.
On connect the socket gets the user's current `unread.count`. A client may send
{"type": "typing", "to": <userId>}; it reaches the other person only when the two share a booking.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from marketplace.realtime import TYPING, UNREAD_COUNT, user_group
from messaging.selectors import share_booking, unread_summary

logger = logging.getLogger(__name__)

# Close code for "not signed in" (4000-4999 are the application's). The browser stops retrying.
CLOSE_UNAUTHENTICATED = 4401
# How long a "these two share a booking" answer is trusted before asking the database again.
PAIR_CACHE_SECONDS = 60.0


class EventsConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Accept first so the close code reaches the browser (a refused handshake has none).
            await self.accept()
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        self.user_id: str = user.pk
        self.group = user_group(user.pk)
        self._pairs: dict[str, tuple[bool, float]] = {}
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        # Start (and every reconnect) with the current count, so a badge is right at once.
        summary = await database_sync_to_async(unread_summary)(user_id=self.user_id)
        await self.push_event({"event": UNREAD_COUNT, "payload": summary.as_payload()})

    async def disconnect(self, code: int) -> None:
        group = getattr(self, "group", None)
        if group:
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        if not getattr(self, "group", None) or not text_data:
            return
        try:
            data = json.loads(text_data)
        except ValueError:
            return
        if not isinstance(data, dict):
            return
        if data.get("type") == TYPING:
            await self._typing(data.get("to"))

    async def _typing(self, to: Any) -> None:
        if not isinstance(to, str) or not to or to == self.user_id or len(to) > 128:
            return
        if not await self._shares_booking(to):
            return
        await self.channel_layer.group_send(
            user_group(to), {"type": "push.event", "event": TYPING, "payload": {"from": self.user_id}}
        )

    async def _shares_booking(self, other_id: str) -> bool:
        cached = self._pairs.get(other_id)
        now = time.monotonic()
        if cached is not None and now - cached[1] < PAIR_CACHE_SECONDS:
            return cached[0]
        allowed = await database_sync_to_async(share_booking)(user_a=self.user_id, user_b=other_id)
        self._pairs[other_id] = (allowed, now)
        return allowed

    async def push_event(self, event: dict[str, Any]) -> None:
        """Handler of the channel-layer message type "push.event"."""
        await self.send(text_data=json.dumps({"type": event["event"], "payload": event.get("payload", {})}))
