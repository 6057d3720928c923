"""Receipts families can file: one per paid visit (PDF) and a monthly statement per person cared
for (PDF and CSV), for long-term-care insurers and taxes (docs/payments.md "Receipts").

Every amount is read from the stored payment records, never recomputed from rates:
- paid: the visit's `Earning.gross` (what the card was charged, recorded when the payment succeeded);
- Kindly's fee: `Earning.fee`, the part of that price Kindly keeps (included, not added);
- late fee: a `LateFee` kept from the refund (not when waived);
- refunded: a succeeded refund (`Refund.amount`, or the whole payment when it has none) plus a
  late fee waived after a dispute and refunded on its own (`LateFee.refund_id`);
- tips: a paid `Tip` (pending transfer, on its way to the helper, or refunded with the visit:
  then its refund is counted in refunded too); one not charged yet, or declined, is not money paid.
- net: paid - refunded + tips, what the family paid in the end.

Who may download: the organizers of the person's circle, the people who pay. A plain member of the
circle sees the visits but gets no money news (the notices' rule, core.notices.kinds), so a
receipt or a statement is a 403 for her; for anyone outside the circle (the helper included, who
reads her own side on /earnings) it does not exist: 404.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_lazy, pgettext

from bookings.models import Booking, BookingStatus, PaymentStatus, RefundStatus
from circles.selectors import is_organizer, recipient_get
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.pdf import render_html, render_pdf
from payments.models import Earning, LateFeeState, Tip, TipState

if TYPE_CHECKING:
    from accounts.models import User
    from circles.models import CareRecipient

ZERO = Decimal("0.00")
ORGANIZERS_ONLY = gettext_lazy(
    "Receipts and statements are for the organizers of this care circle, who pay for the visits."
)
NOT_PAID = gettext_lazy("This visit has not been paid, so it has no receipt yet.")
MONTH_FORMAT = gettext_lazy("Choose a month as YYYY-MM, for example 2026-11.")

CSV_HEADER = [
    "Visit date",
    "Receipt number",
    "Person cared for",
    "Helper",
    "Service",
    "Hours",
    "Paid",
    "Kindly fee (included)",
    "Late cancellation fee",
    "Tip",
    "Refunded",
    "Net paid",
    "Status",
]


@dataclass(frozen=True)
class ReceiptLine:
    """One paid visit as a receipt and a statement row say it (amounts from the stored records)."""

    booking_id: int
    number: str
    visit_date: dt.date
    window: str
    paid_on: dt.date
    recipient: str
    helper: str
    service: str
    hours: Decimal
    paid: Decimal
    kindly_fee: Decimal
    late_fee: Decimal
    tip: Decimal
    refunded: Decimal
    refund_pending: bool
    status: str
    payer: str

    @property
    def net(self) -> Decimal:
        return self.paid - self.refunded + self.tip


PAID_TIP_STATES = [TipState.PENDING, TipState.ON_ITS_WAY, TipState.REFUNDED]


def tip_of(booking: Booking) -> Decimal:
    """The visit's tip as paid by the family ($0.00 without one, or while its card is not charged)."""
    return _tip_amounts(booking)[0]


def _tip_amounts(booking: Booking) -> tuple[Decimal, Decimal]:
    """The visit's tip as paid, and as refunded with the visit (payments.tips: the refund rule)."""
    tip = Tip.objects.filter(booking=booking, state__in=PAID_TIP_STATES).values("amount", "refunded_at").first()
    if tip is None:
        return ZERO, ZERO
    return tip["amount"], tip["amount"] if tip["refunded_at"] is not None else ZERO


def _status_words(booking: Booking, refunded: Decimal, late_fee: Decimal) -> str:
    if booking.status == BookingStatus.CANCELLED:
        if late_fee:
            return gettext("Cancelled late: the late fee was kept, the rest refunded")
        return gettext("Cancelled: refunded") if refunded else gettext("Cancelled")
    if booking.status == BookingStatus.COMPLETED:
        return gettext("Visit made")
    return gettext("Paid: the visit is ahead")


def receipt_line(booking: Booking) -> ReceiptLine:
    """The receipt of one paid visit. The booking comes with its earning, refund, late fee and
    payment intent (payment_records)."""
    earning: Earning = booking.earning
    paid = earning.gross
    late = getattr(booking, "late_fee", None)
    late_fee = late.amount if late is not None and late.state != LateFeeState.WAIVED else ZERO
    refunded = ZERO
    refund = getattr(booking, "refund", None)
    refund_pending = False
    if booking.refund_status == RefundStatus.SUCCEEDED:
        refunded = refund.amount if refund is not None and refund.amount is not None else paid
    elif booking.refund_status in (RefundStatus.PENDING, RefundStatus.FAILED):
        refund_pending = True
    if late is not None and late.state == LateFeeState.WAIVED and late.refund_id:
        refunded += late.amount  # waived after a dispute: the fee went back by a refund of its own
    tip, tip_refunded = _tip_amounts(booking)
    refunded += tip_refunded  # a tip refunded with the visit, by a refund of its own
    intent = getattr(booking, "payment_intent", None)
    payer = intent.payer if intent is not None else None
    category = booking.service_request.category
    return ReceiptLine(
        booking_id=booking.pk,
        number=f"K-{booking.pk:06d}",
        visit_date=booking.scheduled_date,
        window=booking.get_scheduled_time_display(),
        paid_on=timezone.localtime(earning.created_at, booking.time_zone).date(),
        recipient=booking.recipient.full_name,
        helper=booking.provider.user.full_name,
        service=category.display_name if category else booking.service_request.title,
        hours=(Decimal(booking.duration) / 60).quantize(Decimal("0.01")),
        paid=paid,
        kindly_fee=earning.fee,
        late_fee=late_fee,
        tip=tip,
        refunded=refunded,
        refund_pending=refund_pending,
        status=_status_words(booking, refunded, late_fee),
        payer=(payer.full_name or payer.email) if payer is not None else "",
    )


