"""Rules on single values shared by several apps' services and input serializers.

Each rule is a function returning the message to show ("" when the value is fine), so a
serializer can put it next to its field and a service can raise it as InvalidInput.
"""

from __future__ import annotations

import re

from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy

from core.errors import InvalidInput

PHONE_MIN_DIGITS = 10
PHONE_MAX_DIGITS = 15  # the longest international number (E.164)
PHONE_TOO_SHORT = "Phone number must be at least 10 digits"  # the spec's words (section 5)
PHONE_TOO_LONG = format_lazy(gettext_lazy("Phone number can have at most {digits} digits."), digits=PHONE_MAX_DIGITS)
PHONE_CHARACTERS = gettext_lazy(
    "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +."
)
# Digits and the usual separators; a + only in front ("+1 (555) 123-4567", "555.123.4567").
PHONE_PATTERN = r"\+?[0-9 ().\-]*"
_PHONE = re.compile(PHONE_PATTERN)


def phone_problem(value: str) -> str:
    """What is wrong with a phone number as typed, or "" when it is fine."""
    text = value.strip()
    if not _PHONE.fullmatch(text):
        return PHONE_CHARACTERS
    digits = sum(ch.isdigit() for ch in text)
    if digits < PHONE_MIN_DIGITS:
        return PHONE_TOO_SHORT
    if digits > PHONE_MAX_DIGITS:
        return PHONE_TOO_LONG
    return ""


def check_phone(value: str, *, field: str = "phone") -> str:
    """The phone number stripped, or InvalidInput naming `field` (for services)."""
    problem = phone_problem(value)
    if problem:
        raise InvalidInput(problem, errors={field: [problem]})
    return value.strip()
