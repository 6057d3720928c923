"""manage.py create_admin EMAIL [--password P]: make (or promote) an admin, in Firebase and locally."""

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
        "and the local user with userType admin."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email")
        parser.add_argument("--password", help="Set this password (at least 6 characters).")
        parser.add_argument("--first-name", default="", help="First name (default: kept, or the email's name).")
        parser.add_argument("--last-name", default="")

    def handle(self, *args, email: str, password: str | None, first_name: str, last_name: str, **options) -> None:
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
        generated = None
        if password is None and not firebase_user_exists(email):
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
