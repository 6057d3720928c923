"""manage.py expire_stale_requests [--dry-run]: cancel open requests whose preferred date has
passed (beat runs it daily: expire-stale-requests)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from requests_app.selectors import service_requests_stale
from requests_app.services import service_request_expire


class Command(BaseCommand):
    help = (
        "Cancel every open service request whose preferred date is before today in the site time zone "
        "(SITE_TIME_ZONE), so providers no longer see it; each client gets a system notification "
        "saying so. Booked, completed and cancelled requests are left alone. Safe to run again. "
        "Celery beat runs it daily shortly after midnight site time (expire-stale-requests); run it "
        "by hand only to catch up."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run", action="store_true", help="List the requests that would be cancelled; change nothing."
        )

    def handle(self, *args, dry_run: bool = False, **options) -> None:
        today = timezone.localdate()
        stale = list(service_requests_stale(today=today).values_list("pk", "preferred_date", "title"))
        if not stale:
            self.stdout.write(f"No open request has a preferred date before {today:%Y-%m-%d}.")
            return
        cancelled = 0
        for pk, preferred_date, title in stale:
            if dry_run:
                self.stdout.write(f'would cancel request {pk} "{title}" (preferred date {preferred_date:%Y-%m-%d})')
            elif service_request_expire(service_request_id=pk, today=today):
                cancelled += 1
                self.stdout.write(f'cancelled request {pk} "{title}" (preferred date {preferred_date:%Y-%m-%d})')
        if dry_run:
            self.stdout.write(f"Dry run: {len(stale)} request(s) would be cancelled; nothing was changed.")
        else:
            self.stdout.write(self.style.SUCCESS(f"Cancelled {cancelled} stale request(s)."))
