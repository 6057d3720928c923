"""Reads of messages, scoped to the user asking (ARCHITECTURE.md "Roles": messages).

Every queryset here only ever contains messages the given user sent or received, or the thread of
a booking the user takes part in (its provider or a member of its recipient's circle, checked
now, so a removed member loses the thread at once), so another conversation can never leak
through a view that uses these.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.db.models import Count, F, Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User, UserType
from bookings.models import Booking, BookingStatus
from bookings.selectors import as_party_of
from circles.selectors import member_user_ids, recipient_id_list
from core.errors import NotFound
from core.listcache import Read, cached_all
from messaging.models import Message
from providers.selectors import provider_pk_of

if TYPE_CHECKING:
    from collections.abc import Iterable

# The newest messages a conversation or the system list returns (oldest first).
CONVERSATION_LIMIT = 200


def message_list_for_user(*, user: User) -> QuerySet[Message]:
    """Every message the user sent or received, system notifications included, newest first.

    A thread message once: the user's own copy (the other participants' copies of what they sent
    are theirs).
    """
    return (
        Message.objects.filter(Q(sender=user, thread=False) | Q(receiver=user))
        .select_related("sender")
        .order_by("-created_at", "-id")
    )


def conversation_messages(*, user: User, other: User, limit: int = CONVERSATION_LIMIT) -> list[Message]:
    """The last `limit` user messages between `user` and `other`, oldest first (no system messages).

    Thread messages appear as the copies the two addressed to each other (for a circle of one,
    the whole thread); the thread call shows a thread as everyone in it sees it.
    """
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
    by_sender: user id -> unread messages from that person (in threads too);
    by_booking: booking id (as a string) -> unread messages in that booking's thread.
    """

    count: int = 0
    system_count: int = 0
    by_sender: dict[str, int] = field(default_factory=dict)
    by_booking: dict[str, int] = field(default_factory=dict)

    def as_payload(self) -> dict:
        return {
            "count": self.count,
            "systemCount": self.system_count,
            "bySender": dict(self.by_sender),
            "byBooking": dict(self.by_booking),
        }


def unread_summary(*, user_id: str) -> UnreadSummary:
    """The user's unread summary, through the list cache (core.listcache): every call of the
    dashboard and the messages page reads it, and it changes only when a message to them is written
    or read."""
    return cached_all([unread_summary_read(user_id=user_id)])[0]


def unread_summary_read(*, user_id: str) -> Read:
    """unread_summary as a list cache read, for a page that reads it with others in one round trip."""
    return Read(("unread", user_id), lambda: _unread_summary_now(user_id), rows=[(Message, user_id)])


def _unread_summary_now(user_id: str) -> UnreadSummary:
    """One grouped query over the user's unread rows (index receiver, is_read): per sender (system
    under None) and, for thread messages, per booking."""
    rows = (
        Message.objects.filter(receiver_id=user_id, is_read=False)
        .values("sender_id", "booking_id", "thread")
        .annotate(n=Count("id"))
        .order_by()
    )
    by_sender: dict[str, int] = {}
    by_booking: dict[str, int] = {}
    system = 0
    for row in rows:
        n = row["n"]
        if row["sender_id"] is None:
            system += n
            continue
        by_sender[row["sender_id"]] = by_sender.get(row["sender_id"], 0) + n
        if row["thread"] and row["booking_id"] is not None:
            key = str(row["booking_id"])
            by_booking[key] = by_booking.get(key, 0) + n
    return UnreadSummary(
        count=system + sum(by_sender.values()), system_count=system, by_sender=by_sender, by_booking=by_booking
    )


def _uid(user: User | str) -> str:
    return user.pk if isinstance(user, User) else user


def thread_bookings_of(*, user: User | str) -> QuerySet[Booking]:
    """The bookings whose thread the user takes part in: they are its provider, or a member of its
    recipient's circle (one query, circles as a subquery)."""
    return Booking.objects.filter(as_party_of(_uid(user)))


def bookings_between(*, user_a: User | str, user_b: User | str) -> QuerySet[Booking]:
    """Bookings in whose thread both take part and one of the two is the booked provider (the
    other a member of the recipient's circle, the client who posted included)."""
    a, b = _uid(user_a), _uid(user_b)
    # The circles as values, as in as_party_of: ORed, a subquery of them reads every booking.
    return Booking.objects.filter(
        Q(provider_id=provider_pk_of(user_id=a), recipient_id__in=recipient_id_list(user_id=b))
        | Q(provider_id=provider_pk_of(user_id=b), recipient_id__in=recipient_id_list(user_id=a))
    )


def share_booking(*, user_a: User | str, user_b: User | str) -> bool:
    return bookings_between(user_a=user_a, user_b=user_b).exists()


def newest_booking_between(*, user_a: User | str, user_b: User | str) -> Booking | None:
    return bookings_between(user_a=user_a, user_b=user_b).order_by("-scheduled_date", "-id").first()


