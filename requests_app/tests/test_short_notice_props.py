"""the request forms learn from their props when a visit would fall inside the
48-hour window in which the app cannot cancel it (the rule bookings.services enforces)."""

import datetime as dt
import zoneinfo

import pytest
import time_machine

from marketplace.testing.pages import island_props
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

WINDOW_STARTS = {"morning": "08:00", "afternoon": "12:00", "evening": "17:00", "flexible": "08:00"}


@pytest.mark.parametrize("page", ["create", "edit"])
def test_the_forms_get_the_cancellation_cutoff_in_site_time(client, client_user, settings, page):
    settings.SITE_TIME_ZONE = "America/New_York"
    own = ServiceRequestFactory(client=client_user)
    url, props_id = {
        "create": ("/request-service", "request-service-props"),
        "edit": (f"/edit-service-request?id={own.pk}", "edit-service-request-props"),
    }[page]
    client.force_login(client_user)
    # 2026-03-06 15:30 UTC is 10:30 in New York; 48 hours on is Sunday 8 March, 11:30 (EDT by then).
    with time_machine.travel(dt.datetime(2026, 3, 6, 15, 30, tzinfo=dt.UTC), tick=False):
        props = island_props(client.get(url), props_id)
    assert props["shortNotice"] == {
        "cancelCutoff": "2026-03-08T11:30",
        "cancelWindowHours": 48,
        "windowStarts": WINDOW_STARTS,
    }


def test_the_cutoff_agrees_with_the_booking_rule(client, client_user):
    """A visit starting at the cutoff may be cancelled; one a minute earlier may not."""
    from requests_app.models import CANCELLATION_WINDOW

    client.force_login(client_user)
    now = dt.datetime(2026, 7, 1, 12, 0, tzinfo=dt.UTC)
    with time_machine.travel(now, tick=False):
        cutoff = island_props(client.get("/request-service"), "request-service-props")["shortNotice"]["cancelCutoff"]
    zone = zoneinfo.ZoneInfo("America/New_York")
    start = dt.datetime.fromisoformat(cutoff).replace(tzinfo=zone)
    assert start - now == CANCELLATION_WINDOW
