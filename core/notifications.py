"""System notifications to users, the hook every app may call (ARCHITECTURE.md "Realtime").

The apps below messaging in the dependency order (providers, requests_app, bookings) tell people
about a change through notify(); it publishes a SystemNoticeWritten event that messaging delivers
(marketplace/subscribers.py), so those apps never import messaging. The subscriber runs
synchronously, inside the caller's transaction: the notice commits or rolls back with the change.

A notice's words are never written by its sender: it passes the notice (a NoticeKind below, or an
in-app-only notice) and its facts, and the words come from the one catalogue, core.notices (in
the app, in the email, in the text message). A notice of a kind may also go out by email and
text: the notifications app subscribes to KindNoticeWritten, records one delivery per person and
channel they chose, and sends them from Celery once the transaction has committed. `key` names
the event when the same thing could be noticed twice (a scheduled reminder).

Who hears of a notice is declared once per kind (AUDIENCE below) and resolved to people by
circles.notices.notice_send, never chosen by the code that sends it; each person is told in the
words of their part (`roles`: the payer is thanked, the other organizers read "Clara paid").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models

from core.events import KindNoticeWritten, SystemNoticeWritten, publish


class NoticeKind(models.TextChoices):
    """The kinds of notice that may also go out by email and text (the notifications app's choices)."""

    # client
    REQUEST_ACCEPTED = "request_accepted", "Your request was accepted"
    PAYMENT_RECEIVED = "payment_received", "Payment receipts"
    BOOKING_REASSIGNED = "booking_reassigned", "Your booking has a new provider"
    REQUEST_EXPIRED = "request_expired", "A request ended without a provider"
    VISIT_UPDATES = "visit_updates", "Check-ins and visit reports"
    CIRCLE_JOINED = "circle_joined", "Someone joined a care circle you organize"
    DIRECT_REQUEST_DECLINED = "direct_request_declined", "A helper you asked for declined"
    DIRECT_REQUEST_OPENED = "direct_request_opened", "A helper you asked for did not answer in 24 hours"
    # provider
    APPLICATION_DECIDED = "application_decided", "Your provider application was reviewed"
    NEW_REQUESTS = "new_requests", "New requests that match your services"
    BOOKING_PAID = "booking_paid", "A booking was paid (confirmed)"
    DIRECT_REQUEST = "direct_request", "A client asked for you directly"
    # both
    BOOKING_CANCELLED = "booking_cancelled", "A booking was cancelled"
    VISIT_REMINDER = "visit_reminder", "Visit reminders, 24 hours before"
    UNREAD_MESSAGES = "unread_messages", "Messages you have not read for 10 minutes"
    # the circle and admins
    VISIT_ALERTS = "visit_alerts", "A visit is late or looks missed"
    # admins
    PROVIDER_APPLICATIONS = "provider_applications", "Provider applications waiting for review (daily)"
    # an address that may have no account yet (not a choice in anyone's settings)
    CIRCLE_INVITATION = "circle_invitation", "Invitations to a care circle"


class Audience(models.TextChoices):
    """A part a person plays for a notice; each kind names the parts it reaches, in order of precedence
    (a person in two parts hears in the words of the first)."""

    PAYER = "payer", "The person who paid"
    ORGANIZERS = "organizers", "The organizers of the care circle"
    CIRCLE = "circle", "Everyone in the care circle"
    HELPER = "helper", "The helper concerned (the booking's provider, the one asked, the applicant)"
    STAFF = "staff", "Kindly staff"
    ADDRESSEE = "addressee", "The person a message was written to"
    INVITEE = "invitee", "The address invited to a care circle"


A = Audience
# The one declaration of who hears of each kind (and so who may choose it in their settings).
# Money news goes to those who pay (the payer, then the other organizers), never to plain members;
# news of the visit itself goes to the whole circle; the helper hears of her own work only.
AUDIENCE: dict[str, tuple[Audience, ...]] = {
    NoticeKind.REQUEST_ACCEPTED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.PAYMENT_RECEIVED: (A.PAYER, A.ORGANIZERS),
    NoticeKind.BOOKING_REASSIGNED: (A.HELPER, A.CIRCLE),
    NoticeKind.REQUEST_EXPIRED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.VISIT_UPDATES: (A.CIRCLE,),
    NoticeKind.CIRCLE_JOINED: (A.ORGANIZERS,),
    NoticeKind.DIRECT_REQUEST_DECLINED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.DIRECT_REQUEST_OPENED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.APPLICATION_DECIDED: (A.HELPER,),
    NoticeKind.NEW_REQUESTS: (A.HELPER,),
    NoticeKind.BOOKING_PAID: (A.HELPER,),
    NoticeKind.DIRECT_REQUEST: (A.HELPER,),
    NoticeKind.BOOKING_CANCELLED: (A.HELPER, A.ORGANIZERS, A.CIRCLE),
    NoticeKind.VISIT_REMINDER: (A.HELPER, A.CIRCLE),
    NoticeKind.UNREAD_MESSAGES: (A.ADDRESSEE,),
    NoticeKind.VISIT_ALERTS: (A.CIRCLE, A.STAFF),
    NoticeKind.PROVIDER_APPLICATIONS: (A.STAFF,),
    NoticeKind.CIRCLE_INVITATION: (A.INVITEE,),
}
del A
_undeclared = set(NoticeKind.values) - set(AUDIENCE)
if _undeclared:  # a new kind must say who hears of it before anything can send it
    raise ImproperlyConfigured(f"Notice kinds without an audience: {sorted(_undeclared)}")


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
    from core import notices  # the catalogue reads the kinds and parts declared above

    receivers, roles, facts = list(receivers), dict(roles or {}), dict(facts or {})
    words = notices.texts(notice, facts)
    by_text: dict[str, list[Any]] = {}
    for user in receivers:
        by_text.setdefault(notices.text_for(words, user_id=user.pk, role=roles.get(user.pk, "")), []).append(user)
    for text, group in by_text.items() or [(words[""], [])]:
        publish(SystemNoticeWritten(receivers=tuple(group), content=text, booking=booking))
    if notice in NoticeKind.values:
        context = {**facts, "roles": {str(pk): role for pk, role in roles.items()}, "texts": words} if roles else facts
        publish(
            KindNoticeWritten(
                receivers=tuple(receivers), content=words[""], booking=booking, kind=notice, key=key, context=context
            )
        )
