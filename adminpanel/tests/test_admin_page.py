"""The /admin page guard and shell (spec section 6: admins only)."""

import datetime as dt

import pytest
from django.utils import timezone

from bookings.tests.factories import BookingFactory
from marketplace.testing.pages import island_props

pytestmark = pytest.mark.django_db


def test_signed_out_visitor_is_sent_to_login(client):
    response = client.get("/admin")
    assert response.status_code == 302
    assert response["Location"] == "/login?next=%2Fadmin"


@pytest.mark.parametrize("who", ["client_user", "provider_user"])
def test_non_admin_lands_on_home_with_the_unauthorized_toast(client, request, who):
    client.force_login(request.getfixturevalue(who))
    response = client.get("/admin", follow=True)
    assert response.redirect_chain == [("/", 302)]
    html = response.content.decode()
    assert '"title": "Unauthorized"' in html
    assert '"description": "Admin access required"' in html
    assert "/static/dist/assets/admin-" not in html


def test_admin_gets_the_dashboard_island(client, admin_user):
    client.force_login(admin_user)
    response = client.get("/admin")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Admin Dashboard" in html
    assert 'id="admin-root"' in html
    assert "/static/dist/assets/admin-" in html
    assert 'href="/admin">Admin</a>' in html


def test_the_summary_paints_with_todays_bookings_as_the_api_sends_them(client, admin_user):
    """The summary's first page is in the props, equal to what the island would have asked for."""
    today = timezone.localdate()
    visits = [BookingFactory(scheduled_date=today) for _ in range(3)]
    BookingFactory(scheduled_date=today + dt.timedelta(days=1))  # not today's
    client.force_login(admin_user)

    seeded = island_props(client.get("/admin"), "admin-props")["todayBookings"]
    asked = client.get("/api/admin/bookings", {"date": today.isoformat(), "limit": 200, "offset": 0})

    assert seeded == {"items": asked.json(), "total": int(asked["X-Total-Count"])}
    assert sorted(item["id"] for item in seeded["items"]) == sorted(visit.pk for visit in visits)
    assert seeded["total"] == 3


def test_the_summary_says_no_bookings_today_with_an_empty_first_page(client, admin_user):
    client.force_login(admin_user)
    assert island_props(client.get("/admin"), "admin-props")["todayBookings"] == {"items": [], "total": 0}
