"""What bookings asks of the tables of the apps above it (payments), without importing them.

Answered by payments.selectors and plugged in by marketplace/ports.py (core.ports says why).
"""

from __future__ import annotations

from typing import Any

from core.ports import Port

# auto_charges_of(booking_ids=, viewer=): {booking id: the visit's automatic charge to a saved card as
# the viewer may read it ({"state", "note"}), or None (none, or not the viewer's to know)}, for a whole
# list at once.
auto_charges_of: Port[..., dict[int, dict[str, Any] | None]] = Port("bookings.ports.auto_charges_of")

# late_fees_of(booking_ids=, viewer=): {booking id: the cancelled visit's late fee as its family card
# says it ({"amount", "state", "text", "disputeUrl"}), or None (no fee, or not the viewer's money
# news: only the organizers of the recipient's circle read it)}, for a whole list at once.
late_fees_of: Port[..., dict[int, dict[str, Any] | None]] = Port("bookings.ports.late_fees_of")
