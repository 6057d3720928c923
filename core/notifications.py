"""System notifications to users, the hook every app may call (ARCHITECTURE.md "Realtime").

The apps below messaging in the dependency order (providers, requests_app, bookings) tell people
about a change through notify(); it publishes a SystemNoticeWritten event that messaging delivers
(marketplace/subscribers.py), so those apps never import messaging. The subscriber runs
synchronously, inside the caller's transaction: the notice commits or rolls back with the change.

A notice's words are never written by its sender: it passes the notice (a NoticeKind, or an
in-app-only notice) and its facts, and the words come from the one catalogue, core.notices (in
the app, in the email, in the text message). A notice of a kind may also go out by email and
text: the notifications app subscribes to KindNoticeWritten, records one delivery per person and
channel they chose, and sends them from Celery once the transaction has committed. `key` names
the event when the same thing could be noticed twice (a scheduled reminder).

The kinds and who hears each (AUDIENCE) are declared in core.notices.kinds (re-exported here),
resolved to people by circles.notices.notice_send, never chosen by the code that sends it; each
person is told in the words of their part (`roles`: the payer is thanked, the other organizers read "Clara paid").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import translation

from core import notices
from core.events import KindNoticeWritten, SystemNoticeWritten, publish
from core.notices.kinds import AUDIENCE, Audience, NoticeKind

__all__ = ["AUDIENCE", "Audience", "NoticeKind", "notify"]


def notify(
    *,
    receivers: Iterable[Any],
    notice: str,
    facts: Mapping[str, Any] | None = None,
    booking: models.Model | None = None,
    key: str = "",
    roles: Mapping[int, str] | None = None,
) -> None:
    """Tell each receiver of a notice, inside the caller's transaction, in the catalogue's words
    (core.notices) for the part they play (`roles`: user id -> Audience; none: everyone's words).

    In the app always; a notice of a kind (NoticeKind) also by email and text, as each chose: its
    facts are kept with it (the email and the text are written from them when they are sent)."""
    receivers, roles, facts = list(receivers), dict(roles or {}), dict(facts or {})
    # Kept with the notice (the email and text are written again in each reader's language).
    with translation.override(settings.LANGUAGE_CODE):
        words = notices.texts(notice, facts)
    # In the app, each receiver reads it in their own language (User.language).
    in_language: dict[str, notices.Texts] = {settings.LANGUAGE_CODE: words}
    by_text: dict[str, list[Any]] = {}
    for user in receivers:
        language = getattr(user, "language", "") or settings.LANGUAGE_CODE
        if language not in in_language:
            with translation.override(language):
                in_language[language] = notices.texts(notice, facts)
        own = notices.text_for(in_language[language], user_id=user.pk, role=roles.get(user.pk, ""))
        by_text.setdefault(own, []).append(user)
    for text, group in by_text.items() or [(words[""], [])]:
        publish(SystemNoticeWritten(receivers=tuple(group), content=text, booking=booking))
    if notice in NoticeKind.values:
        context = {**facts, "roles": {str(pk): role for pk, role in roles.items()}, "texts": words} if roles else facts
        publish(
            KindNoticeWritten(
                receivers=tuple(receivers), content=words[""], booking=booking, kind=notice, key=key, context=context
            )
        )
