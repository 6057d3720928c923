"""Writes of messages: user messages, system notifications, marking read.

Every write pushes its live events on commit (messaging.events): `message.created` to the
people in the conversation and `unread.count` to whoever's count changed.

A message about a booking (given bookingId, or between a provider and a circle member with no
bookingId: their newest shared booking) goes to the booking's thread: one row per participant at
sending time (messaging.models.Message), the sender's own copy read.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from bookings.models import Booking
from core.errors import InvalidInput, NotFound, PermissionDenied
from core.events import CircleMemberRemoved, SystemNoticeWritten
from messaging import events
from messaging.models import Message, MessageType
from messaging.selectors import (
    may_message,
    newest_booking_between,
    pair_bookings,
    thread_booking_get,
    thread_bookings_of,
    thread_participant_ids,
)

MAX_CONTENT_LENGTH = 2000
CONTENT_EMPTY = gettext_lazy("Message cannot be empty.")
CONTENT_TOO_LONG_TEMPLATE = gettext_lazy("Message can be at most {max} characters.")
CONTENT_TOO_LONG = format_lazy(CONTENT_TOO_LONG_TEMPLATE, max=f"{MAX_CONTENT_LENGTH:,}")
NOT_A_SHARED_BOOKING = gettext_lazy("This booking is not one between you and the receiver.")
RECEIVER_NOT_FOUND = gettext_lazy("Receiver not found.")


def _clean_content(content: str) -> str:
    text = (content or "").strip()
    if not text:
        raise InvalidInput(CONTENT_EMPTY, errors={"content": [CONTENT_EMPTY]})
    if len(text) > MAX_CONTENT_LENGTH:
        raise InvalidInput(CONTENT_TOO_LONG, errors={"content": [CONTENT_TOO_LONG]})
    return text


def _check_booking_of_other(*, booking_id: int, other: User) -> Booking:
    """Support: a booking an admin's message refers to must be the other person's (any role)."""
    booking = (thread_bookings_of(user=other) | Booking.objects.filter(client=other)).filter(pk=booking_id).first()
    if booking is None:
        raise InvalidInput(NOT_A_SHARED_BOOKING, errors={"bookingId": [NOT_A_SHARED_BOOKING]})
    return booking


def _thread_of(*, booking_id: int, sender: User, receiver: User) -> tuple[Booking, list[str]]:
    """The booking's thread, when both take part in it now (400 otherwise), and its participants."""
    try:
        booking = thread_booking_get(user=sender, booking_id=booking_id)
    except NotFound:
        raise InvalidInput(NOT_A_SHARED_BOOKING, errors={"bookingId": [NOT_A_SHARED_BOOKING]}) from None
    participants = thread_participant_ids(booking=booking)
    if receiver.pk not in participants:
        raise InvalidInput(NOT_A_SHARED_BOOKING, errors={"bookingId": [NOT_A_SHARED_BOOKING]})
    return booking, participants


def message_send(*, sender: User, receiver_id: str, content: str, booking_id: int | None = None) -> Message:
    """Send a text message from `sender` to the user `receiver_id`; returns the sender's message.

    Rules: content trimmed, not empty, at most MAX_CONTENT_LENGTH characters; an unknown or
    inactive receiver is a 404. With an admin on one side (support) the message stays between the
    two: a bookingId must be the other person's booking (400). Otherwise it goes to a booking's
    thread: the given bookingId's (both must take part in it, else 400), or without one the
    newest booking the two share (none: 403). The thread's participants (the booked provider and
    every member of the recipient's circle) each get their copy; the sender's copy, returned, is
    the one everyone sees in the thread.
    """
    text = _clean_content(content)
    if receiver_id == sender.pk:
        msg = "You cannot send a message to yourself."
        raise InvalidInput(msg, errors={"receiverId": [msg]})
    receiver = User.objects.filter(pk=receiver_id, is_active=True).first()
    if receiver is None:
        raise NotFound(RECEIVER_NOT_FOUND)

    if sender.is_admin or receiver.is_admin:
        booking = None
        if booking_id is not None:
            other = receiver if sender.is_admin and not receiver.is_admin else sender
            booking = _check_booking_of_other(booking_id=booking_id, other=other)
        with transaction.atomic():
            message = Message.objects.create(
                sender=sender, receiver=receiver, booking=booking, content=text, message_type=MessageType.TEXT
            )
            events.messages_created_on_commit([message])
        return message

    if booking_id is not None:
        booking, participants = _thread_of(booking_id=booking_id, sender=sender, receiver=receiver)
    else:
        newest = (
            newest_booking_between(user_a=sender, user_b=receiver)
            if may_message(sender=sender, receiver=receiver)
            else None
        )
        if newest is None:
            raise PermissionDenied(gettext("You can only message people you have a booking with, or support."))
        booking, participants = newest, thread_participant_ids(booking=newest)
    return thread_message_send(sender=sender, booking=booking, participants=participants, content=text)


