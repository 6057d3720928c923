"""/request-service?provider=<id>: Browse's Contact names the provider and preselects their service;
the request is sent to them directly (test_direct_requests.py)."""

import pytest

from marketplace.testing.pages import island_props
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.models import ServiceCategory

pytestmark = pytest.mark.django_db


def form(client, query: str = ""):
    response = client.get(f"/request-service{query}")
    assert response.status_code == 200
    return response.content.decode(), island_props(response, "request-service-props")


def test_a_verified_providers_services_are_named_and_one_alone_is_preselected(client, client_user):
    ServiceCategory.objects.filter(slug="home-organization").update(is_active=False)
    vera = VerifiedProviderFactory(user__first_name="Vera", specialties=["home-organization", "light-errands"])
    client.force_login(client_user)
    html, props = form(client, f"?provider={vera.pk}")
    errands = ServiceCategory.objects.get(slug="light-errands")
    assert props["categoryId"] == errands.pk  # the one service of hers that is offered
    assert "You're asking Vera directly. Vera offers: Light Errands." in html
    assert props["askedProvider"] == {
        "id": vera.pk,
        "firstName": "Vera",
        "lastName": vera.user.last_name,
        "services": [{"id": errands.pk, "name": "Light Errands"}],
        "away": [],
        "hours": [],
    }
    assert props["directWindowHours"] == 24


def test_a_helper_with_several_services_lets_the_family_pick_and_her_time_off_is_told(client, client_user):
    import datetime as dt

    from django.utils import timezone

    from providers.models import TimeOff

    vera = VerifiedProviderFactory(user__first_name="Vera", specialties=["wellness-checks", "tech-support"])
    soon = timezone.localdate() + dt.timedelta(days=9)
    TimeOff.objects.create(provider=vera, first_day=soon, last_day=soon, note="Dentist")
    TimeOff.objects.create(provider=vera, first_day=soon - dt.timedelta(days=30), last_day=soon - dt.timedelta(days=20))
    client.force_login(client_user)
    html, props = form(client, f"?provider={vera.pk}")
    assert props["categoryId"] is None  # not always her first service: the family picks
    names = [s["name"] for s in props["askedProvider"]["services"]]
    assert names == ["Technology Support", "Wellness Checks"]
    assert "Vera offers: Technology Support, Wellness Checks." in html
    # Her days away ahead, never her note.
    assert props["askedProvider"]["away"] == [{"firstDay": soon.isoformat(), "lastDay": soon.isoformat()}]
    assert "Dentist" not in html
    from providers.models import WeeklyHours

    WeeklyHours.objects.create(provider=vera, weekday=1, start_time=dt.time(8), end_time=dt.time(17))
    _, props = form(client, f"?provider={vera.pk}")
    assert props["askedProvider"]["hours"] == [{"weekday": 1, "startTime": "08:00", "endTime": "17:00"}]


@pytest.mark.parametrize("status", [VerificationStatus.PENDING, VerificationStatus.REJECTED])
def test_an_unverified_provider_is_never_named(client, client_user, status):
    provider = ProviderFactory(user__first_name="Penny", verification_status=status)
    client.force_login(client_user)
    html, props = form(client, f"?provider={provider.pk}")
    assert props["categoryId"] is None and props["askedProvider"] is None
    assert "Penny" not in html


@pytest.mark.parametrize("value", ["", "abc", "-1", "99999999", "1" * 40, "1e3"])
def test_an_unknown_or_malformed_provider_gives_the_plain_form(client, client_user, value):
    client.force_login(client_user)
    html, props = form(client, f"?provider={value}")
    assert props["categoryId"] is None
    assert 'data-testid="asked-provider"' not in html


def test_an_inactive_provider_is_not_named(client, client_user):
    provider = VerifiedProviderFactory(user__first_name="Ivy", is_active=False)
    client.force_login(client_user)
    html, _ = form(client, f"?provider={provider.pk}")
    assert "Ivy" not in html
