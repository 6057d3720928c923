"""Reads of messages, scoped to the user asking (ARCHITECTURE.md "Roles": messages).

Every queryset here only ever contains messages the given user sent or received, so another
pair's conversation can never leak through a view that uses these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet

from accounts.models import User, UserType
from bookings.models import Booking
from messaging.models import SYSTEM_SENDER_ID, Message

if TYPE_CHECKING:
    from collections.abc import Iterable

# The newest messages a conversation or the system list returns (oldest first).
CONVERSATION_LIMIT = 200


def message_list_for_user(*, user: User) -> QuerySet[Message]:
    """Every message the user sent or received, system notifications included, newest first."""
    return (
        Message.objects.filter(Q(sender=user) | Q(receiver=user))
        .select_related("sender")
        .order_by("-created_at", "-id")
    )


def conversation_messages(*, user: User, other: User, limit: int = CONVERSATION_LIMIT) -> list[Message]:
    """The last `limit` user messages between `user` and `other`, oldest first (no system messages)."""
    pair = Q(sender=user, receiver=other) | Q(sender=other, receiver=user)
    newest = list(Message.objects.filter(pair).select_related("sender").order_by("-created_at", "-id")[:limit])
    newest.reverse()
    return newest


def system_notifications(*, user: User, limit: int = CONVERSATION_LIMIT) -> list[Message]:
    """The last `limit` system notifications sent to the user, oldest first."""
    newest = list(Message.objects.filter(receiver=user, sender__isnull=True).order_by("-created_at", "-id")[:limit])
    newest.reverse()
    return newest


@dataclass(frozen=True)
class UnreadSummary:
    """Unread messages addressed to one user.

    count: all of them (the spec's {count}); system_count: unread system notifications;
    by_sender: user id -> unread messages from that person.
    """

    count: int = 0
    system_count: int = 0
    by_sender: dict[str, int] = field(default_factory=dict)

    def as_payload(self) -> dict:
        return {"count": self.count, "systemCount": self.system_count, "bySender": dict(self.by_sender)}


def unread_summary(*, user_id: str) -> UnreadSummary:
    """One grouped query: unread messages to the user, per sender (system under None)."""
    rows = (
        Message.objects.filter(receiver_id=user_id, is_read=False)
        .values("sender_id")
        .annotate(n=Count("id"))
        .order_by()
    )
    by_sender: dict[str, int] = {}
    system = 0
    for row in rows:
        if row["sender_id"] is None:
            system = row["n"]
        else:
            by_sender[row["sender_id"]] = row["n"]
    return UnreadSummary(count=system + sum(by_sender.values()), system_count=system, by_sender=by_sender)


def bookings_between(*, user_a: User | str, user_b: User | str) -> QuerySet[Booking]:
    """Bookings where one of the two is the client and the other the booked provider."""
    a = user_a.pk if isinstance(user_a, User) else user_a
    b = user_b.pk if isinstance(user_b, User) else user_b
    return Booking.objects.filter(Q(client_id=a, provider__user_id=b) | Q(client_id=b, provider__user_id=a))


def share_booking(*, user_a: User | str, user_b: User | str) -> bool:
    return bookings_between(user_a=user_a, user_b=user_b).exists()


def may_message(*, sender: User, receiver: User) -> bool:
    """Who may write to whom: admins to anyone, anyone to an admin (support), else booking parties."""
    if sender.pk == receiver.pk or not receiver.is_active:
        return False
    if sender.is_admin or receiver.is_admin:
        return True
    return share_booking(user_a=sender, user_b=receiver)


def support_user() -> User | None:
    """The admin who answers "Need Help?": the longest-standing active admin."""
    return User.objects.filter(user_type=UserType.ADMIN, is_active=True).order_by("created_at", "id").first()


@dataclass
class Conversation:
    """A person the user can talk to, with the bookings they share (newest first)."""

    user: User
    bookings: list[Booking] = field(default_factory=list)
    is_support: bool = False


def conversation_list(*, user: User) -> list[Conversation]:
    """The user's conversations, derived from bookings (spec "Messages page").

    For the client of a booking the partner is its provider, for the provider its client; a user
    who has been both sees both kinds. People the user exchanged messages with outside a booking
    (support: an admin on either side) are added, so a support thread stays reachable.
    """
    bookings = (
        Booking.objects.filter(Q(client=user) | Q(provider__user=user))
        .select_related("client", "provider__user", "service_request")
        .order_by("-scheduled_date", "-id")
    )
    by_partner: dict[str, Conversation] = {}
    for booking in bookings:
        partner = booking.provider.user if booking.client_id == user.pk else booking.client
        if partner.pk == user.pk:
            continue
        conv = by_partner.setdefault(partner.pk, Conversation(user=partner))
        conv.bookings.append(booking)

    partner_ids = _message_partner_ids(user=user)
    extra = User.objects.filter(pk__in=partner_ids - set(by_partner)).exclude(pk=user.pk)
    if not user.is_admin:
        extra = extra.filter(user_type=UserType.ADMIN)
    for partner in extra:
        by_partner[partner.pk] = Conversation(user=partner, is_support=partner.is_admin)
    return list(by_partner.values())


def _message_partner_ids(*, user: User) -> set[str]:
    sent_to: Iterable[str] = Message.objects.filter(sender=user).values_list("receiver_id", flat=True).distinct()
    received_from: Iterable[str] = (
        Message.objects.filter(receiver=user, sender__isnull=False).values_list("sender_id", flat=True).distinct()
    )
    return set(sent_to) | set(received_from)


def sender_id_of(message: Message) -> str:
    return message.sender_id or SYSTEM_SENDER_ID
