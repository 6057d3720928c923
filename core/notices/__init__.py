"""Every notice's words, in one catalogue: per notice, its words in the app for each part its
audience plays, its email (subject, heading, lines, action, why it came) and its text message.

The senders (bookings, requests_app, providers, circles, payments, notifications) pass only the
notice (a NoticeKind, or an in-app-only notice: bookings.InApp, people.InApp) and its facts (names,
a title, an amount, a date in words); core.notifications.notify writes the in-app words from here
(and keeps the facts with the notice), and the notifications app writes the email and the text
from here when it sends them.

    kinds.py      the kinds of notice and who hears each (AUDIENCE; core.notifications re-exports them)
    bookings.py   accept, new helper, a replacement, cancel; a booking's in-app-only notices (InApp)
    payments.py   a booking's money: payment, a saved card's charge, refund, late fee, tip, earning
    visits.py     the visit: completed, the family's updates, its reminder and alerts, a review
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
from django.utils.translation import gettext, ngettext, pgettext

from core.notices import bookings, payments, people, phone, requests, visits
from core.notices.base import Content, Facts, Notice, Reader, Texts, clock_words
from core.notices.kinds import NoticeKind

CATALOGUE: dict[str, Notice] = {
    **bookings.NOTICES,
    **payments.NOTICES,
    **visits.NOTICES,
    **requests.NOTICES,
    **people.NOTICES,
    **phone.NOTICES,
}

_missing = set(NoticeKind.values) - set(CATALOGUE) - {NoticeKind.CIRCLE_INVITATION}
if _missing:  # a new kind must say its words before anything can send it
    raise ImproperlyConfigured(f"Notice kinds without words in core.notices: {sorted(_missing)}")


def _iso_day(value: object) -> dt.date | None:
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def day_words(day: dt.date) -> str:
    """A day inside a notice, in the active language: "Tuesday, December 8" ("martes, 8 de diciembre")."""
    # Translators: Django date format letters for a day inside a notice ("Tuesday, December 8").
    return date_format(day, pgettext("notice day", "l, F j"))


def _days_words(value: object) -> str | None:
    """An ISO day ("2026-12-08"), or a span of two (["2026-12-08", "2026-12-22"]), in words."""
    if isinstance(value, (list, tuple)):
        days = [_iso_day(item) for item in value]
        if not days or None in days or len(days) > 2:
            return None
        if len(days) == 1 or days[0] == days[-1]:
            return day_words(days[0])
        return gettext("%(first)s to %(last)s") % {"first": day_words(days[0]), "last": day_words(days[-1])}
    day = _iso_day(value)
    return day_words(day) if day else None


def _series_words(repeat: str, count: int) -> str:
    """ "every week for 4 visits", in the active language ("" for a repeat it does not know)."""
    words = {
        "weekly": ngettext("every week for %(count)s visit", "every week for %(count)s visits", count),
        "every_2_weeks": ngettext("every 2 weeks for %(count)s visit", "every 2 weeks for %(count)s visits", count),
        "monthly": ngettext("every month for %(count)s visit", "every month for %(count)s visits", count),
    }
    return words[repeat] % {"count": count} if repeat in words else ""


def _day_list_words(values: object) -> str | None:
    """A list of ISO days as "Tuesday, December 8, Tuesday, December 15 and ...", or None."""
    if not isinstance(values, (list, tuple)) or not values:
        return None
    days = [_iso_day(value) for value in values]
    if None in days:
        return None
    names = [day_words(day) for day in days]
    if len(names) == 1:
        return names[0]
    return gettext("%(days)s and %(last)s") % {"days": ", ".join(names[:-1]), "last": names[-1]}


def in_reader_words(facts: Facts) -> Facts:
    """The facts that are words from a table, in the active language: the visit's day and window
    ("when", from "when_on" and "when_window" when the sender kept them), a window alone
    ("window"), a time of day kept as data, "<name>_clock" ("13:58" -> "<name>": "1:58 PM"), and
    any other day kept as data: "<name>_on" (an ISO day, or a span of two) becomes
    "<name>" ("day_on" -> "day": "Tuesday, December 8"; "span_on" -> "span": "... to ..."), a list
    of days "<name>_days" becomes "<name>" ("..., ... and ..."), and a series' "series_repeat" and
    "series_count" become "series" ("every week for 4 visits"). The rest (names, titles, amounts)
    as the sender gave them; a notice kept before its days were data keeps the sender's words."""
    words = dict(facts)
    for key, value in facts.items():
        if key.endswith("_on") and key != "when_on" and value:
            said = _days_words(value)
            if said is not None:
                words[key.removesuffix("_on")] = said
        elif key.endswith("_clock") and value:
            words[key.removesuffix("_clock")] = clock_words(value)
        elif key.endswith("_days") and value:
            said = _day_list_words(value)
            if said is not None:
                words[key.removesuffix("_days")] = said
    if facts.get("series_repeat") and facts.get("series_count"):
        words["series"] = _series_words(str(facts["series_repeat"]), int(facts["series_count"]))
    if words.get("when_on"):
        day = _iso_day(words["when_on"])
        if day is None:
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
    "day_words",
    "in_reader_words",
    "text_for",
    "text_message",
    "texts",
    "texts_again",
]
