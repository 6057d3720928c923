"""Writes of messages: user messages, system notifications, marking read.

Every write pushes its live events on commit (messaging.events): `message.created` to the
people in the conversation and `unread.count` to whoever's count changed.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.db.models import Q

from accounts.models import User
from bookings.models import Booking
from marketplace.errors import InvalidInput, NotFound, PermissionDenied
from messaging import events
from messaging.models import Message, MessageType
from messaging.selectors import bookings_between, may_message

MAX_CONTENT_LENGTH = 2000
CONTENT_TOO_LONG = f"Message can be at most {MAX_CONTENT_LENGTH:,} characters."
NOT_A_SHARED_BOOKING = "This booking is not one between you and the receiver."
RECEIVER_NOT_FOUND = "Receiver not found."


def _clean_content(content: str) -> str:
    text = (content or "").strip()
    if not text:
        raise InvalidInput("Message cannot be empty.", errors={"content": ["Message cannot be empty."]})
    if len(text) > MAX_CONTENT_LENGTH:
        raise InvalidInput(CONTENT_TOO_LONG, errors={"content": [CONTENT_TOO_LONG]})
    return text


def _check_booking_of_pair(*, booking_id: int, sender: User, receiver: User) -> Booking:
    """The booking a message refers to must be one between the two people.

    When an admin is on one side (support), the booking must be the other person's.
    """
    if sender.is_admin and not receiver.is_admin:
        qs = Booking.objects.filter(Q(client=receiver) | Q(provider__user=receiver), pk=booking_id)
    elif receiver.is_admin and not sender.is_admin:
        qs = Booking.objects.filter(Q(client=sender) | Q(provider__user=sender), pk=booking_id)
    else:
        qs = bookings_between(user_a=sender, user_b=receiver).filter(pk=booking_id)
    booking = qs.first()
    if booking is None:
        raise InvalidInput(NOT_A_SHARED_BOOKING, errors={"bookingId": [NOT_A_SHARED_BOOKING]})
    return booking


def message_send(*, sender: User, receiver_id: str, content: str, booking_id: int | None = None) -> Message:
    """Send a text message from `sender` to the user `receiver_id`.

    Rules: content trimmed, not empty, at most MAX_CONTENT_LENGTH characters; an unknown or
    inactive receiver is a 404; a receiver the sender may not write to (no shared booking, not
    support) is a 403; a bookingId must be a booking between the two (400 otherwise).
    """
    text = _clean_content(content)
    if receiver_id == sender.pk:
        msg = "You cannot send a message to yourself."
        raise InvalidInput(msg, errors={"receiverId": [msg]})
    receiver = User.objects.filter(pk=receiver_id, is_active=True).first()
    if receiver is None:
        raise NotFound(RECEIVER_NOT_FOUND)
    if not may_message(sender=sender, receiver=receiver):
        raise PermissionDenied("You can only message people you have a booking with, or support.")
    booking = None
    if booking_id is not None:
        booking = _check_booking_of_pair(booking_id=booking_id, sender=sender, receiver=receiver)

    with transaction.atomic():
        message = Message.objects.create(
            sender=sender, receiver=receiver, booking=booking, content=text, message_type=MessageType.TEXT
        )
        events.messages_created_on_commit([message])
    return message


def conversation_mark_read(*, user: User, other: User) -> int:
    """Mark every unread message from `other` to `user` read; returns how many changed.

    A conditional UPDATE, so two tabs reading at once never double count.
    """
    with transaction.atomic():
        changed = Message.objects.filter(receiver=user, sender=other, is_read=False).update(is_read=True)
        if changed:
            events.unread_count_on_commit([user.pk])
    return changed


def system_notifications_mark_read(*, user: User) -> int:
    """Mark the user's unread system notifications read; returns how many changed."""
    with transaction.atomic():
        changed = Message.objects.filter(receiver=user, sender__isnull=True, is_read=False).update(is_read=True)
        if changed:
            events.unread_count_on_commit([user.pk])
    return changed


def system_notify(*, receivers: Iterable[User], content: str, booking: Booking | None = None) -> list[Message]:
    """Write a system notification (sender "system") to each receiver.

    Call inside the transaction of the state change it reports: the receivers get
    `message.created` and their new `unread.count` once it commits, nothing if it rolls back.
    """
    messages = [
        Message(sender=None, receiver=user, booking=booking, content=content, message_type=MessageType.SYSTEM)
        for user in {u.pk: u for u in receivers}.values()
    ]
    with transaction.atomic():
        created = Message.objects.bulk_create(messages)
        events.messages_created_on_commit(created)
    return created


def deliver_system_notification(
    sender: object, *, receivers: Iterable[User], content: str, booking=None, **kwargs
) -> None:
    """Receiver of marketplace.notifications.system_notification: the apps below messaging notify here."""
    system_notify(receivers=receivers, content=content, booking=booking)
