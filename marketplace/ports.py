"""Every port (core.ports) and the function that answers it, in one place: read this file to know
which app answers a lower app's question about a table it does not own.

Site glue (the top of the app graph): providers and requests_app declare what they ask of the
bookings table in their ports.py and never import bookings; bookings.selectors answers. Loaded once
by marketplace.apps (MarketplaceConfig.ready). marketplace/tests/test_ports.py fails when a port is
left without an answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bookings import ports as booking_ports
from bookings import selectors as bookings
from core.ports import Port
from payments import selectors as payments
from providers import ports as providers
from requests_app import ports as requests
from vetting import selectors as vetting

ANSWERS: dict[Port, Callable[..., Any]] = {
    # Is this helper booked then? The browse filter, its cards' next free window, the lists of open
    # requests she can take, and the 409 of a schedule change that would strand a booked visit.
    providers.busy_at: bookings.provider_busy_at,
    providers.busy_prefetch: bookings.provider_busy_prefetch,
    providers.busy_intervals: bookings.provider_busy_intervals,
    providers.visits_between: bookings.provider_visits_between,
    # How quickly a helper answers offers and how many of her visits she completed (her card's and
    # profile's "Usually answers in 14 min", "Completed 24 of the last 25 visits").
    providers.track_records: bookings.track_records_of,
    # A request's bookings: the one it shows (bookingId, its helper), whether a helper was booked on
    # it (she may open it), whether she still holds its address, and "Book again" from a booking.
    requests.shown_booking: bookings.request_shown_booking,
    requests.booked_with: bookings.request_booked_with,
    requests.address_held_by: bookings.request_address_held_by,
    requests.request_of_booking: bookings.request_of_booking,
    # May this provider be approved? Only with the evidence (a verified identity, a clear or
    # adjudicated report): asked by providers.services.provider_set_status.
    providers.approval_problem: vetting.approval_problem,
    # A visit's automatic charge to a saved card, as its viewer may read it (the booking's autoCharge).
    booking_ports.auto_charges_of: payments.auto_charges_of,
    # A cancelled visit's late fee on the family's card ("Late cancellation fee: $30.00, paid to Vera").
    booking_ports.late_fees_of: payments.late_fees_of,
}


def plug() -> None:
    """Plug every answer above into its port (idempotent)."""
    for port, answer in ANSWERS.items():
        port.plug(answer)
