"""Celery tasks (thin: they call services). Beat runs the scheduled ones (settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from notifications import services
from notifications.kinds import Frequency


@shared_task(bind=True, name="notifications.tasks.send_delivery", max_retries=None)
def send_delivery(self, delivery_id: int) -> str:
    """Send one delivery; a failure is retried with backoff, and marked failed after the last try."""
    last_try = self.request.retries >= settings.NOTIFICATIONS_MAX_RETRIES
    outcome = services.delivery_send(delivery_id=delivery_id, last_try=last_try)
    if outcome == "retry":
        raise self.retry(countdown=services.retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="notifications.tasks.send_circle_invitation", max_retries=None)
def send_circle_invitation(self, invitation_id: int) -> str:
    """Email a care-circle invitation to its address (once per sending); failures retried with backoff."""
    last_try = self.request.retries >= settings.NOTIFICATIONS_MAX_RETRIES
    outcome = services.circle_invitation_send(invitation_id=invitation_id, last_try=last_try)
    if outcome == "retry":
        raise self.retry(countdown=services.retry_countdown(self.request.retries))
    return outcome


@shared_task(name="notifications.tasks.resend_stuck_deliveries")
def resend_stuck_deliveries() -> int:
    now = timezone.now()
    services.deliveries_settle_abandoned(now=now)
    ids = services.deliveries_stuck(now=now)
    services.deliveries_enqueue(ids)
    invitations = services.circle_invitations_unsent(now=now)
    for invitation_id in invitations:
        send_circle_invitation.delay(invitation_id)
    return len(ids) + len(invitations)


@shared_task(name="notifications.tasks.send_visit_reminders")
def send_visit_reminders() -> int:
    """Beat: one task per visit due a reminder, so that every worker process shares the run."""
    due = services.visit_reminders_due(now=timezone.now())
    for booking_id in due:
        send_visit_reminder.delay(booking_id)
    return len(due)


@shared_task(name="notifications.tasks.send_visit_reminder")
def send_visit_reminder(booking_id: int) -> bool:
    return services.visit_reminder_send(booking_id=booking_id, now=timezone.now())


@shared_task(name="notifications.tasks.send_message_digests")
def send_message_digests() -> int:
    return services.message_digests_send(now=timezone.now())


@shared_task(name="notifications.tasks.send_new_request_notices")
def send_new_request_notices() -> int:
    return services.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT)


@shared_task(name="notifications.tasks.send_new_request_digests")
def send_new_request_digests() -> int:
    return services.new_request_notices_send(now=timezone.now(), frequency=Frequency.DAILY)


@shared_task(name="notifications.tasks.send_provider_application_digest")
def send_provider_application_digest() -> bool:
    return services.provider_application_digest_send(now=timezone.now())
