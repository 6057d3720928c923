"""The one-line address people typed is read into parts best effort (the migration and the API's
one-line location use it): what cannot be read stays whole in the street line, never in the town,
which helpers see before a booking."""

from __future__ import annotations

import pytest

from core.addresses import Address, area_line, full_line, parse_one_line


@pytest.mark.parametrize(
    ("text", "parts"),
    [
        ("45 Oak Avenue, Springfield", Address(street="45 Oak Avenue", town="Springfield")),
        (
            "1 Elm St, Apt 2, Springfield, IL 62701",
            Address(street="1 Elm St", unit="Apt 2", town="Springfield", state="IL", zip_code="62701"),
        ),
        ("12 Elm Street, Springfield, IL", Address(street="12 Elm Street", town="Springfield", state="IL")),
        ("Springfield, IL 62701", Address(town="Springfield", state="IL", zip_code="62701")),
        ("The clinic on Main Street", Address(street="The clinic on Main Street")),
        # A door code typed after the street is never taken for a town.
        ("12 Elm Street, door code 4321", Address(street="12 Elm Street, door code 4321")),
        ("12 Elm St, Apt 3", Address(street="12 Elm St, Apt 3")),
        ("", Address()),
    ],
)
def test_a_one_line_address_is_read_into_parts(text, parts):
    assert parse_one_line(text) == parts


def test_the_lines_compose_the_parts_in_postal_order():
    assert full_line("45 Oak Avenue", "Apt 2", "Springfield", "IL", "62701") == (
        "45 Oak Avenue, Apt 2, Springfield, IL 62701"
    )
    assert area_line("Springfield", "IL", "62701") == "Springfield, IL 62701"
    assert area_line("Springfield", "", "62701") == "Springfield 62701"
    assert full_line("45 Oak Avenue", "", "Springfield", "", "") == "45 Oak Avenue, Springfield"
