"""Input limits answer in plain words that name the field and the limit."""

from __future__ import annotations

import importlib
from decimal import Decimal

import pytest
from rest_framework import serializers

from core.api import PlainCharField, PlainIntegerField, StrictSerializer, as_dollars, as_minutes, input_limits
from core.fields import MoneyField

API_MODULES = [
    "accounts.api.serializers",
    "circles.api.serializers",
    "providers.api.serializers",
    "requests_app.api.serializers",
    "bookings.api.serializers",
    "messaging.api.serializers",
    "payments.api.serializers",
]
FRAMEWORK_WORDS = ("Ensure ", "String value too large", "This field", "This list")


def _input_serializers() -> list[type[serializers.Serializer]]:
    for name in API_MODULES:
        importlib.import_module(name)
    from providers.api.serializers import ProviderListQuerySerializer

    found: list[type[serializers.Serializer]] = [ProviderListQuerySerializer]
    todo = list(StrictSerializer.__subclasses__())
    while todo:
        cls = todo.pop()
        if not cls.__name__.startswith("_"):
            found.append(cls)
        todo.extend(cls.__subclasses__())
    return found


def _limit_codes(field: serializers.Field) -> list[str]:
    """The error codes of the limits this field enforces."""
    codes = [
        code
        for code in ("max_length", "min_length", "max_value", "min_value")
        if getattr(field, code, None) is not None
    ]
    if isinstance(field, serializers.IntegerField | serializers.DecimalField):
        codes.append("max_string_length")
    if isinstance(field, serializers.DecimalField):
        codes += ["max_digits", "max_whole_digits", "max_decimal_places"]
    return codes


def test_the_sweep_finds_the_input_serializers():
    names = {cls.__name__ for cls in _input_serializers()}
    assert {"ServiceRequestCreateSerializer", "ProviderApplicationSerializer", "MessageCreateSerializer"} <= names
    assert {"EmergencyContactInputSerializer", "AdminBookingCancelSerializer", "CardConfirmInputSerializer"} <= names


@pytest.mark.parametrize("serializer_class", _input_serializers(), ids=lambda cls: cls.__name__)
def test_no_input_limit_answers_in_framework_words(serializer_class):
    for name, field in serializer_class().fields.items():
        if field.read_only:
            continue
        for code in _limit_codes(field):
            message = str(field.error_messages[code])
            assert not message.startswith(FRAMEWORK_WORDS), f"{serializer_class.__name__}.{name} {code}: {message}"


def test_messages_name_the_field_and_write_the_limit_for_people():
    class Form(serializers.Serializer):
        note = PlainCharField(label="Note", min_length=3, max_length=5000)
        minutes = PlainIntegerField(label="Duration", min_value=15, max_value=1440, limit_format=as_minutes)
        budget = MoneyField(label="Budget", min_value=0, max_value=99999, required=False, allow_null=True)

    def errors(**data):
        form = Form(data={"note": "fine", "minutes": 60, **data})
        assert not form.is_valid()
        return {key: [str(m) for m in value] for key, value in form.errors.items()}

    assert errors(note="x" * 5001) == {"note": ["Note can be at most 5,000 characters."]}
    assert errors(note="ab") == {"note": ["Note must be at least 3 characters."]}
    assert errors(note="  ") == {"note": ["Note is required."]}
    assert errors(minutes=1441) == {"minutes": ["Duration can be at most 24 hours."]}
    assert errors(minutes=10) == {"minutes": ["Duration must be at least 15 minutes."]}
    assert errors(budget=100000) == {"budget": ["Budget can be at most $99,999."]}
    assert errors(budget=123456789) == {"budget": ["Budget can be at most $99,999."]}  # too many digits
    assert errors(budget=-1) == {"budget": ["Budget cannot be negative."]}
    assert errors(budget=10.555) == {"budget": ["Budget can have at most 2 decimal places."]}


def test_explicit_messages_win_over_the_plain_ones():
    field = PlainCharField(label="Bio", min_length=50, error_messages={"min_length": "Please write more"})
    assert field.error_messages["min_length"] == "Please write more"


@pytest.mark.parametrize(
    ("fmt", "value", "text"),
    [
        (as_dollars, 99999, "$99,999"),
        (as_dollars, Decimal("12.5"), "$12.50"),
        (as_minutes, 1440, "24 hours"),
        (as_minutes, 60, "1 hour"),
        (as_minutes, 90, "90 minutes"),
        (as_minutes, 1, "1 minute"),
    ],
)
def test_limits_are_written_as_people_say_them(fmt, value, text):
    assert fmt(value) == text


def test_input_limits_give_the_form_the_servers_numbers_and_words():
    from requests_app.api.serializers import ServiceRequestCreateSerializer

    limits = input_limits(ServiceRequestCreateSerializer)
    assert limits["description"] == {
        "minLength": 10,
        "minLengthMessage": "Description must be at least 10 characters",
        "maxLength": 5000,
        "maxLengthMessage": "Description can be at most 5,000 characters.",
    }
    assert (limits["maxBudget"]["max"], limits["maxBudget"]["maxMessage"]) == (99999, "Budget can be at most $99,999.")
    assert (limits["estimatedDuration"]["max"], limits["estimatedDuration"]["maxMessage"]) == (
        1440,
        "Duration can be at most 24 hours.",
    )
