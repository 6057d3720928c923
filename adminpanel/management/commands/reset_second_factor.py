"""manage.py reset_second_factor EMAIL --by ADMIN_EMAIL [--reason TEXT]: remove a staff member's
second-step factors (passkeys, authenticator app, recovery codes), audited."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from adminpanel.services import admin_second_factor_reset
from core.errors import DomainError


class Command(BaseCommand):
    help = (
        "Remove every second-step factor of a staff member who lost them (passkeys, authenticator app, "
        "recovery codes). Their sessions stop counting as confirmed, and they set up a new factor at their "
        "next sign-in. Recorded in the admin audit log under the admin named with --by."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", help="The staff member whose second step is reset.")
        parser.add_argument("--by", required=True, help="Email of the admin who asked for the reset (the audit log's actor).")
        parser.add_argument("--reason", default="", help="Why (kept in the audit log).")

    def handle(self, *args, email: str, by: str, reason: str, **options) -> None:
        actor = User.objects.filter(email__iexact=by.strip()).first()
        if actor is None or not actor.is_admin:
            raise CommandError(f"--by must be the email of an admin account; {by.strip()!r} is not.")
        try:
            removed = admin_second_factor_reset(email=email, actor=actor, reason=reason)
        except DomainError as exc:
            raise CommandError(exc.message) from None
        self.stdout.write(
            self.style.SUCCESS(
                f"The second step of {email.strip()} is reset: {removed['passkeys']} passkey(s), "
                f"{removed['authenticators']} authenticator app(s) and {removed['recoveryCodes']} recovery code(s) "
                "removed. They set up a new one at their next sign-in."
            )
        )
