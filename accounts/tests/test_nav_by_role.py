"""The top bar by role: a helper's bar leads to her work, a client's to asking for help."""

import json
import re

import pytest

from accounts.templatetags.identity import nav_links_for

pytestmark = pytest.mark.django_db

MAIN_NAV = re.compile(r'<nav class="nav container" aria-label="Main">.*?<ul class="nav-links">(.*?)</ul>', re.S)


def _top_bar(client, user) -> list[str]:
    client.force_login(user)
    html = client.get("/settings").content.decode()
    return re.findall(r'<a href="([^"]+)">', MAIN_NAV.search(html).group(1))


def test_a_helper_sees_schedule_calendar_earnings_and_messages_not_request_service(client, verified_provider):
    links = _top_bar(client, verified_provider.user)

    assert links == ["/dashboard", "/schedule", "/calendar", "/earnings", "/messages"]


def test_a_client_sees_the_bar_the_spec_names(client, client_user):
    assert _top_bar(client, client_user) == ["/dashboard", "/request-service", "/providers", "/messages"]


def test_staff_also_see_admin(client, admin_user):
    assert _top_bar(client, admin_user)[-1] == "/admin"


def test_the_mobile_drawer_gets_the_same_links(client, verified_provider):
    client.force_login(verified_provider.user)
    html = client.get("/settings").content.decode()
    props = re.search(r'<script id="user-menu-props" type="application/json">(.*?)</script>', html).group(1)

    assert json.loads(props)["navLinks"] == nav_links_for(verified_provider.user)
    assert [link["label"] for link in json.loads(props)["navLinks"]][1:4] == ["Schedule", "Calendar", "Earnings"]
