"""Celery tasks of providers. Thin: they call providers.services."""

from __future__ import annotations

import datetime as dt

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from core.geocoding import GeocoderUnavailable
from providers import selectors, services


@shared_task(name="providers.tasks.place_provider", bind=True, acks_late=True, max_retries=None)
def place_provider(self, provider_id: int) -> str:
    """Place a helper's home (enqueued on commit by providers.services). A geocoder that does not
    answer is asked again with backoff; after GEOCODER_MAX_RETRIES tries she stays "pending" for
    beat's sweep."""
    try:
        return services.provider_place(provider_id=provider_id).outcome
    except GeocoderUnavailable as error:
        if self.request.retries >= settings.GEOCODER_MAX_RETRIES:
            return "unavailable"
        raise self.retry(exc=error, countdown=30 * 2**self.request.retries) from error


@shared_task(name="providers.tasks.place_pending_providers")
def place_pending_providers() -> int:
    """Beat, every 15 minutes: helpers still waiting to be placed (a lost task, a service that was down)."""
    ids = selectors.providers_to_place(before=timezone.now() - dt.timedelta(minutes=5))
    for pk in ids:
        place_provider.delay(pk)
    return len(ids)
