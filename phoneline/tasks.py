"""Celery tasks (thin: they call services). Beat runs reminder_calls (settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from phoneline import selectors, services


@shared_task(name="phoneline.tasks.reminder_calls")
def reminder_calls() -> int:
    """Call (or text) each care recipient whose visit is tomorrow, in her evening window."""
    if not selectors.phone_menu_set_up() or not settings.TWILIO_ACCOUNT_SID:
        return 0
    now = timezone.now()
    sent = 0
    for booking_id in selectors.reminders_due(now=now):
        # A text to a number that answered STOP, or in quiet hours, is not sent (notifications).
        if services.reminder_send(booking_id=booking_id, now=now, site=settings.SITE_URL.rstrip("/")) in (
            "called",
            "texted",
        ):
            sent += 1
    return sent
