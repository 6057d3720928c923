"""manage.py retry_refunds [--dry-run] [--booking ID ...]: send again the refunds that failed or were never sent."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from payments.models import Refund
from payments.refunds import booking_refund_retry
from payments.selectors import REFUND_UNANSWERED_AFTER, refunds_to_retry

OUTCOMES = {
    "succeeded": "refunded in full",
    "pending": "accepted by the gateway; its webhook confirms it",
    "awaiting": "already accepted by the gateway; waiting for its webhook, nothing sent",
    "failed": "failed again",
    "ignored": "nothing to retry (not failed or pending)",
}


class Command(BaseCommand):
    help = (
        "Retry the full refunds of cancelled, paid bookings that the payment gateway refused or never "
        "answered: refundStatus failed, or pending with no answer for "
        f"{int(REFUND_UNANSWERED_AFTER.total_seconds() // 60)} minutes. A failed refund is tried again "
        "with a new idempotency key; an unanswered one with the same key, so nothing is refunded twice. "
        "Prints each booking's outcome (also logged). Safe to run again; exits 1 if a refund failed again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--dry-run", action="store_true", help="List the refunds that would be retried.")
        parser.add_argument(
            "--booking",
            type=int,
            action="append",
            dest="booking_ids",
            metavar="ID",
            help="Retry only this booking's refund (repeatable), however recent.",
        )

    def handle(self, *args, dry_run: bool = False, booking_ids: list[int] | None = None, **options) -> None:
        if booking_ids:
            refunds = list(Refund.objects.select_related("booking").filter(booking_id__in=booking_ids))
            missing = sorted(set(booking_ids) - {r.booking_id for r in refunds})
            if missing:
                raise CommandError(f"No refund was asked for booking(s) {', '.join(map(str, missing))}.")
        else:
            refunds = list(refunds_to_retry())
        if not refunds:
            self.stdout.write("No refund is waiting to be retried.")
            return
        failed = 0
        for refund in refunds:
            booking = refund.booking
            label = (
                f"booking {booking.pk}: ${booking.total_amount} via {refund.gateway}, "
                f"refund {booking.refund_status} after attempt {refund.attempt}"
            )
            if refund.last_error:
                label += f" ({refund.last_error})"
            if dry_run:
                self.stdout.write(f"would retry {label}")
                continue
            outcome = booking_refund_retry(booking_id=booking.pk)
            if outcome == "failed":
                failed += 1
                refund.refresh_from_db(fields=["last_error"])
                self.stderr.write(f"{label}: {OUTCOMES[outcome]}: {refund.last_error}")
            else:
                self.stdout.write(f"{label}: {OUTCOMES.get(outcome, outcome)}")
        if dry_run:
            self.stdout.write(f"Dry run: {len(refunds)} refund(s) would be retried; nothing was changed.")
            return
        if failed:
            raise CommandError(f"{failed} refund(s) failed again; see above and the log.")
        self.stdout.write(self.style.SUCCESS(f"Retried {len(refunds)} refund(s)."))
