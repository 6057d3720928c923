"""Celery tasks of requests. Thin: they call requests_app.services."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from requests_app import selectors, services


@shared_task(name="requests_app.tasks.open_lapsed_direct_requests")
def open_lapsed_direct_requests() -> int:
    """Beat, every minute: direct requests whose 24 hours ended unanswered open to all (the circle is told once)."""
    now = timezone.now()
    return sum(
        services.service_request_open_to_all(service_request_id=pk, now=now)
        for pk in selectors.service_requests_direct_lapsed(now=now)
    )
