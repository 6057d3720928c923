"""What bookings asks of the tables of the apps above it (payments), without importing them.

Answered by payments.selectors and plugged in by marketplace/ports.py (core.ports says why).
"""

from __future__ import annotations

from typing import Any

from core.ports import Port

# auto_charge_of(booking_id=, viewer=): the visit's automatic charge to a saved card as the viewer
# may read it ({"state", "note"}), or None (no automatic charge, or not the viewer's to know).
auto_charge_of: Port[..., dict[str, Any] | None] = Port("bookings.ports.auto_charge_of")