def payment_records():
    """Paid (or since refunded) bookings with every record a receipt reads, in a fixed number of queries."""
    return Booking.objects.filter(
        payment_status__in=[PaymentStatus.PAID, PaymentStatus.REFUNDED], earning__isnull=False
    ).select_related(
        "earning",
        "refund",
        "late_fee",
        "recipient",
        "provider__user",
        "service_request__category",
        "payment_intent__payer",
    )


def _check_organizer(user: User, recipient_id: int) -> None:
    if not is_organizer(user_id=user.pk, recipient_id=recipient_id):
        raise PermissionDenied(ORGANIZERS_ONLY)


def receipt_get(*, user: User, booking_id: int) -> ReceiptLine:
    """The receipt of a visit of the user's circle: 404 outside the circle, 403 for a plain member,
    409 while the visit is unpaid."""
    booking = Booking.objects.filter(pk=booking_id).only("pk", "recipient_id").first()
    if booking is None:
        raise NotFound(gettext("Booking not found."))
    recipient_get(user=user, pk=booking.recipient_id)  # 404 outside the circle
    _check_organizer(user, booking.recipient_id)
    paid = payment_records().filter(pk=booking_id).first()
    if paid is None:
        raise Conflict(NOT_PAID)
    return receipt_line(paid)


def receipt_for_booking(booking_id: int) -> ReceiptLine | None:
    """The receipt of a paid visit, for its receipt email (the audience is the notice's)."""
    paid = payment_records().filter(pk=booking_id).first()
    return receipt_line(paid) if paid is not None else None


def _month(month: str) -> tuple[dt.date, dt.date]:
    try:
        first = dt.datetime.strptime(month or "", "%Y-%m").date()
    except ValueError:
        raise InvalidInput(MONTH_FORMAT, errors={"month": [MONTH_FORMAT]}) from None
    return first, (first + dt.timedelta(days=32)).replace(day=1)


@dataclass(frozen=True)
class Statement:
    recipient: CareRecipient
    month: dt.date
    lines: list[ReceiptLine]

    def total(self, name: str) -> Decimal:
        return sum((getattr(line, name) for line in self.lines), ZERO)

    @property
    def totals(self) -> dict[str, Decimal]:
        names = ("hours", "paid", "kindly_fee", "late_fee", "tip", "refunded", "net")
        return {name: self.total(name) for name in names}

    @property
    def label(self) -> str:
        """The month in the reader's words ("November 2026", "noviembre de 2026")."""
        return date_format(self.month, pgettext("month and year", "F Y"))

    @property
    def slug(self) -> str:
        return f"{self.month:%Y-%m}"


def statement_get(*, user: User, recipient_id: object, month: str) -> Statement:
    """The paid visits of one person cared for whose date falls in the month, oldest first: 404
    outside the circle, 403 for a plain member, 400 for a month not read."""
    recipient = recipient_get(user=user, pk=recipient_id)
    _check_organizer(user, recipient.pk)
    first, after = _month(month)
    bookings = (
        payment_records()
        .filter(recipient_id=recipient.pk, scheduled_date__gte=first, scheduled_date__lt=after)
        .order_by("scheduled_date", "starts_at", "id")
    )
    return Statement(recipient=recipient, month=first, lines=[receipt_line(b) for b in bookings])


# ---------------------------------------------------------------- the documents


def _cell(value: str) -> str:
    """A leading =, +, - or @ would be read as a formula by spreadsheets."""
    return "'" + value if value[:1] in ("=", "+", "-", "@") else value


def statement_csv(statement: Statement) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for line in statement.lines:
        writer.writerow(
            [
                line.visit_date.isoformat(),
                line.number,
                _cell(line.recipient),
                _cell(line.helper),
                _cell(line.service),
                f"{line.hours}",
                f"{line.paid}",
                f"{line.kindly_fee}",
                f"{line.late_fee}",
                f"{line.tip}",
                f"{line.refunded}",
                f"{line.net}",
                line.status,
            ]
        )
    totals = statement.totals
    writer.writerow(
        [
            "Total",
            "",
            "",
            "",
            "",
            f"{totals['hours']}",
            f"{totals['paid']}",
            f"{totals['kindly_fee']}",
            f"{totals['late_fee']}",
            f"{totals['tip']}",
            f"{totals['refunded']}",
            f"{totals['net']}",
            "",
        ]
    )
    return out.getvalue()


def _issued() -> dt.date:
    return timezone.localdate()


def receipt_context(line: ReceiptLine) -> dict:
    return {"line": line, "issued": _issued()}


def receipt_pdf(line: ReceiptLine) -> bytes:
    return render_pdf("print/receipt.html", receipt_context(line))


def statement_context(statement: Statement) -> dict:
    return {"statement": statement, "totals": statement.totals, "issued": _issued()}


def statement_html(statement: Statement) -> str:
    return render_html("print/statement.html", statement_context(statement))


def statement_pdf(statement: Statement) -> bytes:
    return render_pdf("print/statement.html", statement_context(statement))


def receipt_filename(line: ReceiptLine) -> str:
    return f"kindly-receipt-{line.number}.pdf"
