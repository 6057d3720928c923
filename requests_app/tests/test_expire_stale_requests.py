"""manage.py expire_stale_requests: open requests whose preferred date has passed (site time zone)
are cancelled with a notification to the client; anything else is left alone."""

from __future__ import annotations

import datetime as dt
import io
import zoneinfo

import pytest
import time_machine
from django.conf import settings
from django.core.management import call_command

from messaging.models import Message
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

SITE = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)
# 9:00 PM on March 9 in New York is already March 10 in UTC: "today" must be the site's date.
NOW = dt.datetime(2026, 3, 9, 21, 0, tzinfo=SITE)


def run(*args: str) -> str:
    out = io.StringIO()
    with time_machine.travel(NOW, tick=False):
        call_command("expire_stale_requests", *args, stdout=out)
    return out.getvalue()


def status(request: ServiceRequest) -> str:
    request.refresh_from_db()
    return request.status


@pytest.fixture
def requests(client_user):
    def make(day: int, **kwargs) -> ServiceRequest:
        return ServiceRequestFactory(client=client_user, preferred_date=dt.date(2026, 3, day), **kwargs)

    return {
        "stale": make(8, title="Yesterday's errand"),
        "today": make(9, title="Today's errand"),
        "future": make(12, title="Next week"),
        "booked": make(1, status=RequestStatus.BOOKED),
        "cancelled": make(2, status=RequestStatus.CANCELLED),
    }


def test_open_requests_with_a_past_date_are_cancelled_and_the_client_told(requests, client_user):
    output = run()

    assert status(requests["stale"]) == RequestStatus.CANCELLED
    assert f'cancelled request {requests["stale"].pk} "Yesterday\'s errand"' in output
    [note] = Message.objects.filter(receiver=client_user, sender__isnull=True)
    assert note.content == (
        'Your request "Yesterday\'s errand" was cancelled because its preferred date (Sunday, March 8) has passed '
        "without a provider accepting it. You are welcome to post it again with a new date."
    )
    # Today in the site's zone, the future, and requests no longer open are untouched.
    assert status(requests["today"]) == RequestStatus.OPEN
    assert status(requests["future"]) == RequestStatus.OPEN
    assert status(requests["booked"]) == RequestStatus.BOOKED
    assert status(requests["cancelled"]) == RequestStatus.CANCELLED


def test_running_again_cancels_and_notifies_nothing_more(requests):
    run()
    messages = Message.objects.count()

    output = run()

    assert "No open request has a preferred date before 2026-03-09" in output
    assert Message.objects.count() == messages


def test_dry_run_lists_and_changes_nothing(requests):
    output = run("--dry-run")

    assert f"would cancel request {requests['stale'].pk}" in output
    assert "nothing was changed" in output
    assert status(requests["stale"]) == RequestStatus.OPEN
    assert not Message.objects.exists()
