"""A postal address kept in parts (street, unit, town, state, ZIP), and its one-line forms.

A senior's street line is the most sensitive thing Kindly holds: helpers considering a request see
its town and ZIP only (area_line), the booked helper and the circle see it all (full_line). Who
sees which is decided by requests_app.selectors.address_shown_to; this module only spells them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PART_NAMES = ("street", "unit", "town", "state", "zip_code")
PART_LIMITS = {"street": 255, "unit": 40, "town": 120, "state": 40, "zip_code": 10}
PART_LABELS = {"street": "Street", "unit": "Apartment or unit", "town": "Town", "state": "State", "zip_code": "ZIP"}
# The JSON names (the spec's camelCase).
PART_API_NAMES = {"street": "street", "unit": "unit", "town": "town", "state": "state", "zip_code": "zipCode"}

# How much of an address a viewer may read (requests_app.selectors.address_shown_to decides).
FULL = "full"  # every part: the circle, and the booked helper while her booking is on
AREA = "area"  # the town, state and ZIP only
# The parts only those who see it all read.
STREET_PARTS = ("street", "unit")
# Staff (the /admin pages, the admin API, the Django admin alike) see the town, state and ZIP:
# enough to place a visit, find a helper nearby and answer a family; the street line, the
# recipient's phone and notes for helpers stay with the circle and the booked helper, whom
# support reaches through the booking's messages.
STAFF_SEES = AREA

_ZIP = re.compile(r"^\d{5}(?:-\d{4})?$")
_STATE_ZIP = re.compile(r"^(?P<state>[A-Za-z][A-Za-z .]{0,38}?)\s+(?P<zip>\d{5}(?:-\d{4})?)$")
_UNIT = re.compile(r"^(?:apt|apartment|unit|suite|ste|#|floor|fl|room|rm)\b\.?\s*\S*", re.IGNORECASE)
# A town name: letters, spaces and a few marks, no digits (a door code is never taken for a town).
_TOWN = re.compile(r"^[A-Za-z][A-Za-z .'-]{0,59}$")


@dataclass(frozen=True)
class Address:
    street: str = ""
    unit: str = ""
    town: str = ""
    state: str = ""
    zip_code: str = ""

    def as_dict(self) -> dict[str, str]:
        return {name: getattr(self, name) for name in PART_NAMES}


def full_line(street: str, unit: str, town: str, state: str, zip_code: str) -> str:
    """ "45 Oak Avenue, Apt 2, Springfield, IL 62701": every part there is, in postal order."""
    return ", ".join(p for p in (street.strip(), unit.strip(), area_line(town, state, zip_code)) if p)


def area_line(town: str, state: str, zip_code: str) -> str:
    """ "Springfield, IL 62701" (or "Springfield 62701" without a state): what a helper sees before
    she is booked (never the street line)."""
    town, state, zip_code = town.strip(), state.strip(), zip_code.strip()
    if not state:
        return " ".join(p for p in (town, zip_code) if p)
    return ", ".join(p for p in (town, f"{state} {zip_code}".strip()) if p)


def parse_one_line(text: str) -> Address:
    """Best effort from the one-line form people typed ("45 Oak Avenue, Springfield", "1 Elm St,
    Apt 2, Springfield, IL 62701"). What cannot be read as parts stays whole in the street, so
    nothing is lost and nothing private lands in the town (which helpers see before a booking)."""
    text = " ".join((text or "").split())
    if not text:
        return Address()
    parts = [p.strip() for p in text.split(",") if p.strip()]
    state = zip_code = ""
    if parts:
        last = parts[-1]
        if _ZIP.match(last):
            zip_code = parts.pop()
        elif match := _STATE_ZIP.match(last):
            state, zip_code = match["state"].strip(), match["zip"]
            parts.pop()
        elif len(parts) >= 3 and len(last) <= 2 and last.isalpha():
            state = parts.pop()
    if state == "" and zip_code and len(parts) >= 3 and len(parts[-1]) <= 2 and parts[-1].isalpha():
        state = parts.pop()
    # One part left: a street line alone, or a town alone? A town has no house number.
    if len(parts) == 1:
        if zip_code or state:
            if not _TOWN.match(parts[0]):
                return Address(street=parts[0], state=state, zip_code=zip_code)
            return Address(town=parts[0], state=state, zip_code=zip_code)
        return Address(street=text)
    if len(parts) == 2:
        street, town = parts
        if not _TOWN.match(town) or _UNIT.match(town):
            # "12 Elm Street, Apt 3": no town in it; keep it whole as the street line.
            return Address(street=", ".join(parts), state=state, zip_code=zip_code)
        return Address(street=street, town=town, state=state, zip_code=zip_code)
    if len(parts) == 3 and _UNIT.match(parts[1]) and _TOWN.match(parts[2]):
        return Address(street=parts[0], unit=parts[1], town=parts[2], state=state, zip_code=zip_code)
    if len(parts) >= 3 and _TOWN.match(parts[-1]) and not _UNIT.match(parts[-1]):
        # "12 Elm Street, Springfield, IL" read above; anything longer keeps all but the town whole.
        return Address(street=", ".join(parts[:-1]), town=parts[-1], state=state, zip_code=zip_code)
    return Address(street=", ".join(parts), state=state, zip_code=zip_code)
