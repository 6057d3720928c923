"""Provider application: phone numbers need digits, limits in plain words."""

from __future__ import annotations

import pytest

from core.errors import InvalidInput
from marketplace.testing.api import call, valid_application_body
from providers.models import Provider
from providers.services import provider_apply

URL = "/api/provider/profile"
LETTERS = "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +."


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("phone", "abcdefghijklmnop", LETTERS),
        ("phone", "555-123-456x", LETTERS),
        ("phone", "555+123+4567", LETTERS),
        ("phone", "(555) 123-45", "Phone number must be at least 10 digits"),
        ("phone", "----------------", "Phone number must be at least 10 digits"),
        ("phone", "1234567890123456", "Phone number can have at most 15 digits."),
        ("phone", "5" * 41, "Phone number can be at most 40 characters."),
        ("bio", "b" * 5001, "Bio can be at most 5,000 characters."),
        ("experience", "e" * 5001, "Experience can be at most 5,000 characters."),
        ("serviceArea", "s" * 256, "Service area can be at most 255 characters."),
        ("hourlyRate", 1e12, "Hourly rate must be between $15 and $100"),
        ("specialties", ["tech-support"] * 7, "Choose at most 6 services."),
        (
            "homeZip",
            "75008 Paris",
            "Kindly works in the United States only for now. Please enter a 5-digit US ZIP code, like 62701.",
        ),
        ("homeZip", "99999", "We could not find the ZIP code 99999. Please check it."),
        ("homeZip", 62704, "Not a valid string."),
        ("travelMiles", 0, "Please choose a distance from 1 to 100 miles."),
        ("travelMiles", 10_000, "Please choose a distance from 1 to 100 miles."),
        ("travelMiles", "15", "Please choose a distance from 1 to 100 miles."),
        ("travelMiles", 2.5, "Please choose a distance from 1 to 100 miles."),
    ],
)
def test_application_answers_in_plain_words(client, client_user, field, value, message):
    client.force_login(client_user)
    response = call(client, "POST", URL, valid_application_body(**{field: value}))
    assert response.status_code == 400
    assert response.json() == {"message": message, "errors": {field: [message]}}
    assert not Provider.objects.filter(user=client_user).exists()


@pytest.mark.parametrize("phone", ["+1 (555) 123-4567", "555.123.4567", "5551234567", " 555 123 4567 "])
def test_usual_ways_of_writing_a_phone_number_are_accepted(client, client_user, phone):
    client.force_login(client_user)
    response = call(client, "POST", URL, valid_application_body(phone=phone))
    assert response.status_code == 201, response.content
    assert Provider.objects.get(user=client_user).phone == phone.strip()


def test_the_service_refuses_a_phone_number_of_letters(client_user):
    with pytest.raises(InvalidInput) as refused:
        provider_apply(
            user=client_user,
            phone="abcdefghijklmnop",
            specialties=["tech-support"],
            hourly_rate=30,
            service_area="Springfield",
            home_zip="62704",
            travel_miles=15,
            bio="b" * 60,
            experience="e" * 30,
        )
    assert refused.value.errors == {"phone": [LETTERS]}
    assert not Provider.objects.filter(user=client_user).exists()
