"""Celery tasks of circles. Thin: they call circles.services."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from circles import selectors, services
from core.geocoding import GeocoderUnavailable


@shared_task(name="circles.tasks.place_recipient", bind=True, acks_late=True, max_retries=None)
def place_recipient(self, recipient_id: int) -> str:
    """Place a care recipient's address (enqueued on commit by circles.services). A geocoder that
    does not answer is asked again with backoff; after GEOCODER_MAX_RETRIES tries the address stays
    "pending" for beat's sweep."""
    try:
        return services.recipient_place(recipient_id=recipient_id).outcome
    except GeocoderUnavailable as error:
        if self.request.retries >= settings.GEOCODER_MAX_RETRIES:
            return "unavailable"
        raise self.retry(exc=error, countdown=30 * 2**self.request.retries) from error


@shared_task(name="circles.tasks.place_pending_recipients")
def place_pending_recipients() -> int:
    """Beat, every 15 minutes: addresses still waiting to be placed (a lost task, a service that was down)."""
    ids = selectors.recipients_to_place(before=timezone.now() - dt.timedelta(minutes=5))
    for pk in ids:
        place_recipient.delay(pk)
    return len(ids)
