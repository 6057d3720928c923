"""The 48-hour rule, written once (requests_app.models.still_cancellable): 48 hours of elapsed
time before the visit, whatever the clocks do in between."""

from __future__ import annotations

import datetime as dt
import zoneinfo

from requests_app.models import CANCELLATION_WINDOW, cancel_deadline, still_cancellable

NEW_YORK = zoneinfo.ZoneInfo("America/New_York")
UTC = dt.UTC


def test_a_visit_may_be_cancelled_until_48_hours_before_it_starts():
    start = dt.datetime(2026, 6, 10, 9, 0, tzinfo=NEW_YORK)
    assert still_cancellable(start, start - CANCELLATION_WINDOW)
    assert not still_cancellable(start, start - CANCELLATION_WINDOW + dt.timedelta(seconds=1))
    assert cancel_deadline(start) == dt.datetime(2026, 6, 8, 13, 0, tzinfo=UTC)


def test_the_48_hours_are_elapsed_time_across_a_clock_change():
    # New York springs forward on Sunday 8 March 2026: 10 AM EDT on the 9th is 14:00 UTC, and 48
    # hours before it is 14:00 UTC on the 7th, 9 AM EST (the wall clock's 10 AM would be an hour late).
    start = dt.datetime(2026, 3, 9, 10, 0, tzinfo=NEW_YORK)
    assert cancel_deadline(start) == dt.datetime(2026, 3, 7, 14, 0, tzinfo=UTC)
    assert still_cancellable(start, dt.datetime(2026, 3, 7, 9, 0, tzinfo=NEW_YORK))
    assert not still_cancellable(start, dt.datetime(2026, 3, 7, 9, 30, tzinfo=NEW_YORK))
