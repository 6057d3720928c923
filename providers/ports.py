"""What providers asks of the booked visits, whose table belongs to the app above (bookings), and
of the offers she answered (requests_app).

A visit holds a helper's time while its booking is scheduled or confirmed. This app never
imports bookings nor reads its table through Provider.bookings: it asks these ports, answered
by bookings.selectors and plugged in by marketplace/ports.py (core.ports says why).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.ports import Port

if TYPE_CHECKING:
    from django.db.models import Exists, Prefetch

# busy_at(start, end): for a query of providers, Exists(): the provider of the outer row
# (OuterRef("pk")) has a visit holding her time that overlaps [start, end). The browse filter.
busy_at: Port[[dt.datetime, dt.datetime], Exists] = Port("providers.ports.busy_at")

# busy_prefetch(start, end): a Prefetch, for a query of providers, of each one's visits holding
# her time that overlap [start, end), as provider.busy_visits (rows with starts_at and ends_at).
busy_prefetch: Port[[dt.datetime, dt.datetime], Prefetch] = Port("providers.ports.busy_prefetch")

# busy_intervals(provider, start=, end=): (start, end) of each visit of hers holding her time that
# overlaps [start, end). What visit_problems is given by the lists of open requests.
busy_intervals: Port[..., list[tuple[dt.datetime, dt.datetime]]] = Port("providers.ports.busy_intervals")

# visits_between(provider, start=, end=): those visits themselves, soonest first, with their
# recipient and client loaded: the 409 that names a visit her new hours or time off would strand.
visits_between: Port[..., list[Any]] = Port("providers.ports.visits_between")

# approval_problem(provider): why this provider cannot be approved yet, in plain words ("" when her
# evidence allows it). The vetting app above answers (vetting.selectors.approval_problem): every approval path
# (the admin API, the Django admin, manage.py) goes through provider_set_status, which asks.
approval_problem: Port[[Any], str] = Port("providers.ports.approval_problem")


@dataclass(frozen=True)
class TrackRecord:
    """What a helper's card and profile say of how she answers and keeps her word: her median time
    to answer an offer over her last offers, in minutes (None: none answered yet), and of her last
    visits the ones she completed (`completed` of `visits`; visits 0: too few to judge, "New helper")."""

    answer_minutes: float | None
    completed: int
    visits: int


# track_records(provider_ids): each helper's TrackRecord ("Usually answers in 14 min", "Completed 24
# of the last 25 visits" on her card and profile), one query per part for the whole page; a helper
# with no answers and too few visits is left out.
track_records: Port[[list[int]], dict[int, TrackRecord]] = Port("providers.ports.track_records")

__all__ = [
    "TrackRecord",
    "approval_problem",
    "busy_at",
    "busy_intervals",
    "busy_prefetch",
    "track_records",
    "visits_between",
]