def thread_booking_get(*, user: User | str, booking_id: object) -> Booking:
    """A booking whose thread the user takes part in (now); any other, or none, is a 404."""
    try:
        pk = int(booking_id)  # type: ignore[call-overload]
    except (TypeError, ValueError):
        raise NotFound(gettext("Conversation not found.")) from None
    booking = (
        thread_bookings_of(user=user)
        .filter(pk=pk)
        .select_related("provider__user", "client", "recipient", "service_request")
        .first()
    )
    if booking is None:
        raise NotFound(gettext("Conversation not found."))
    return booking


def thread_participant_ids(*, booking: Booking) -> list[str]:
    """Who takes part in a booking's thread now: the booked provider, then every circle member."""
    ids = [booking.provider.user_id]
    ids += [uid for uid in member_user_ids(recipient_id=booking.recipient_id) if uid not in ids]
    return ids


def pair_bookings(*, booking: Booking) -> QuerySet[Booking]:
    """Every booking of the booking's pair (its recipient and its provider): one conversation holds
    them all, so a family with three visits by one helper talks to her in one place. Whoever takes
    part in one of them takes part in all (the provider, or a member of the recipient's circle)."""
    return Booking.objects.filter(recipient_id=booking.recipient_id, provider_id=booking.provider_id)


def thread_messages(*, booking: Booking, limit: int = CONVERSATION_LIMIT) -> list[Message]:
    """The last `limit` messages of the conversation of the booking's recipient and provider (every
    visit of the pair, each message keeping the booking it was written about), oldest first: the
    canonical rows (each sender's own copy), the same for everyone in it. The caller checks the
    user takes part."""
    newest = list(
        Message.objects.filter(
            booking__in=pair_bookings(booking=booking).values("pk"), thread=True, receiver_id=F("sender_id")
        )
        .select_related("sender")
        .order_by("-created_at", "-id")[:limit]
    )
    newest.reverse()
    return newest


def may_message(*, sender: User, receiver: User) -> bool:
    """Who may write to whom: admins to anyone, anyone to an admin (support), else people who share
    a booking's thread as its provider and a member of its recipient's circle."""
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
    """One entry of the user's messages page.

    A care recipient and provider pair (`thread` set): every booking of the pair, newest visit
    first, in `bookings`; `thread` is the visit a new message is about (the next one to come, else
    the newest); `user` is whom the user talks to there: the booked provider for a member of the
    circle, the client who posted that visit for the provider (the page names it after the
    recipient). Otherwise a person (support): the bookings they share, newest first.
    """

    user: User
    bookings: list[Booking] = field(default_factory=list)
    is_support: bool = False
    thread: Booking | None = None
    as_provider: bool = False


_ACTIVE = (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED)


def current_visit(bookings: list[Booking]) -> Booking:
    """The visit a conversation's new message is about: the soonest active visit from today on,
    else the newest (bookings: newest first)."""
    today = timezone.localdate()
    coming = [b for b in bookings if b.status in _ACTIVE and b.scheduled_date >= today]
    return min(coming, key=lambda b: (b.scheduled_date, b.pk)) if coming else bookings[0]


def conversation_list(*, user: User) -> list[Conversation]:
    """The user's conversations (spec "Messages page"): one per care recipient and provider pair
    whose bookings they take part in (one person, one conversation, whatever the number of
    visits), newest visit first, then the people they exchanged messages with outside a thread
    (support: an admin on either side), so a support thread stays reachable."""
    bookings = (
        thread_bookings_of(user=user)
        .select_related("client", "provider__user", "service_request", "recipient")
        .order_by("-scheduled_date", "-id")
    )
    pairs: dict[tuple[int, int], list[Booking]] = {}
    for booking in bookings:
        pairs.setdefault((booking.recipient_id, booking.provider_id), []).append(booking)
    conversations: list[Conversation] = []
    for visits in pairs.values():
        current = current_visit(visits)
        as_provider = current.provider.user_id == user.pk
        partner = current.client if as_provider else current.provider.user
        if partner.pk == user.pk:  # a provider booked for their own circle: nobody to talk to
            continue
        conversations.append(Conversation(user=partner, bookings=visits, thread=current, as_provider=as_provider))

    partner_ids = _message_partner_ids(user=user)
    extra = User.objects.filter(pk__in=partner_ids).exclude(pk=user.pk)
    if not user.is_admin:
        extra = extra.filter(user_type=UserType.ADMIN)
    conversations += [Conversation(user=partner, is_support=partner.is_admin) for partner in extra]
    return conversations


def _message_partner_ids(*, user: User) -> set[str]:
    """The people the user exchanged messages with outside a booking's thread."""
    sent_to: Iterable[str] = (
        Message.objects.filter(sender=user, thread=False).values_list("receiver_id", flat=True).distinct()
    )
    received_from: Iterable[str] = (
        Message.objects.filter(receiver=user, sender__isnull=False, thread=False)
        .values_list("sender_id", flat=True)
        .distinct()
    )
    return set(sent_to) | set(received_from)
