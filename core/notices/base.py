"""The shapes of the catalogue: a notice's entry, the email it becomes, and what an email is told
about its reader."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.formats import time_format
from django.utils.translation import pgettext

# What a sender passes: the facts of one notice (names, a title, an amount, a date already in
# words), plain values only: they are kept with the notice (its email is written from them later).
Facts = Mapping[str, Any]

# The words of a notice in the app, per part: "" for everyone the others leave out, an Audience
# ("organizers", "helper", ...) for the people who play that part, "user:<id>" for one person (the
# one who did it).
Texts = dict[str, str]


@dataclass
class Content:
    """An email: a plain subject, a few large lines, one action link, why it came."""

    subject: str
    heading: str
    lines: list[str]
    action_label: str
    action_path: str
    why: str
    items: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Reader:
    """One reader of a notice's email, as the notifications app finds them when it sends it: the
    notice's facts (`ctx`), its booking as it is now, the part the reader plays, and the words that
    depend on them (the visit's time on the clock of the person cared for, whose visit it is)."""

    ctx: Facts
    booking: Any  # bookings.models.Booking, or None
    recipient: Any  # accounts.models.User
    role: str  # core.notifications.Audience, "" for a notice recorded before parts
    text: str  # the notice's words in the app (for everyone the parts leave out)
    is_helper: bool  # the reader is the booking's helper
    pays: bool  # the reader pays (the payer, an organizer)
    title: str  # the request's title in quotes, "" without a booking
    when: str  # the visit's time in words, "" without a booking
    whose: str  # whom the visit is for: "you" for the senior herself, else her first name
    circle_why: str  # why a member of the circle gets it
    yours: str  # "your request" to whoever posted it, "the request" to the rest of the circle
    request_why: str  # why a request's news came


@dataclass(frozen=True)
class Notice:
    """One entry of the catalogue: the in-app words from the facts, per part; the email (None: the
    notice is in the app only; the function answers None when it has nothing to say, e.g. its
    booking is gone, and the email says the in-app words)."""

    texts: Callable[[Facts], Texts]
    email: Callable[[Reader], Content | None] | None = None


def clock_words(clock: str) -> str:
    """A time of day kept as data ("13:58", on the clock of the person cared for) as its reader
    says it ("1:58 PM"); anything else as it was kept."""
    try:
        moment = dt.datetime.strptime(clock, "%H:%M").time()
    except (TypeError, ValueError):
        return str(clock)
    # Translators: Django time format letters for a visit's time of day ("1:58 PM").
    return time_format(moment, pgettext("visit clock", "g:i A"))


def first(user: Any, fallback: str) -> str:
    """A person's first name, or the fallback when there is none."""
    return (user.first_name if user else "") or fallback


def plural(count: int, one: str, many: str) -> str:
    return one if count == 1 else many
