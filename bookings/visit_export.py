"""The visit record as a spreadsheet: a recipient's visits of one month with the six electronic
visit verification fields (service, person served, date, where (verified or not), helper, start
and end) and how each of the family's tasks went, as CSV and as PDF: the same rows printed by the
library that prints receipts (core.pdf, WeasyPrint)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, pgettext

from bookings.models import Booking
from core.pdf import render_html, render_pdf

if TYPE_CHECKING:
    import datetime as dt

    from circles.models import CareRecipient

# The columns, in the reader's words (the CSV and the PDF alike).
HEADER = [
    gettext_lazy("Date"),
    gettext_lazy("Service"),
    gettext_lazy("Person cared for"),
    gettext_lazy("Helper"),
    gettext_lazy("Check-in"),
    gettext_lazy("Check-in place"),
    gettext_lazy("Check-in reason"),
    gettext_lazy("Check-out"),
    gettext_lazy("Check-out place"),
    gettext_lazy("Check-out reason"),
    gettext_lazy("Tasks done"),
    gettext_lazy("Tasks not done (why)"),
]


def _cell(value: str) -> str:
    """A leading =, +, - or @ would be read as a formula by spreadsheets."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def _place(verified: bool | None, moment) -> str:
    if moment is None:
        return ""
    return {True: gettext("At the home"), False: gettext("Not at the home")}.get(verified, gettext("Not compared"))


def _clock(moment, booking: Booking) -> str:
    return "" if moment is None else f"{timezone.localtime(moment, booking.time_zone):%Y-%m-%d %H:%M %Z}"


def visit_rows(visits: Iterable[Booking]) -> list[list[str]]:
    rows = []
    for visit in visits:
        outcomes = list(visit.task_outcomes.all())
        category = visit.service_request.category
        rows.append(
            [
                visit.scheduled_date.isoformat(),
                category.display_name if category else visit.service_request.title,
                visit.recipient.full_name,
                visit.provider.user.full_name,
                _clock(visit.checked_in_at, visit),
                _place(visit.check_in_verified, visit.checked_in_at),
                visit.check_in_reason,
                _clock(visit.checked_out_at, visit),
                _place(visit.check_out_verified, visit.checked_out_at),
                visit.check_out_reason,
                "; ".join(o.task for o in outcomes if o.done),
                "; ".join(f"{o.task} ({o.reason})" for o in outcomes if not o.done),
            ]
        )
    return rows


def visit_record_csv(visits: Iterable[Booking]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(HEADER)
    for row in visit_rows(visits):
        writer.writerow([_cell(str(value)) for value in row])
    return out.getvalue()


def _record_context(recipient: CareRecipient, month: dt.date, visits: Iterable[Booking]) -> dict:
    return {
        "recipient": recipient,
        "month_label": date_format(month, pgettext("month and year", "F Y")),
        "header": HEADER,
        "rows": visit_rows(visits),
        "issued": timezone.localdate(),
    }


def visit_record_html(recipient: CareRecipient, month: dt.date, visits: Iterable[Booking]) -> str:
    return render_html("print/visit_record.html", _record_context(recipient, month, visits))


def visit_record_pdf(recipient: CareRecipient, month: dt.date, visits: Iterable[Booking]) -> bytes:
    """The visit record as a PDF, the CSV's rows in a table (landscape: twelve columns)."""
    return render_pdf("print/visit_record.html", _record_context(recipient, month, visits))
