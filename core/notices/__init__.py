"""Every notice's words, in one catalogue: per notice, its words in the app for each part its
audience plays, its email (subject, heading, lines, action, why it came) and its text message.

The senders (bookings, requests_app, providers, circles, payments, notifications) pass only the
notice (a NoticeKind, or an in-app-only notice: bookings.InApp, people.InApp) and its facts (names,
a title, an amount, a date in words); core.notifications.notify writes the in-app words from here
(and keeps the facts with the notice), and the notifications app writes the email and the text
from here when it sends them.

    kinds.py      the kinds of notice and who hears each (AUDIENCE; core.notifications re-exports them)
    bookings.py   accept, new helper, cancel, payment and refund, the visit, its reminder and alerts
    requests.py   a request expired, sent to one helper (declined, not answered), new requests
    people.py     a helper's application, a care circle (joined, handed over, an invitation), messages
    phone.py      the phone lines and the phone menu: what they say, and their in-app notices

An invitation to a care circle goes to an address that may have no account: its words are
people.invitation_words and people.invitation_email, written from the invitation itself.
"""

from __future__ import annotations

import datetime as dt

from django.core.exceptions import ImproperlyConfigured
from django.utils.formats import date_format
from django.utils.translation import gettext, pgettext

from core.notices import bookings, people, phone, requests
from core.notices.base import Content, Facts, Notice, Reader, Texts
from core.notices.kinds import NoticeKind

CATALOGUE: dict[str, Notice] = {**bookings.NOTICES, **requests.NOTICES, **people.NOTICES, **phone.NOTICES}

_missing = set(NoticeKind.values) - set(CATALOGUE) - {NoticeKind.CIRCLE_INVITATION}
if _missing:  # a new kind must say its words before anything can send it
    raise ImproperlyConfigured(f"Notice kinds without words in core.notices: {sorted(_missing)}")


def in_reader_words(facts: Facts) -> Facts:
    """The facts that are words from a table, in the active language: the visit's day and window
    ("when", from "when_on" and "when_window" when the sender kept them) and a window alone
    ("window"); the rest (names, titles, amounts) as the sender gave them."""
    words = dict(facts)
    if words.get("when_on"):
        try:
            day = dt.date.fromisoformat(str(words["when_on"]))
        except ValueError:
            return words
        # Translators: Django date format letters for a visit's day ("Monday, December 1, 2026").
        when = date_format(day, pgettext("visit day", "l, F j, Y"))
        window = words.get("when_window")
        words["when"] = f"{when}, {gettext(window)}" if window else when
    if isinstance(words.get("window"), str) and words["window"]:
        words["window"] = gettext(words["window"])
    return words


def texts(notice: str, facts: Facts) -> Texts:
    """The notice's words in the app, per part ("" for everyone the others leave out), in the
    active language."""
    try:
        entry = CATALOGUE[notice]
    except KeyError:
        raise ImproperlyConfigured(f"No notice named {notice!r} in core.notices") from None
    return entry.texts(in_reader_words(facts))


def texts_again(notice: str, context: Facts) -> Texts | None:
    """A notice's in-app words written again from the facts kept with it (in the language active
    now: a text message in its reader's); None when they cannot be (a notice kept before its facts
    were, or facts this catalogue no longer reads)."""
    facts = {key: value for key, value in context.items() if key not in ("roles", "texts")}
    try:
        return texts(notice, facts)
    except (KeyError, TypeError, ValueError, ImproperlyConfigured):
        return None


def text_for(texts: Texts, *, user_id: object, role: str = "") -> str:
    """One person's words among a notice's: their own, their part's, or everyone's."""
    return texts.get(f"user:{user_id}") or texts.get(role) or texts[""]


def email(reader: Reader, kind: str) -> Content:
    """The email of a notice of `kind` for one reader; the notice's in-app words under a plain
    subject when the kind has no email of its own (or its booking is gone)."""
    entry = CATALOGUE.get(kind)
    content = entry.email(reader) if entry is not None and entry.email is not None else None
    return content or Content(
        subject=gettext("News from Kindly"),
        heading=reader.text,
        lines=[],
        action_label=gettext("Open Kindly"),
        action_path="/dashboard",
        why=gettext("you have an account on Kindly"),
    )


def text_message(words: str, link: str = "") -> str:
    """A notice as a text message: the person's in-app words and the link of its email (none for a
    reader without a Kindly account: a care recipient's reminder)."""
    if not link:
        return gettext("Kindly: %(words)s Reply STOP to stop texts.") % {"words": words}
    return gettext("Kindly: %(words)s %(link)s Reply STOP to stop texts.") % {"words": words, "link": link}


__all__ = [
    "CATALOGUE",
    "Content",
    "Facts",
    "Notice",
    "Reader",
    "Texts",
    "email",
    "in_reader_words",
    "text_for",
    "text_message",
    "texts",
    "texts_again",
]
