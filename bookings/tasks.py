"""Celery tasks of the visit. Thin: they call bookings.services."""

from __future__ import annotations

from celery import shared_task
from django.utils import timezone

from bookings import selectors, services, visit_photo


@shared_task(name="bookings.tasks.raise_visit_alerts")
def raise_visit_alerts() -> int:
    """Beat, every minute: one task per alert due, so every worker process shares the run."""
    due = services.visit_alerts_due(now=timezone.now())
    for booking_id, kind in due:
        raise_visit_alert.delay(booking_id, kind)
    return len(due)


@shared_task(name="bookings.tasks.raise_visit_alert")
def raise_visit_alert(booking_id: int, kind: str) -> bool:
    return services.visit_alert_raise(booking_id=booking_id, kind=kind)


@shared_task(name="bookings.tasks.purge_visit_locations")
def purge_visit_locations() -> int:
    """The check-in points and the visit photos of visits over 90 days old."""
    return services.visit_locations_purge() + visit_photo.visit_photos_purge()


@shared_task(name="bookings.tasks.replacements_due")
def replacements_due() -> int:
    """Beat, every minute: each search for a new helper whose round ran out, whose deadline passed
    or whose visit's time came takes its next step (bookings.services.replacement_offers_send)."""
    now = timezone.now()
    ids = selectors.replacements_due(now=now)
    for pk in ids:
        services.replacement_offers_send(replacement_id=pk, now=now)
    return len(ids)
