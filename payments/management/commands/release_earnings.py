"""manage.py release_earnings: send the providers' shares that wait, and reverse the ones refunded."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from payments.payouts import earnings_release_waiting, earnings_reverse_waiting


class Command(BaseCommand):
    help = (
        "Transfer the provider's share of every completed, paid visit that is still pending (a transfer "
        "that failed, or one that waited for payouts to be set up), and reverse again the transfers of "
        "refunded bookings whose reversal failed. One idempotency key per booking: safe to run again. "
        "Exits 1 if a transfer or reversal failed."
    )

    def handle(self, *args, **options) -> None:
        released = earnings_release_waiting()
        reversed_ = earnings_reverse_waiting()
        for what, outcomes in (("transfers", released), ("reversals", reversed_)):
            summary = ", ".join(f"{count} {outcome}" for outcome, count in sorted(outcomes.items())) or "none waiting"
            self.stdout.write(f"{what}: {summary}")
        failed = released.get("failed", 0) + reversed_.get("failed", 0)
        if failed:
            raise CommandError(f"{failed} transfer(s) or reversal(s) failed; see the log.")
