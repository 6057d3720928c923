"""The one websocket of a page: /ws/events/ (ARCHITECTURE.md "Realtime").

Each signed-in user's sockets join the group user_<id>; services push events to that group
(messaging.events) and `push_event` relays them as {"type": <event>, "payload": {...}}.
On connect the socket gets the user's current `unread.count`. A client may send
{"type": "typing", "booking": <bookingId>}: it reaches the other participants of that booking's
thread ({"from", "name", "bookingId"}) when the sender takes part in it; or {"type": "typing",
"to": <userId>}: it reaches that person when the two share a booking. Who takes part is read from
the database at each frame (no cache), so a member removed from a circle stops getting (and
sending) its typing events at once; every other event is sent to the per-user groups of the
participants of the moment (messaging.events).
"""

from __future__ import annotations

import json
import logging
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer

from accounts.second_factor import socket_needs_second_factor
from core.errors import NotFound
from core.realtime import TYPING, UNREAD_COUNT, user_group
from messaging.selectors import share_booking, thread_booking_get, thread_participant_ids, unread_summary

logger = logging.getLogger(__name__)

# Close code for "not signed in" (4000-4999 are the application's). The browser stops retrying.
CLOSE_UNAUTHENTICATED = 4401
# Close code for a staff session that has not passed the second step: staff sockets carry staff
# events (support conversations, every booking's changes), held back like the staff API.
CLOSE_SECOND_FACTOR = 4403


def _thread_typing_targets(user_id: str, booking_id: int) -> list[str]:
    """The other participants of the booking's thread, or none when the user takes no part in it."""
    try:
        booking = thread_booking_get(user=user_id, booking_id=booking_id)
    except NotFound:
        return []
    return [uid for uid in thread_participant_ids(booking=booking) if uid != user_id]


class EventsConsumer(AsyncWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            # Accept first so the close code reaches the browser (a refused handshake has none).
            await self.accept()
            await self.close(code=CLOSE_UNAUTHENTICATED)
            return
        if await database_sync_to_async(socket_needs_second_factor)(user, self.scope.get("session")):
            await self.accept()
            await self.close(code=CLOSE_SECOND_FACTOR)
            return
        self.user_id: str = user.pk
        self.group = user_group(user.pk)
        self.first_name: str = user.first_name or ""
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
            booking = data.get("booking")
            if booking is not None:
                await self._thread_typing(booking)
            else:
                await self._typing(data.get("to"))

    async def _thread_typing(self, booking: Any) -> None:
        if not isinstance(booking, int) or isinstance(booking, bool) or not 0 < booking < 2**63:
            return
        targets = await database_sync_to_async(_thread_typing_targets)(self.user_id, booking)
        payload = {"from": self.user_id, "name": self.first_name, "bookingId": booking}
        for uid in targets:
            await self.channel_layer.group_send(
                user_group(uid), {"type": "push.event", "event": TYPING, "payload": payload}
            )

    async def _typing(self, to: Any) -> None:
        if not isinstance(to, str) or not to or to == self.user_id or len(to) > 128:
            return
        if not await self._shares_booking(to):
            return
        await self.channel_layer.group_send(
            user_group(to), {"type": "push.event", "event": TYPING, "payload": {"from": self.user_id}}
        )

    async def _shares_booking(self, other_id: str) -> bool:
        return await database_sync_to_async(share_booking)(user_a=self.user_id, user_b=other_id)

    async def push_event(self, event: dict[str, Any]) -> None:
        """Handler of the channel-layer message type "push.event"."""
        await self.send(text_data=json.dumps({"type": event["event"], "payload": event.get("payload", {})}))
