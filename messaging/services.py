"""Writes of messages: system notifications (and, with the messaging issue, user messages)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from messaging.models import Message, MessageType

if TYPE_CHECKING:
    from accounts.models import User
    from bookings.models import Booking


def system_notify(*, receivers: Iterable[User], content: str, booking: Booking | None = None) -> list[Message]:
    """Write a system notification (sender "system") to each receiver.

    Call inside the transaction of the state change it reports. The live push of the new
    message and unread count is added by the messaging issue.
    """
    messages = [
        Message(sender=None, receiver=user, booking=booking, content=content, message_type=MessageType.SYSTEM)
        for user in {u.pk: u for u in receivers}.values()
    ]
    return Message.objects.bulk_create(messages)
