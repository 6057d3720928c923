"""The rules of a provider application live in providers.services: called directly (as the Django
admin and the commands do), provider_apply refuses what the API refuses, in the spec's words, and
creates nothing. The Django admin obeys them too."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.models import UserType
from accounts.tests.factories import UserFactory
from core.errors import InvalidInput
from core.geocoding import ZIP_NOT_US
from providers import services
from providers.models import Provider
from providers.tests.factories import ProviderFactory

pytestmark = pytest.mark.django_db

BIO = "Retired teacher who loves helping neighbours with phones, tablets and email, patiently."


def _apply(user, **overrides):
    kwargs = {
        "user": user,
        "phone": "555-123-4567",
        "specialties": ["tech-support"],
        "hourly_rate": Decimal("35"),
        "service_area": "Springfield",
        "home_zip": "62704",
        "travel_miles": 15,
        "bio": BIO,
        "experience": "Five years at the library's tech help desk.",
    }
    kwargs.update(overrides)
    return services.provider_apply(**kwargs)


RULES = [
    ("hourly_rate", Decimal("10"), "hourlyRate", "Hourly rate must be between $15 and $100"),
    ("hourly_rate", Decimal("105"), "hourlyRate", "Hourly rate must be between $15 and $100"),
    ("hourly_rate", Decimal("37"), "hourlyRate", "Hourly rate must be a multiple of $5"),
    ("hourly_rate", Decimal("32.50"), "hourlyRate", "Hourly rate must be a multiple of $5"),
    ("hourly_rate", None, "hourlyRate", "Please enter your hourly rate"),
    ("bio", "Short bio, " + "x" * 30, "bio", "Please provide a detailed bio (at least 50 characters)"),
    ("bio", "b" * 5001, "bio", "Bio can be at most 5,000 characters."),
    ("experience", "A little.", "experience", "Please describe your experience"),
    ("phone", "555-1234", "phone", "Phone number must be at least 10 digits"),
    (
        "phone",
        "call me maybe",
        "phone",
        "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +.",
    ),
    ("specialties", [], "specialties", "Please select at least one specialty"),
    ("specialties", ["knitting"], "specialties", "Please choose services from the list."),
    ("service_area", "  ", "serviceArea", "Please enter your service area"),
    ("home_zip", "", "homeZip", "Please enter your ZIP code."),
    ("home_zip", "SW1A 1AA", "homeZip", ZIP_NOT_US),
    ("home_zip", "09002", "homeZip", ZIP_NOT_US),  # an overseas military (APO) ZIP
    ("home_zip", "00000", "homeZip", "We could not find the ZIP code 00000. Please check it."),
    ("travel_miles", 0, "travelMiles", "Please choose a distance from 1 to 100 miles."),
    ("travel_miles", 10_000, "travelMiles", "Please choose a distance from 1 to 100 miles."),
    ("travel_miles", None, "travelMiles", "Please choose how far you can travel."),
]


@pytest.mark.parametrize(("name", "value", "field", "message"), RULES)
def test_provider_apply_refuses_each_broken_rule_in_the_spec_words(name, value, field, message):
    user = UserFactory(user_type=UserType.CLIENT)
    with pytest.raises(InvalidInput) as refused:
        _apply(user, **{name: value})
    assert (refused.value.message, refused.value.errors) == (message, {field: [message]})
    assert not Provider.objects.exists()
    user.refresh_from_db()
    assert user.user_type == UserType.CLIENT


def test_provider_apply_names_every_broken_rule_at_once():
    with pytest.raises(InvalidInput) as refused:
        _apply(UserFactory(), hourly_rate=Decimal("12"), bio="Too short.")
    assert refused.value.message == "Please correct the highlighted fields."
    assert set(refused.value.errors) == {"hourlyRate", "bio"}


@pytest.mark.parametrize("rate", ["15", "100", "55"])
def test_provider_apply_takes_every_rate_on_the_five_dollar_steps(rate):
    provider = _apply(UserFactory(), hourly_rate=Decimal(rate))
    assert provider.hourly_rate == Decimal(rate)


ADD = "/django-admin/providers/provider/add/"


def _admin_form(user, **overrides) -> dict:
    form = {
        "user": user.pk,
        "phone": "555-123-4567",
        "specialties": '["tech-support"]',
        "hourly_rate": "35",
        "availability": "{}",
        "service_area": "Springfield",
        "home_zip": "62704",
        "travel_miles": "15",
        "bio": BIO,
        "experience": "Five years at the library's tech help desk.",
        "verification_status": "pending",
        "is_active": "on",
    }
    form.update(overrides)
    return form


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("hourly_rate", "37", "Hourly rate must be a multiple of $5"),
        ("hourly_rate", "120", "Hourly rate must be between $15 and $100"),
        ("bio", "Too short.", "Please provide a detailed bio (at least 50 characters)"),
        ("phone", "555", "Phone number must be at least 10 digits"),
        ("specialties", "[]", "Please select at least one specialty"),
    ],
)
def test_the_django_admin_refuses_a_provider_that_breaks_a_rule(client, admin_user, field, value, message):
    user = UserFactory()
    client.force_login(admin_user)
    refused = client.post(ADD, _admin_form(user, **{field: value}))
    assert refused.status_code == 200  # the form again, with the message beside the field
    assert message in refused.content.decode()
    assert not Provider.objects.exists()
    # The same form with that field right is saved.
    assert client.post(ADD, _admin_form(user)).status_code == 302
    assert Provider.objects.filter(user=user).exists()


def test_the_django_admin_checks_only_the_fields_a_change_touches(client, admin_user):
    """An older profile with a short bio can still be deactivated; a new rate is checked."""
    provider = ProviderFactory(bio="Short.")
    client.force_login(admin_user)
    url = f"/django-admin/providers/provider/{provider.pk}/change/"
    form = _admin_form(
        provider.user,
        bio="Short.",
        phone=provider.phone,
        hourly_rate="30",
        specialties='["tech-support", "light-errands"]',
    )
    form.pop("is_active")
    assert client.post(url, form).status_code == 302
    provider.refresh_from_db()
    assert provider.is_active is False
    refused = client.post(url, {**form, "hourly_rate": "33"})
    assert refused.status_code == 200
    assert "Hourly rate must be a multiple of $5" in refused.content.decode()
    provider.refresh_from_db()
    assert provider.hourly_rate == Decimal("30.00")
