"""manage.py purge_closed_accounts [--dry-run] [--days 30]: erase accounts closed long enough ago
(beat runs it daily: purge-closed-accounts)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.selectors import accounts_due_for_purge
from marketplace.account_lifecycle.services import PURGE_AFTER_DAYS, SignInServiceUnavailable, account_purge


class Command(BaseCommand):
    help = (
        "Erase the personal data of accounts closed DAYS (default 30) or more days ago, as the privacy "
        "policy promises: the Firebase sign-in account is deleted; names become 'Former Kindly member', "
        "the email a placeholder (closed-<id>@invalid); emergency contacts, own notifications and "
        "unbooked requests are deleted; sent messages read '[deleted]'. Bookings keep their amounts, "
        "dates, statuses and payment ids, so the other party's history and the money records stay. "
        "Safe to run again (purged accounts are skipped). Celery beat runs it daily (purge-closed-accounts)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="List the accounts that would be purged; change nothing."
        )
        parser.add_argument(
            "--days",
            type=int,
            default=PURGE_AFTER_DAYS,
            help=f"Purge accounts closed at least this many days ago (default {PURGE_AFTER_DAYS}).",
        )

    def handle(self, *args, dry_run: bool = False, days: int = PURGE_AFTER_DAYS, **options) -> None:
        if days < 0:
            raise CommandError("--days must be 0 or more.")
        due = list(accounts_due_for_purge(days=days).values_list("pk", "closed_at"))
        if not due:
            self.stdout.write(f"No account closed {days} or more days ago is waiting to be purged.")
            return
        purged, failed = 0, 0
        for uid, closed_at in due:
            if dry_run:
                self.stdout.write(f"would purge account {uid} (closed {closed_at:%Y-%m-%d %H:%M} UTC)")
                continue
            try:
                done = account_purge(user_id=uid, days=days)
            except SignInServiceUnavailable:
                failed += 1
                self.stderr.write(f"account {uid}: Firebase did not answer; left as it is, the next run retries")
                continue
            if done:
                purged += 1
                self.stdout.write(f"purged account {uid} (closed {closed_at:%Y-%m-%d %H:%M} UTC)")
        if dry_run:
            self.stdout.write(f"Dry run: {len(due)} account(s) would be purged; nothing was changed.")
            return
        self.stdout.write(self.style.SUCCESS(f"Purged {purged} account(s)."))
        if failed:
            raise CommandError(f"{failed} account(s) could not be purged; see above.")
