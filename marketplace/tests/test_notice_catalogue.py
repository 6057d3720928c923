"""core.notices: one catalogue of every notice's words, the in-app text per part, the email and
the text message, written from the facts the sender gives."""

from __future__ import annotations

import pathlib
import re

import pytest
from django.conf import settings

from core import notices
from core.notices import bookings, payments, people, phone, requests, visits
from core.notices.base import Reader
from core.notifications import Audience, NoticeKind

ENTRIES = [bookings.NOTICES, payments.NOTICES, visits.NOTICES, requests.NOTICES, people.NOTICES, phone.NOTICES]


def test_every_kind_has_its_words_and_its_email_and_no_name_is_declared_twice():
    assert len(notices.CATALOGUE) == sum(len(entries) for entries in ENTRIES)
    for kind in NoticeKind:
        if kind == NoticeKind.CIRCLE_INVITATION:
            continue  # to an address: people.invitation_email, from the invitation itself
        assert notices.CATALOGUE[kind].email is not None, kind


def test_every_in_app_notice_has_a_sender():
    """No dead words: each in-app-only notice is named by some app's code."""
    sources = "\n".join(
        path.read_text()
        for app in ("bookings", "requests_app", "providers", "vetting", "circles", "payments", "notifications")
        for path in (pathlib.Path(settings.BASE_DIR) / app).rglob("*.py")
        if "tests" not in path.parts
    )
    for in_app in (bookings.InApp, people.InApp):
        for name in (n for n in vars(in_app) if n.isupper()):
            assert re.search(rf"InApp\.{name}\b", sources), f"{in_app.__module__}.InApp.{name} is never sent"


def test_each_part_reads_its_own_words_from_the_same_facts():
    facts = {"name": "Ana Helper", "title": "Tea", "when": "Monday", "total": "30.00", "series": "", "left_out": ""}
    words = notices.texts(NoticeKind.REQUEST_ACCEPTED, facts)
    assert notices.text_for(words, user_id="u1", role=Audience.ORGANIZERS).endswith(
        "Total: $30.00, to pay to confirm it."
    )
    assert notices.text_for(words, user_id="u2", role=Audience.CIRCLE) == (
        'Good news: Ana Helper accepted the request "Tea". The visit is booked for Monday.'
    )
    cancelled = notices.texts(
        NoticeKind.BOOKING_CANCELLED, {"how": "client", "title": "Tea", "when": "Monday", "by": "Clara", "actor": "u1"}
    )
    assert (
        notices.text_for(cancelled, user_id="u1", role=Audience.ORGANIZERS) == 'Your booking for "Tea" was cancelled.'
    )
    assert notices.text_message("Hello.", "https://kindly.test/dashboard") == (
        "Kindly: Hello. https://kindly.test/dashboard Reply STOP to stop texts."
    )


def _reader(**ctx) -> Reader:
    return Reader(
        ctx=ctx,
        booking=None,
        recipient=type("Person", (), {"pk": "u1"})(),
        role=Audience.CIRCLE,
        text="The in-app words.",
        is_helper=False,
        pays=False,
        title="",
        when="",
        whose="",
        circle_why="you are in this care circle",
        yours="the request",
        request_why="you are in the care circle of this request",
    )


def test_an_email_whose_booking_is_gone_says_the_in_app_words():
    content = notices.email(_reader(), NoticeKind.BOOKING_CANCELLED)
    assert (content.subject, content.heading) == ("News from Kindly", "The in-app words.")


def test_a_request_email_is_written_from_the_facts_kept_with_the_notice():
    content = notices.email(_reader(title="Tea", day="March 3, 2026"), NoticeKind.REQUEST_EXPIRED)
    assert content.heading == "The request \u201cTea\u201d has ended."


def test_a_notice_with_no_words_is_refused():
    with pytest.raises(Exception, match="No notice named"):
        notices.texts("nothing_like_it", {})
