"""/schedule: the provider's page with its island's props; others get the 403 page, signed out /login."""

import datetime as dt

import pytest
from django.utils import timezone

from marketplace.testing.pages import island_props
from providers.models import TimeOff, WeeklyHours

pytestmark = pytest.mark.django_db


def test_signed_out_visitor_is_sent_to_login(client):
    response = client.get("/schedule")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fschedule"


def test_a_client_gets_the_403_page(client, client_user):
    client.force_login(client_user)
    response = client.get("/schedule")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Only providers have a schedule." in html
    assert "schedule-props" not in html


def test_the_provider_gets_their_hours_and_upcoming_time_off(client, verified_provider):
    today = timezone.localdate()
    WeeklyHours.objects.create(provider=verified_provider, weekday=1, start_time=dt.time(8), end_time=dt.time(12))
    TimeOff.objects.create(
        provider=verified_provider, first_day=today - dt.timedelta(days=9), last_day=today - dt.timedelta(days=2)
    )
    upcoming = TimeOff.objects.create(provider=verified_provider, first_day=today, last_day=today, note="Dentist")
    client.force_login(verified_provider.user)
    response = client.get("/schedule")
    assert response.status_code == 200
    assert "/static/dist/assets/schedule-" in response.content.decode()
    props = island_props(response, "schedule-props")
    assert props["schedule"] == {
        "weeklyHours": [{"weekday": 1, "startTime": "08:00", "endTime": "12:00"}],
        "timeOff": [
            {"id": upcoming.pk, "firstDay": today.isoformat(), "lastDay": today.isoformat(), "note": "Dentist"}
        ],
    }
    assert props["weekdays"][0] == "Monday"
    assert props["windows"]["morning"] == ["08:00", "12:00"]
    assert props["timeStepMinutes"] == 15
