"""What requests_app asks of a request's bookings, whose table belongs to the app above (bookings).

This app never imports bookings nor reads its table through ServiceRequest.bookings: it asks
these ports, answered by bookings.selectors and plugged in by marketplace/ports.py (core.ports
says why). Each answer is an expression for a query of requests: the request is the outer row
(OuterRef("pk")), so a list stays one query.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

from core.ports import Port

if TYPE_CHECKING:
    from django.db.models import Exists, Subquery

# shown_booking(field): Subquery() of one field ("id", "provider__user_id") of the booking the
# request shows: its next visit still ahead, else its last one (a series has one per visit);
# NULL when it has none.
shown_booking: Port[[str], Subquery] = Port("requests_app.ports.shown_booking")

# booked_with(user_id): Exists(): the request has a booking (any status) whose helper is this user.
booked_with: Port[[object], Exists] = Port("requests_app.ports.booked_with")

# address_held_by(user_id, now): Exists(): the request has a booking whose helper is this user and
# who still holds the address (selectors.booking_holds_address, as a query).
address_held_by: Port[[object, dt.datetime], Exists] = Port("requests_app.ports.address_held_by")

# request_of_booking(booking_id): Subquery() of the id of that booking's request ("Book again").
request_of_booking: Port[[int], Subquery] = Port("requests_app.ports.request_of_booking")

__all__ = ["address_held_by", "booked_with", "request_of_booking", "shown_booking"]
