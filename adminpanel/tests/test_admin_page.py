"""The /admin page guard and shell (spec section 6: admins only)."""

import pytest

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
