"""Strict input fields: a wrong JSON type is a 400, never silently coerced ("15" is not an integer).

Shared by the providers, requests_app, bookings and adminpanel input serializers. Given a
`label`, their limits answer in plain words (core.api.PlainMessages).
"""

from __future__ import annotations

import datetime as dt
import re

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.api import PlainCharField, PlainIntegerField, PlainMessages, as_dollars

# The largest amount a form takes (a request's maximum budget); MoneyField's schema says so too.
MONEY_MAX = 99_999
# A plain decimal number; its size and cents are DecimalField's checks, in plain words.
_NUMERIC = re.compile(r"^\d+(\.\d+)?$")


class StrictCharField(PlainCharField):
    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictIntegerField(PlainIntegerField):
    default_error_messages = {"invalid": "A whole number is required."}

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        if isinstance(data, float):
            if not data.is_integer():
                self.fail("invalid")
            data = int(data)
        return super().to_internal_value(data)


class StrictNumberField(PlainMessages, serializers.DecimalField):
    """A JSON number (not a string) read as a Decimal."""

    default_error_messages = {"invalid": "A number is required."}

    def __init__(self, **kwargs):
        kwargs.setdefault("max_digits", 8)
        kwargs.setdefault("decimal_places", 2)
        kwargs.setdefault("coerce_to_string", False)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        return super().to_internal_value(str(data))


@extend_schema_field(
    {
        "oneOf": [
            {"type": "number", "minimum": 0, "maximum": MONEY_MAX},
            {"type": "string", "pattern": _NUMERIC.pattern},
        ],
        "nullable": True,
    }
)
class MoneyField(StrictNumberField):
    """An optional amount sent as a JSON number or a numeric string ("25", "25.50"); "" and null mean none."""

    limit_format = staticmethod(as_dollars)

    def run_validation(self, data=serializers.empty):
        if data == "":
            data = None
        return super().run_validation(data)

    def to_internal_value(self, data):
        if isinstance(data, str):
            if not _NUMERIC.match(data):
                self.fail("invalid")
            return serializers.DecimalField.to_internal_value(self, data)
        return super().to_internal_value(data)


@extend_schema_field({"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]})
class DateOrDateTimeField(PlainMessages, serializers.Field):
    """A calendar date as "YYYY-MM-DD" or an ISO date-time; the date part is taken as written.

    Date pickers send midnight as an ISO string ("2026-05-04T00:00:00.000Z"); converting that
    to the site zone would move it to the day before, so the written date is the answer. A
    cleared date picker sends "": it means no date, like null.
    """

    default_error_messages = {"invalid": gettext_lazy("Enter a valid date (YYYY-MM-DD).")}

    def run_validation(self, data=serializers.empty):
        if isinstance(data, str) and not data.strip():
            data = None
        return super().run_validation(data)

    def to_internal_value(self, data) -> dt.date:
        if not isinstance(data, str):
            self.fail("invalid")
        text = data.strip()
        try:
            if len(text) == 10:
                return dt.date.fromisoformat(text)
            parsed = dt.datetime.fromisoformat(text.replace("Z", "+00:00"))
        except ValueError:
            self.fail("invalid")
        return parsed.date()

    def to_representation(self, value: dt.date) -> str:
        return value.isoformat()


__all__ = [
    "MONEY_MAX",
    "DateOrDateTimeField",
    "MoneyField",
    "StrictCharField",
    "StrictIntegerField",
    "StrictNumberField",
]
