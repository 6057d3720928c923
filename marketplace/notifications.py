"""System notifications to users, the hook every app may call (ARCHITECTURE.md "Realtime").

The apps below messaging in the dependency order (providers, requests_app, bookings) tell people
about a change through notify(); messaging delivers it (messaging.apps connects
messaging.services.system_notify), so those apps never import messaging. The receiver runs
synchronously, inside the caller's transaction: the notice commits or rolls back with the change.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.dispatch import Signal

# Sent with receivers (users), content (text) and booking (a bookings.Booking or None).
system_notification = Signal()


def notify(*, receivers: Iterable[Any], content: str, booking: models.Model | None = None) -> None:
    """Send a system notification to each receiver, inside the caller's transaction."""
    delivered = system_notification.send(sender=None, receivers=list(receivers), content=content, booking=booking)
    if not delivered:
        raise ImproperlyConfigured("No app delivers system notifications: is messaging in INSTALLED_APPS?")
