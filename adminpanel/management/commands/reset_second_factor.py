"""manage.py reset_second_factor EMAIL --by ADMIN_EMAIL [--reason TEXT] [--dry-run]: remove a staff
member's second-step factors (passkeys, authenticator app, recovery codes), audited."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from accounts.second_factor import second_factor_counts
from adminpanel.services import admin_second_factor_reset, second_factor_reset_target
from core.errors import DomainError


class Command(BaseCommand):
    help = (
        "Remove every second-step factor of a staff member who lost them (passkeys, authenticator app, "
        "recovery codes). Their sessions stop counting as confirmed, and they set up a new factor at their "
        "next sign-in. Recorded in the admin audit log under the admin named with --by."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", help="The staff member whose second step is reset.")
        parser.add_argument(
            "--by", required=True, help="Email of the admin who asked for the reset (the audit log's actor)."
        )
        parser.add_argument("--reason", default="", help="Why (kept in the audit log).")
        parser.add_argument("--dry-run", action="store_true", help="Say what would be removed; change nothing.")

    def handle(self, *args, email: str, by: str, reason: str, dry_run: bool = False, **options) -> None:
        actor = User.objects.filter(email__iexact=by.strip()).first()
        if actor is None or not actor.is_admin:
            raise CommandError(f"--by must be the email of an admin account; {by.strip()!r} is not.")
        try:
            if dry_run:
                counts = second_factor_counts(user=second_factor_reset_target(email=email))
                self.stdout.write(
                    f"would remove {_factors(counts)} of {email.strip()}, recorded as asked by {actor.email}"
                )
                self.stdout.write("Dry run: nothing was changed.")
                return
            removed = admin_second_factor_reset(email=email, actor=actor, reason=reason)
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"The second step of {email.strip()} is reset: {_factors(removed)} removed. "
                "They set up a new one at their next sign-in."
            )
        )


def _factors(counts: dict[str, int]) -> str:
    return (
        f"{counts['passkeys']} passkey(s), {counts['authenticators']} authenticator app(s) "
        f"and {counts['recoveryCodes']} recovery code(s)"
    )
