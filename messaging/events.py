"""The messages' live events: `message.created` and `unread.count` (ARCHITECTURE.md "Realtime").

Messaging's services call these inside their transaction; the send happens on commit
(core.realtime), so a rolled-back change never reaches a browser. The write that changes
someone's count has already replaced their cached unread summary (core.listcache sees the
statement; its replacement at commit runs before a push queued after it), so a push never
reads a stale count.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import transaction

from core.realtime import MESSAGE_CREATED, UNREAD_COUNT, send_now
from messaging.models import Message
from messaging.selectors import unread_summary
from messaging.shapes import message_payload

logger = logging.getLogger(__name__)


def push_unread_counts(user_ids: Iterable[str]) -> None:
    """Send each user their current unread summary."""
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
    messages = list(messages)
    items = [(message_payload(m), [m.receiver_id, *([m.sender_id] if m.sender_id else [])]) for m in messages]
    receivers = {m.receiver_id for m in messages}

    def push() -> None:
        for payload, user_ids in items:
            send_now(user_ids, MESSAGE_CREATED, payload)
        push_unread_counts(receivers)

    transaction.on_commit(push)


def thread_message_created_on_commit(message: Message, *, participant_ids: Iterable[str]) -> None:
    """After commit: `message.created` (the thread's row, the same for all) to every participant of
    the moment (the sender's other tabs too), then `unread.count` to the others."""
    payload = message_payload(message)
    ids = list(dict.fromkeys(participant_ids))
    others = [uid for uid in ids if uid != message.sender_id]

    def push() -> None:
        send_now(ids, MESSAGE_CREATED, payload)
        push_unread_counts(others)

    transaction.on_commit(push)
