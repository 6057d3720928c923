"""Request create/edit: limits in plain words, the preferred date within a year, a cleared date on edit."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone

from core.errors import InvalidInput
from marketplace.testing.api import call, valid_request_body
from requests_app import services
from requests_app.models import ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

CREATE = "/api/service-requests"

LIMITS = [
    ("maxBudget", 100000, "Budget can be at most $99,999."),
    ("maxBudget", 12345678.9, "Budget can be at most $99,999."),
    ("maxBudget", "1000000", "Budget can be at most $99,999."),
    ("maxBudget", -5, "Budget cannot be negative."),
    ("estimatedDuration", 1455, "Duration can be at most 24 hours."),
    ("description", "Please help. " + "x" * 5000, "Description can be at most 5,000 characters."),
    ("specialRequirements", "y" * 5001, "Special requirements can be at most 5,000 characters."),
    ("title", "t" * 201, "Title can be at most 200 characters."),
    ("location", "l" * 256, "Location can be at most 255 characters."),
]


@pytest.mark.parametrize(("field", "value", "message"), LIMITS)
def test_create_names_each_limit_in_plain_words(client, client_user, field, value, message):
    client.force_login(client_user)
    response = call(client, "POST", CREATE, valid_request_body(**{field: value}))
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {field: [message]}}
    assert not ServiceRequest.objects.exists()


@pytest.mark.parametrize(("field", "value", "message"), LIMITS)
def test_edit_names_each_limit_in_plain_words(client, client_user, field, value, message):
    service_request = ServiceRequestFactory(client=client_user, title="Before")
    client.force_login(client_user)
    response = call(client, "PUT", f"{CREATE}/{service_request.pk}", valid_request_body(**{field: value}))
    assert response.status_code == 400
    assert response.json()["errors"] == {field: [message]}
    service_request.refresh_from_db()
    assert service_request.title == "Before"


def test_the_largest_budget_and_longest_visit_are_accepted(client, client_user):
    client.force_login(client_user)
    body = valid_request_body(maxBudget=99995, estimatedDuration=1440, description="d" * 5000)
    response = call(client, "POST", CREATE, body)
    assert response.status_code == 201, response.content
    assert (response.json()["maxBudget"], response.json()["estimatedDuration"]) == (99995, 1440)


@pytest.mark.parametrize("method", ["POST", "PUT"])
def test_a_preferred_date_in_the_year_2999_is_refused(client, client_user, method):
    service_request = ServiceRequestFactory(client=client_user)
    client.force_login(client_user)
    url = CREATE if method == "POST" else f"{CREATE}/{service_request.pk}"
    response = call(client, method, url, valid_request_body(preferredDate="2999-01-01"))
    assert response.status_code == 400
    message = "Preferred date must be within the next 12 months."
    assert response.json() == {"message": message, "errors": {"preferredDate": [message]}}
    assert ServiceRequest.objects.count() == 1


@time_machine.travel(dt.datetime(2027, 3, 10, 15, 0, tzinfo=dt.UTC), tick=False)
def test_the_preferred_date_may_be_up_to_a_year_ahead_in_the_site_zone(client, client_user):
    client.force_login(client_user)
    today = timezone.localdate()
    last = today.replace(year=today.year + 1)
    assert call(client, "POST", CREATE, valid_request_body(preferredDate=last.isoformat())).status_code == 201
    too_far = call(client, "POST", CREATE, valid_request_body(preferredDate=(last + dt.timedelta(days=1)).isoformat()))
    assert too_far.status_code == 400
    assert too_far.json()["errors"] == {"preferredDate": ["Preferred date must be within the next 12 months."]}


def test_a_year_from_february_29_ends_on_february_28():
    assert services.preferred_date_latest(dt.date(2028, 2, 29)) == dt.date(2029, 2, 28)


@pytest.mark.parametrize("cleared", [None, ""])
def test_edit_accepts_a_cleared_preferred_date(client, client_user, cleared):
    service_request = ServiceRequestFactory(client=client_user)
    assert service_request.preferred_date is not None
    client.force_login(client_user)
    response = call(client, "PUT", f"{CREATE}/{service_request.pk}", valid_request_body(preferredDate=cleared))
    assert response.status_code == 200, response.content
    assert response.json()["preferredDate"] is None
    service_request.refresh_from_db()
    assert service_request.preferred_date is None


@pytest.mark.parametrize("missing", [None, ""])
def test_create_still_requires_a_preferred_date(client, client_user, missing):
    client.force_login(client_user)
    response = call(client, "POST", CREATE, valid_request_body(preferredDate=missing))
    assert response.status_code == 400
    assert response.json()["errors"] == {"preferredDate": ["Please choose a preferred date."]}
    assert not ServiceRequest.objects.exists()


def test_the_service_owns_the_date_rules(client_user, db):
    """Callers other than the API (commands, later apps) meet the same rules."""
    from requests_app.models import ServiceCategory

    category = ServiceCategory.objects.first()
    kwargs = {"client": client_user, "category": category, "title": "T", "description": "Ten chars!", "location": "L"}
    with pytest.raises(InvalidInput) as far:
        services.service_request_create(**kwargs, preferred_date=dt.date(2999, 1, 1))
    assert far.value.errors == {"preferredDate": ["Preferred date must be within the next 12 months."]}
    with pytest.raises(InvalidInput) as missing:
        services.service_request_create(**kwargs, preferred_date=None)
    assert missing.value.errors == {"preferredDate": ["Please choose a preferred date."]}
    service_request = ServiceRequestFactory(client=client_user)
    with pytest.raises(InvalidInput):
        services.service_request_update(
            service_request_id=service_request.pk, actor=client_user, changes={"preferred_date": dt.date(2999, 1, 1)}
        )
    assert not ServiceRequest.objects.filter(preferred_date__year=2999).exists()
