"""manage.py create_admin EMAIL [--password P] [--dry-run]: make (or promote) an admin, in Firebase and locally."""

from __future__ import annotations

import secrets

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.core.validators import validate_email

from accounts.firebase import firebase_user_exists, firebase_user_upsert
from accounts.models import User
from accounts.services import user_make_admin


class Command(BaseCommand):
    help = (
        "Create or promote an admin: the Firebase account (emulator or real project, per settings) "
        "and the local user with userType admin. A new Firebase account without --password gets a "
        "one-off password, printed once. Safe to run again."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email")
        parser.add_argument("--password", help="Set this password (at least 6 characters).")
        parser.add_argument("--first-name", default="", help="First name (default: kept, or the email's name).")
        parser.add_argument("--last-name", default="", help="Last name (default: kept, or empty).")
        parser.add_argument(
            "--dry-run", action="store_true", help="Say what would be created or changed; change nothing."
        )

    def handle(
        self,
        *args,
        email: str,
        password: str | None,
        first_name: str,
        last_name: str,
        dry_run: bool = False,
        **options,
    ) -> None:
        email = email.strip().lower()
        try:
            validate_email(email)
        except ValidationError:
            raise CommandError(f"{email!r} is not a valid email address.") from None
        if password is not None and len(password) < 6:
            raise CommandError("The password must be at least 6 characters long.")
        local = User.objects.filter(email__iexact=email).first()
        first = first_name or (local.first_name if local else "") or email.split("@")[0]
        last = last_name or (local.last_name if local else "")
        in_firebase = firebase_user_exists(email)
        if dry_run:
            self._describe(email=email, local=local, in_firebase=in_firebase, password=password)
            return
        generated = None
        if password is None and not in_firebase:
            # A new account needs some way in: print a one-off password.
            generated = password = secrets.token_urlsafe(12)
        uid = firebase_user_upsert(
            email=email,
            password=password,
            display_name=f"{first} {last}".strip(),
            uid=local.pk if local else None,
        )
        user = user_make_admin(uid=uid, email=email, first_name=first, last_name=last)
        self.stdout.write(self.style.SUCCESS(f"{user.email} is an admin (uid {user.pk})."))
        if generated:
            self.stdout.write(f"Password: {generated}")

    def _describe(self, *, email: str, local: User | None, in_firebase: bool, password: str | None) -> None:
        if in_firebase:
            change = "update its password" if password else "keep its password"
            self.stdout.write(f"would update the Firebase account {email} ({change})")
        else:
            how = "with the given password" if password else "with a one-off password printed once"
            self.stdout.write(f"would create the Firebase account {email} {how}")
        if local is None:
            self.stdout.write(f"would create the local user {email} as an admin")
        elif local.is_admin:
            self.stdout.write(f"{email} is already an admin locally (uid {local.pk}); would refresh it")
        else:
            self.stdout.write(f"would promote the local user {email} (uid {local.pk}, now {local.user_type}) to admin")
        self.stdout.write("Dry run: nothing was changed.")
