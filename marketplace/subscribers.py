"""Every subscriber of every domain event (core.events), in one place: read this file to
know what happens after a cancel, a completed visit, a notice, a change in a care circle.

Site glue (the top of the app graph, pyproject's import-linter layers): the apps below publish
events defined in core.events and never import the apps that react; this module maps each
event type to the handler functions of the apps above. Loaded once by marketplace.apps
(MarketplaceConfig.ready). marketplace/tests/test_events.py fails when an event has no subscriber
or a function named on_<event> in an app is not listed here.

IN_TRANSACTION: runs inside the publisher's transaction (commits or rolls back with the change).
ON_COMMIT: runs once that transaction has committed (robust: an error is logged).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from adminpanel import services as adminpanel
from bookings import services as bookings
from core import events
from core.events import When
from messaging import services as messaging
from notifications import services as notifications
from payments import cards, latefees, payouts, refunds
from requests_app import services as requests

REGISTRY: dict[type[events.DomainEvent], list[tuple[Callable[[Any], object], When]]] = {
    # A request was posted: it is offered to the best few helpers near the person cared for, from
    # Celery once the post has committed (requests_app.tasks.offer_request).
    events.ServiceRequestPosted: [(requests.on_service_request_posted, When.ON_COMMIT)],
    # A round of offers was made: the helpers offered it are told (and staff when it widened), from
    # Celery once the round has committed (requests_app.tasks.offers_tell).
    events.OffersMade: [(requests.on_offers_made, When.ON_COMMIT)],
    # A paid booking was cancelled: payments records the refund with the cancel, then refunds it
    # through the gateway from Celery once the cancel has committed (payments.tasks).
    events.RefundRequested: [(refunds.on_refund_requested, When.IN_TRANSACTION)],
    # A late cancel or a nobody-home visit: payments records the helper's late fee (kept from the
    # refund, published just before it) and transfers it from Celery after the commit, or after
    # the family's time for a dispute (payments.latefees).
    events.LateFeeCharged: [(latefees.on_late_fee_charged, When.IN_TRANSACTION)],
    # A paid visit was completed: the provider's share is transferred from Celery after the commit
    # (payments.tasks), or they are reminded to set up payouts (a notice, with the change).
    events.BookingCompleted: [(payouts.on_booking_completed, When.IN_TRANSACTION)],
    # A helper accepted: each visit the organizer's saved card pays (a series', or any booking she
    # chose) gets its charge recorded with the accept, and charged off-session from Celery after it.
    events.VisitsBooked: [(cards.on_visits_booked, When.IN_TRANSACTION)],
    # Someone left a care circle: their open sockets stop getting the circle's live events.
    events.CircleMemberRemoved: [(messaging.on_circle_member_removed, When.ON_COMMIT)],
    # The person cared for moved to another time zone (her ZIP code's): her visits ahead keep their
    # date and window on her new clock, with the address change.
    events.RecipientTimeZoneChanged: [(bookings.on_recipient_time_zone_changed, When.IN_TRANSACTION)],
    # An invitation to a care circle: emailed to the invited address from Celery.
    events.CircleInvitationSent: [(notifications.on_circle_invitation_sent, When.ON_COMMIT)],
    # A system notice (core.notifications.notify): written to each receiver's messages,
    # committing with the change it reports (pushed live on commit by messaging.events).
    events.SystemNoticeWritten: [(messaging.on_system_notice, When.IN_TRANSACTION)],
    # A notice with a kind: its email and text deliveries are recorded with the change, sent from
    # Celery after it (notifications.tasks).
    events.KindNoticeWritten: [(notifications.on_kind_notice, When.IN_TRANSACTION)],
    # A vetting step (a check started, a result, an adjudication, a suspension): in the admin audit
    # log with the change.
    events.VettingRecorded: [(adminpanel.on_vetting_recorded, When.IN_TRANSACTION)],
    # A re-check that is not clear suspended a helper: her upcoming visits are flagged to staff and
    # their families told a replacement is being found, with the suspension.
    events.ProviderSuspended: [(bookings.on_provider_suspended, When.IN_TRANSACTION)],
}


def connect() -> None:
    """Subscribe every handler above (idempotent)."""
    for event_type, handlers in REGISTRY.items():
        for handler, when in handlers:
            events.subscribe(event_type, handler, when=when)
