"""Who hears of a notice: each kind's audience, declared once in core.notifications.AUDIENCE,
resolved here to people, so the code that sends a notice never picks its recipients.

The circle is the lowest app that knows who organizes and who is a plain member; the apps above
(providers, requests_app, bookings, payments, notifications) say who the helper, the payer or the
person written to is, and the declaration decides which of them hear it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from accounts.models import User, UserType
from circles.models import CircleRole
from core.notifications import AUDIENCE, Audience, notify


def _circle(recipient_id: int | None, role: str | None = None) -> list[User]:
    if recipient_id is None:
        return []
    people = User.objects.filter(circle_memberships__recipient_id=recipient_id)
    if role:
        # One filter() call: the recipient and the role of the same membership row.
        people = User.objects.filter(circle_memberships__recipient_id=recipient_id, circle_memberships__role=role)
    return list(people.order_by("circle_memberships__id"))


def staff() -> list[User]:
    return list(User.objects.filter(user_type=UserType.ADMIN, is_active=True, closed_at__isnull=True).order_by("pk"))


def audience_resolve(
    kind: str,
    *,
    recipient_id: int | None = None,
    client: User | None = None,
    helpers: Iterable[User | None] = (),
    payer: User | None = None,
    addressee: User | None = None,
    skip: Iterable[User | None] = (),
) -> dict[int, tuple[User, str]]:
    """The people a notice of `kind` reaches, each with the part (Audience) whose words they get.

    `recipient_id`: the care recipient whose circle hears (`client` alone stands for an empty
    circle, and for its organizers when it has none); `helpers`: the helper(s) concerned;
    `payer`: who paid, when known (else the organizers are told as organizers); `skip`: people
    who must not hear it (who joined, who closed their account).
    """
    skipped = {u.pk for u in skip if u is not None}
    people: dict[int, tuple[User, str]] = {}

    def add(users: Iterable[User | None], part: str) -> None:
        for user in users:
            if user is not None and user.pk not in skipped and user.pk not in people:
                people[user.pk] = (user, part)

    fallback = [client] if client is not None else []
    for part in AUDIENCE[kind]:
        if part == Audience.PAYER:
            add([payer], part)
        elif part == Audience.ORGANIZERS:
            add(_circle(recipient_id, CircleRole.ORGANIZER) or fallback, part)
        elif part == Audience.CIRCLE:
            add(_circle(recipient_id) or fallback, part)
        elif part == Audience.HELPER:
            add(helpers, part)
        elif part == Audience.STAFF:
            add(staff(), part)
        elif part == Audience.ADDRESSEE:
            add([addressee], part)
        # INVITEE: an address that may have no account, emailed by notifications.services itself.
    return people


def notice_send(
    kind: str,
    *,
    facts: dict[str, Any] | None = None,
    booking: Any = None,
    key: str = "",
    **who: Any,
) -> dict[int, str]:
    """Tell everyone the kind's audience names (see audience_resolve for `who`), inside the caller's
    transaction: in the app, and by email and text as each chose, each in the words of their part
    (core.notices: the sender gives only the facts). Returns user id -> part."""
    people = audience_resolve(kind, **who)
    roles = {pk: part for pk, (_, part) in people.items()}
    notify(
        receivers=[user for user, _ in people.values()],
        notice=kind,
        facts=facts,
        roles=roles,
        booking=booking,
        key=key,
    )
    return roles
