"""Celery tasks of requests. Thin: they call requests_app.services."""

from __future__ import annotations

import datetime as dt

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


@shared_task(name="requests_app.tasks.offer_request", bind=True, acks_late=True, max_retries=None)
def offer_request(self, service_request_id: int) -> int:
    """A request's next round of offers (enqueued on commit when it is posted; beat's sweep for the
    rounds that follow). While its recipient is being placed, asked again in 30 seconds; the place
    wait ends in services.PLACE_WAIT (then it is offered by town)."""
    sent = services.offers_send(service_request_id=service_request_id)
    if sent == services.WAITING_FOR_PLACE:
        raise self.retry(countdown=30)
    return sent


@shared_task(name="requests_app.tasks.offers_tell", acks_late=True)
def offers_tell(service_request_id: int, round_: int) -> int:
    """The helpers offered a request in this round are told (enqueued when the round commits)."""
    return services.offers_made_tell(service_request_id=service_request_id, round_=round_)


@shared_task(name="requests_app.tasks.offer_due_requests")
def offer_due_requests() -> int:
    """Beat, every minute: requests whose offers ran out of time widen; those never offered (a lost
    task, a slow place) are offered."""
    now = timezone.now()
    ids = selectors.requests_to_offer(now=now, posted_before=now - dt.timedelta(minutes=2))
    for pk in ids:
        offer_request.delay(pk)
    return len(ids)
