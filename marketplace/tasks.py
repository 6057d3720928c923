"""Scheduled operator jobs (beat replaces the cron lines of docs/deploy.md; the commands stay)."""

from __future__ import annotations

from celery import shared_task
from django.core.management import call_command

# Only these may be run from the schedule.
OPERATOR_COMMANDS = {"expire_stale_requests", "purge_closed_accounts", "clearsessions"}


@shared_task(name="marketplace.tasks.run_operator_command")
def run_operator_command(command: str, *args: str) -> None:
    """Run one of the daily operator commands, exactly as an operator would (a failure fails the task)."""
    if command not in OPERATOR_COMMANDS:
        raise ValueError(f"{command} is not a scheduled operator command.")
    call_command(command, *args)
