"""/settings: signed in only; a profile summary, the data download link and the close-account island."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from bookings.tests.factories import BookingFactory
from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


def test_signed_out_visitor_is_sent_to_login(client):
    response = client.get("/settings")

    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fsettings"


def test_settings_shows_the_profile_the_download_link_and_the_island(client, client_user):
    client.force_login(client_user)

    response = client.get("/settings")

    html = response.content.decode()
    assert response.status_code == 200
    assert "clara@example.com" in html
    assert 'href="/api/account/export" download' in html
    assert "/static/dist/assets/settings-" in html
    assert island_props(response, "settings-props") == {"isAdmin": False, "hasVisitWithin48Hours": False}


def test_settings_warns_about_a_visit_within_48_hours(client, client_user, verified_provider):
    BookingFactory(
        service_request__client=client_user,
        provider=verified_provider,
        scheduled_date=timezone.localdate() + dt.timedelta(days=1),
    )
    client.force_login(client_user)

    props = island_props(client.get("/settings"), "settings-props")

    assert props["hasVisitWithin48Hours"] is True


def test_admins_are_told_they_cannot_close_here(client, admin_user):
    client.force_login(admin_user)

    assert island_props(client.get("/settings"), "settings-props")["isAdmin"] is True
