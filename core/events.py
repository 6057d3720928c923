"""Domain events: what happened, told by the app it happened in to the apps above it.

A lower app (circles, bookings, the notify() hook every app may call) cannot import the apps
that react (payments, messaging, notifications): the app graph is one-way. So it publishes one
of the frozen dataclasses below with publish(), and the subscribers listed in ONE module,
marketplace/subscribers.py (site glue, loaded by marketplace.apps), react. "What happens after a
cancel?" is answered by reading that file.

Each subscription says when it runs:
  - IN_TRANSACTION: at once, inside the publisher's transaction: what it writes commits or rolls
    back with the change (a system notice, a refund's record). It may schedule outside calls on
    commit itself; it never makes one.
  - ON_COMMIT: once the publisher's transaction has committed (at once outside one), robust: an
    error there is logged and never turns a committed change into an error page. A rolled-back
    change publishes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

from django.core.exceptions import ImproperlyConfigured
from django.db import models, transaction


class When(enum.Enum):
    IN_TRANSACTION = "in_transaction"
    ON_COMMIT = "on_commit"


class DomainEvent:
    """Base of every event (a frozen dataclass); marketplace.subscribers lists who hears each."""


# ---------------------------------------------------------------- circles


@dataclass(frozen=True)
class CircleMemberRemoved(DomainEvent):
    """Someone left or was removed from a care circle (or closed their account)."""

    recipient_id: int
    user_id: Any  # accounts.User's primary key


@dataclass(frozen=True)
class CircleInvitationSent(DomainEvent):
    """An invitation to a care circle was made or renewed: the invited address is emailed."""

    invitation_id: int


@dataclass(frozen=True)
class RecipientTimeZoneChanged(DomainEvent):
    """The person cared for now lives in another time zone (her address's ZIP code is in it): the
    visits still ahead keep their date and window on her new clock."""

    recipient_id: int
    time_zone: str


# ---------------------------------------------------------------- requests


@dataclass(frozen=True)
class ServiceRequestPosted(DomainEvent):
    """A request was posted for the helpers near the person cared for: its offers are to be made
    (requests_app.services.offers_send, from Celery). Published inside the create's transaction."""

    service_request_id: int


@dataclass(frozen=True)
class OffersMade(DomainEvent):
    """A round of offers of a request was made (requests_app.services.offers_send): the helpers
    offered it in that round are to be told (and staff, when it widened), from Celery once the
    round has committed, never inside its transaction (which holds the request's row lock)."""

    service_request_id: int
    round: int


# ---------------------------------------------------------------- bookings


@dataclass(frozen=True)
class RefundRequested(DomainEvent):
    """A paid booking is cancelled and is to be refunded in full. Published inside the cancel's
    transaction, which holds the booking's row lock (its refundStatus is already pending)."""

    booking_id: int


@dataclass(frozen=True)
class LateFeeCharged(DomainEvent):
    """A paid booking was cancelled late (staff, inside 48 hours) or the helper found nobody home:
    `amount` (a decimal string, the policy's, bookings.lifecycle.late_fee_amount) is kept from the
    refund and paid to the helper, unless `waived` (staff said why in `waive_reason`). Published
    inside the cancel's transaction, before its RefundRequested."""

    booking_id: int
    amount: str
    kind: str  # "late_cancel" or "nobody_home"
    waived: bool = False
    waive_reason: str = ""


@dataclass(frozen=True)
class VisitsBooked(DomainEvent):
    """A helper accepted a request: its visits are booked (scheduled, to be paid). Published inside
    the accept's transaction; payments charges the organizer's saved card for each visit of a series
    (or any booking she chose to) after the commit (payments.cards)."""

    booking_ids: tuple[int, ...]
    series: bool


@dataclass(frozen=True)
class BookingCompleted(DomainEvent):
    """The provider marked a paid visit completed. Published inside the completion's transaction."""

    booking_id: int


# ---------------------------------------------------------------- vetting


@dataclass(frozen=True)
class VettingRecorded(DomainEvent):
    """A step of a provider's vetting (a check started, a result received, an adjudication, an
    adverse-action step, a suspension): recorded in the admin audit log inside the same transaction.
    `actor_id` is None when a service said it (a webhook, a beat job)."""

    provider_id: int
    action: str  # adminpanel.models.AuditAction's value
    actor_id: Any = None
    reason: str = ""
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ProviderSuspended(DomainEvent):
    """A re-check that is not clear took a provider off new visits (vetting.services), inside that
    transaction: her upcoming visits are flagged to staff and their families told."""

    provider_id: int
    reason: str


# ---------------------------------------------------------------- notices (core.notifications)


@dataclass(frozen=True)
class SystemNoticeWritten(DomainEvent):
    """A system notice to these people (in the app), inside the transaction of the change it reports."""

    receivers: tuple[Any, ...]
    content: str
    booking: models.Model | None = None


@dataclass(frozen=True)
class KindNoticeWritten(DomainEvent):
    """A notice with a kind (notifications.kinds): it may also go out by email and text."""

    receivers: tuple[Any, ...]
    content: str
    kind: str
    booking: models.Model | None = None
    key: str = ""
    context: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Subscription:
    handler: Callable[[Any], object]
    when: When


# Filled by marketplace.subscribers (and only there): event type -> its subscriptions, in order.
SUBSCRIPTIONS: dict[type[DomainEvent], list[Subscription]] = {}


def subscribe(event_type: type[DomainEvent], handler: Callable[[Any], object], *, when: When) -> None:
    if not (isinstance(event_type, type) and issubclass(event_type, DomainEvent)):
        raise ImproperlyConfigured(f"{event_type!r} is not a domain event")
    subscriptions = SUBSCRIPTIONS.setdefault(event_type, [])
    if all(s.handler is not handler for s in subscriptions):
        subscriptions.append(Subscription(handler=handler, when=when))


def publish(event: DomainEvent) -> None:
    """Tell the subscribers of this event (each at its own When). An event nobody hears is a
    wiring error (a missing app or registry line), never silently dropped."""
    subscriptions = SUBSCRIPTIONS.get(type(event))
    if not subscriptions:
        raise ImproperlyConfigured(
            f"No subscriber for {type(event).__name__}: is it listed in marketplace/subscribers.py?"
        )
    for subscription in subscriptions:
        if subscription.when is When.IN_TRANSACTION:
            subscription.handler(event)
        else:
            transaction.on_commit(partial(subscription.handler, event), robust=True)
