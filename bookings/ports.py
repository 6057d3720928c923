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
