"""System notifications to users, the hook every app may call (ARCHITECTURE.md "Realtime").

The apps below messaging in the dependency order (providers, requests_app, bookings) tell people
about a change through notify(); messaging delivers it (messaging.apps connects
messaging.services.system_notify), so those apps never import messaging. The receiver runs
synchronously, inside the caller's transaction: the notice commits or rolls back with the change.

A notice given a `kind` (see notifications.kinds) may also go out by email and text: the
notifications app listens on the same signal, records one delivery per person and channel they
chose, and sends them from Celery once the transaction has committed. `key` names the event
when the same thing could be noticed twice (a scheduled reminder); `context` carries what the
email shows beyond the booking (e.g. a refund amount).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.dispatch import Signal


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


# Sent with receivers (users), content (text) and booking (a bookings.Booking or None).
system_notification = Signal()
# Sent for a notice with a kind, with receivers, content, booking, kind, key and context: the
# notifications app records its email and text deliveries (inside the caller's transaction too).
notification_event = Signal()


def notify(
    *,
    receivers: Iterable[Any],
    content: str,
    booking: models.Model | None = None,
    kind: str = "",
    key: str = "",
    context: dict[str, Any] | None = None,
) -> None:
    """Send a system notification to each receiver, inside the caller's transaction."""
    receivers = list(receivers)
    delivered = system_notification.send(sender=None, receivers=receivers, content=content, booking=booking)
    if not delivered:
        raise ImproperlyConfigured("No app delivers system notifications: is messaging in INSTALLED_APPS?")
    if kind:
        notification_event.send(
            sender=None,
            receivers=receivers,
            content=content,
            booking=booking,
            kind=kind,
            key=key,
            context=context or {},
        )