def thread_message_send(*, sender: User, booking: Booking, participants: list[str], content: str) -> Message:
    """Store a thread message once per participant (the sender's copy read) in one INSERT; on commit
    every participant gets `message.created` (the thread's row) and the others their unread count."""
    receivers = [uid for uid in participants if uid != sender.pk]
    rows = [
        Message(
            sender=sender,
            receiver_id=uid,
            booking=booking,
            content=content,
            message_type=MessageType.TEXT,
            thread=True,
            is_read=uid == sender.pk,
        )
        for uid in [sender.pk, *receivers]
    ]
    with transaction.atomic():
        created = Message.objects.bulk_create(rows)
        own = created[0]
        events.thread_message_created_on_commit(own, participant_ids=[sender.pk, *receivers])
    return own


def conversation_mark_read(*, user: User, other: User) -> int:
    """Mark every unread message from `other` to `user` read; returns how many changed.

    A conditional UPDATE, so two tabs reading at once never double count.
    """
    with transaction.atomic():
        changed = Message.objects.filter(receiver=user, sender=other, is_read=False).update(is_read=True)
        if changed:
            events.unread_count_on_commit([user.pk])
    return changed


def thread_mark_read(*, user: User, booking: Booking) -> int:
    """Mark the user's unread copies in the conversation of the booking's recipient and provider
    (every visit of the pair: it is one conversation) read; returns how many changed."""
    with transaction.atomic():
        changed = Message.objects.filter(
            receiver=user, booking__in=pair_bookings(booking=booking).values("pk"), thread=True, is_read=False
        ).update(is_read=True)
        if changed:
            events.unread_count_on_commit([user.pk])
    return changed


def circle_left(*, recipient_id: int, user_id: str) -> int:
    """Someone left (or was removed from) a recipient's circle: their unread copies in the threads
    of that recipient's bookings they no longer take part in are marked read (they can no longer
    open those threads), and their new unread count is pushed. New messages reach only the
    participants of the moment, so nothing else of the circle reaches them from now on."""
    gone = Booking.objects.filter(recipient_id=recipient_id).exclude(pk__in=thread_bookings_of(user=user_id))
    with transaction.atomic():
        changed = Message.objects.filter(
            receiver_id=user_id, thread=True, is_read=False, booking__in=gone.values("pk")
        ).update(is_read=True)
        if changed:
            events.unread_count_on_commit([user_id])
    return changed


def on_circle_member_removed(event: CircleMemberRemoved) -> None:
    """Subscriber of CircleMemberRemoved (on commit of the removal): their live events stop."""
    circle_left(recipient_id=event.recipient_id, user_id=event.user_id)


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


def on_system_notice(event: SystemNoticeWritten) -> None:
    """Subscriber of SystemNoticeWritten (inside the caller's transaction): the apps below
    messaging notify here, and the notice commits or rolls back with their change."""
    system_notify(receivers=event.receivers, content=event.content, booking=event.booking)
