"""The dates of a series: a request that repeats (weekly, every 2 weeks, monthly) has one visit
per date, each booked as its own booking. Pure date arithmetic (and the dates of a request),
read by the request's rules (requests_app.services.series_problems), its lists and the accept."""

from __future__ import annotations

import calendar
import datetime as dt

from requests_app.models import SERIES_MAX_VISITS, Repeat, ServiceRequest

_REPEAT_STEP_DAYS = {Repeat.WEEKLY: 7, Repeat.EVERY_2_WEEKS: 14}


def _monthly_date(first: dt.date, months_later: int) -> dt.date:
    """The visit `months_later` months after `first`: the same weekday in the same week of the month
    (the 2nd Tuesday stays the 2nd Tuesday); a 5th weekday becomes the last one in months without a 5th."""
    year, month0 = divmod(first.month - 1 + months_later, 12)
    year, month = first.year + year, month0 + 1
    nth = (first.day - 1) // 7  # 0 for the first such weekday of the month
    first_weekday = dt.date(year, month, 1).weekday()
    day = 1 + (first.weekday() - first_weekday) % 7 + 7 * nth
    if day > calendar.monthrange(year, month)[1]:
        day -= 7
    return dt.date(year, month, day)


def _series_date(first: dt.date, repeat: str, k: int) -> dt.date:
    """The date of the visit k places after the first (k = 0 is the first)."""
    if repeat == Repeat.MONTHLY:
        return _monthly_date(first, k)
    return first + dt.timedelta(days=_REPEAT_STEP_DAYS[repeat] * k)


def series_length(first: dt.date, repeat: str, *, count: int | None = None, until: dt.date | None = None) -> int:
    """How many visits the series has: `count`, or as many as fall on or before `until` (worked out,
    not counted one by one, so an end date years ahead costs nothing)."""
    if count is not None:
        return count
    if until is None or until < first:
        return 1 if until is None else 0
    if repeat == Repeat.MONTHLY:
        months = (until.year - first.year) * 12 + until.month - first.month
        return months + (1 if _monthly_date(first, months) <= until else 0)
    return (until - first).days // _REPEAT_STEP_DAYS[repeat] + 1


def series_dates(
    first: dt.date, repeat: str, *, count: int | None = None, until: dt.date | None = None
) -> list[dt.date]:
    """The dates of a series' visits, the first one first: every 7 or 14 days, or monthly on the
    same weekday of the same week (Repeat). `count` visits, or those on or before `until`; at most
    SERIES_MAX_VISITS (the rules refuse more: series_problems). Not repeating: [first]."""
    if not repeat:
        return [first]
    n = min(series_length(first, repeat, count=count, until=until), SERIES_MAX_VISITS)
    return [_series_date(first, repeat, k) for k in range(n)]


def request_visit_dates(service_request: ServiceRequest) -> list[dt.date]:
    """The dates of a request's visits (one for a request that does not repeat; none without a date)."""
    if service_request.preferred_date is None:
        return []
    return series_dates(
        service_request.preferred_date,
        service_request.repeat,
        count=service_request.repeat_count,
        until=service_request.repeat_until,
    )
