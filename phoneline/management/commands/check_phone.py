"""manage.py check_phone [--twilio]: are Kindly's phone lines set up right? The settings, and with
--twilio each pool number as Twilio holds it (on this account, its webhooks pointing here)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from phoneline import checks
from phoneline.selectors import phone_set_up


class Command(BaseCommand):
    help = "Check the Twilio settings of Kindly's phone lines (--twilio: and each number's webhooks at Twilio)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--twilio", action="store_true", help="Also ask Twilio about each pool number.")

    def handle(self, *args, twilio: bool = False, **options) -> None:
        problems = checks.setting_problems()
        if twilio and not problems and phone_set_up():
            problems += checks.twilio_problems()
        for problem in problems:
            self.stderr.write(f"- {problem}")
        if problems:
            raise CommandError(f"{len(problems)} problem(s) with the phone lines.")
        self.stdout.write(checks.summary())
        if phone_set_up():
            for field, url in checks.webhook_urls().items():
                self.stdout.write(f"  {field}: {url}")
