"""The rules of a request's fields live in requests_app.services: called directly (as the Django
admin and the commands do), create and edit refuse what the API refuses, with the same words, and
change nothing. The Django admin obeys them too."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from circles.services import recipient_for_self
from core.errors import InvalidInput
from requests_app import services
from requests_app.models import ServiceCategory, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def _create(client_user, **overrides):
    kwargs = {
        "client": client_user,
        "category": ServiceCategory.objects.get(slug="tech-support"),
        "title": "Help with my new tablet",
        "description": "Please show me how to make video calls to my grandchildren.",
        "preferred_date": timezone.localdate() + dt.timedelta(days=5),
        "location": "12 Elm Street, Springfield",
        "estimated_duration": 60,
        "max_budget": Decimal("40"),
    }
    kwargs.update(overrides)
    return services.service_request_create(**kwargs)


CREATE_RULES = [
    ("estimated_duration", 0, "estimatedDuration", "Duration must be at least 15 minutes"),
    ("estimated_duration", 10, "estimatedDuration", "Duration must be at least 15 minutes"),
    ("estimated_duration", 50, "estimatedDuration", "Duration must be in steps of 15 minutes"),
    ("estimated_duration", 24 * 60 + 15, "estimatedDuration", "Duration can be at most 24 hours."),
    ("max_budget", Decimal("-5"), "maxBudget", "Budget cannot be negative."),
    ("max_budget", Decimal("42"), "maxBudget", "Budget must be in steps of $5"),
    ("max_budget", Decimal("12.50"), "maxBudget", "Budget must be in steps of $5"),
    ("max_budget", Decimal("100000"), "maxBudget", "Budget can be at most $99,999."),
    ("category", None, "categoryId", "Category is required"),
    ("preferred_date", None, "preferredDate", "Please choose a preferred date."),
    ("title", "   ", "title", "Title is required"),
    ("title", "t" * 201, "title", "Title can be at most 200 characters."),
    ("description", "Too short", "description", "Description must be at least 10 characters"),
    ("location", "", "location", "Location is required"),
    (
        "special_requirements",
        "y" * 5001,
        "specialRequirements",
        "Special requirements can be at most 5,000 characters.",
    ),
]


@pytest.mark.parametrize(("name", "value", "field", "message"), CREATE_RULES)
def test_create_refuses_each_broken_rule_in_the_spec_words(client_user, name, value, field, message):
    with pytest.raises(InvalidInput) as refused:
        _create(client_user, **{name: value})
    assert (refused.value.message, refused.value.errors) == (message, {field: [message]})
    assert not ServiceRequest.objects.exists()


def test_create_refuses_a_past_preferred_date_and_one_more_than_a_year_ahead(client_user):
    today = timezone.localdate()
    for day, message in [
        (today - dt.timedelta(days=1), "Preferred date cannot be in the past."),
        (
            services.preferred_date_latest(today) + dt.timedelta(days=1),
            "Preferred date must be within the next 12 months.",
        ),
    ]:
        with pytest.raises(InvalidInput) as refused:
            _create(client_user, preferred_date=day)
        assert refused.value.errors == {"preferredDate": [message]}
    assert not ServiceRequest.objects.exists()


def test_create_refuses_an_inactive_category(client_user):
    category = ServiceCategory.objects.get(slug="light-errands")
    category.is_active = False
    category.save(update_fields=["is_active"])
    with pytest.raises(InvalidInput) as refused:
        _create(client_user, category=category)
    assert refused.value.errors == {"categoryId": ["Category is required"]}


def test_create_names_every_broken_rule_at_once(client_user):
    with pytest.raises(InvalidInput) as refused:
        _create(client_user, estimated_duration=20, max_budget=Decimal("7"))
    assert refused.value.message == "Please correct the highlighted fields."
    assert refused.value.errors == {
        "estimatedDuration": ["Duration must be in steps of 15 minutes"],
        "maxBudget": ["Budget must be in steps of $5"],
    }


def test_create_takes_the_edges_of_each_rule(client_user):
    latest = services.preferred_date_latest(timezone.localdate())
    made = _create(client_user, estimated_duration=15, max_budget=Decimal("0"), preferred_date=timezone.localdate())
    longest = _create(client_user, estimated_duration=24 * 60, max_budget=Decimal("99995"), preferred_date=latest)
    no_budget = _create(client_user, max_budget=None)
    assert ServiceRequest.objects.filter(pk__in=[made.pk, longest.pk, no_budget.pk]).count() == 3


EDIT_RULES = [
    ("estimated_duration", 0, "estimatedDuration", "Duration must be at least 1 minute"),
    ("estimated_duration", 24 * 60 + 1, "estimatedDuration", "Duration can be at most 24 hours."),
    ("max_budget", Decimal("-1"), "maxBudget", "Budget cannot be negative."),
    ("max_budget", Decimal("100000"), "maxBudget", "Budget can be at most $99,999."),
    ("category", None, "categoryId", "Category is required"),
    ("title", "", "title", "Title is required"),
    ("description", "short", "description", "Description must be at least 10 characters"),
    ("location", " ", "location", "Location is required"),
    ("preferred_date", dt.date(2000, 1, 1), "preferredDate", "Preferred date cannot be in the past."),
]


@pytest.mark.parametrize(("name", "value", "field", "message"), EDIT_RULES)
def test_edit_refuses_each_broken_rule_and_changes_nothing(client_user, name, value, field, message):
    service_request = ServiceRequestFactory(client=client_user, title="Before", estimated_duration=60)
    with pytest.raises(InvalidInput) as refused:
        services.service_request_update(service_request_id=service_request.pk, actor=client_user, changes={name: value})
    assert refused.value.errors == {field: [message]}
    service_request.refresh_from_db()
    assert (service_request.title, service_request.estimated_duration) == ("Before", 60)


def test_edit_follows_the_edit_page_rules_and_checks_only_what_it_changes(client_user):
    """The edit page takes any whole minute and any budget (spec section 5); a request whose
    date has passed can still have its title corrected."""
    service_request = ServiceRequestFactory(client=client_user, preferred_date=dt.date(2000, 1, 1))
    changes = {"estimated_duration": 50, "max_budget": Decimal("42.50"), "title": "Corrected"}
    services.service_request_update(service_request_id=service_request.pk, actor=client_user, changes=changes)
    service_request.refresh_from_db()
    assert (service_request.estimated_duration, service_request.max_budget, service_request.title) == (
        50,
        Decimal("42.50"),
        "Corrected",
    )


ADD = "/django-admin/requests_app/servicerequest/add/"


def _admin_form(client_user, **overrides) -> dict:
    form = {
        "client": client_user.pk,
        "recipient": recipient_for_self(user=client_user).pk,
        "category": ServiceCategory.objects.get(slug="tech-support").pk,
        "title": "Help with my new tablet",
        "description": "Please show me how to make video calls to my grandchildren.",
        "preferred_date": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
        "preferred_time": "morning",
        "urgency": "normal",
        "location": "12 Elm Street, Springfield",
        "special_requirements": "",
        "estimated_duration": "60",
        "max_budget": "40",
        "status": "open",
    }
    form.update(overrides)
    return form


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("estimated_duration", "50", "Duration must be in steps of 15 minutes"),
        ("max_budget", "42", "Budget must be in steps of $5"),
        ("preferred_date", "2000-01-01", "Preferred date cannot be in the past."),
        ("description", "Too short", "Description must be at least 10 characters"),
    ],
)
def test_the_django_admin_refuses_a_request_that_breaks_a_rule(client, admin_user, client_user, field, value, message):
    client.force_login(admin_user)
    refused = client.post(ADD, _admin_form(client_user, **{field: value}))
    assert refused.status_code == 200  # the form again, with the message beside the field
    assert message in refused.content.decode()
    assert not ServiceRequest.objects.exists()
    # The same form with that field right is saved.
    saved = client.post(ADD, _admin_form(client_user))
    assert saved.status_code == 302
    assert ServiceRequest.objects.count() == 1


def test_the_django_admin_checks_a_change_against_the_edit_rules_of_what_it_changes(client, admin_user):
    """An old request with a past date can still be closed from the admin; a new duration is checked."""
    service_request = ServiceRequestFactory(preferred_date=dt.date(2000, 1, 1), estimated_duration=60)
    client.force_login(admin_user)
    url = f"/django-admin/requests_app/servicerequest/{service_request.pk}/change/"
    form = _admin_form(service_request.client, preferred_date="2000-01-01", status="cancelled")
    form["category"] = service_request.category_id
    assert client.post(url, form).status_code == 302
    service_request.refresh_from_db()
    assert service_request.status == "cancelled"
    refused = client.post(url, {**form, "estimated_duration": "0"})
    assert refused.status_code == 200
    assert "Duration must be at least 1 minute" in refused.content.decode()
    service_request.refresh_from_db()
    assert service_request.estimated_duration == 60
