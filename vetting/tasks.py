"""Vetting's outside calls on Celery (thin: they call vetting.services). Each is enqueued after the
commit that asked for it, acknowledged late, safe to run twice (idempotency keys), and tried again
with backoff while the service cannot be reached (VETTING_RETRY_BASE x 2^try, at most
VETTING_RETRY_CAP): the applicant sees "we will keep trying" meanwhile."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from vetting import services


def retry_countdown(retries: int) -> float:
    return min(settings.VETTING_RETRY_BASE * (2**retries), settings.VETTING_RETRY_CAP)


@shared_task(bind=True, name="vetting.tasks.create_identity_session", acks_late=True, max_retries=None)
def create_identity_session(self, check_id: int) -> str:
    outcome = services.identity_session_create(check_id=check_id)
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="vetting.tasks.fetch_identity_outputs", acks_late=True, max_retries=None)
def fetch_identity_outputs(self, check_id: int) -> str:
    outcome = services.identity_outputs_save(check_id=check_id)
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(bind=True, name="vetting.tasks.create_invitation", acks_late=True, max_retries=None)
def create_invitation(self, check_id: int) -> str:
    outcome = services.background_invitation_create(check_id=check_id)
    if outcome == "retry":
        raise self.retry(countdown=retry_countdown(self.request.retries))
    return outcome


@shared_task(name="vetting.tasks.check_renewals", acks_late=True)
def check_renewals() -> int:
    """Beat, hourly: ask each verified provider whose checks expire within 30 days to renew."""
    return services.checks_renewals_start()
