"""Public reviews show the reviewer as first name + last initial and never an id: a review anyone
can read must not lead to the family (the reviewer's account, the booking)."""

from __future__ import annotations

import pytest

from accounts.tests.factories import UserFactory
from bookings.tests.factories import ReviewFactory
from marketplace.testing.api import call

pytestmark = pytest.mark.django_db

ID_KEYS = {"reviewerId", "bookingId", "reviewedId", "userId"}


def _keys(value) -> set[str]:
    """Every key anywhere in a JSON value."""
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _keys(v)}
    return set()


def test_a_visitor_reads_a_review_with_first_name_and_last_initial_and_no_ids(client, verified_provider):
    reviewer = UserFactory(first_name="Clara", last_name="Whitfield", email="clara@family.test")
    ReviewFactory(
        booking__provider=verified_provider,
        booking__service_request__client=reviewer,
        reviewer=reviewer,
        rating=5,
        comment="Patient and kind.",
    )

    response = call(client, "GET", f"/api/providers/{verified_provider.pk}/reviews")

    assert response.status_code == 200
    (review,) = response.json()
    assert review["reviewer"] == {"firstName": "Clara", "lastName": "W."}
    assert review["rating"] == 5 and review["comment"] == "Patient and kind."
    assert not (_keys(review) & ID_KEYS)
    assert "id" not in review["reviewer"]
    body = response.content.decode()
    assert "Whitfield" not in body and "clara@family.test" not in body and str(reviewer.pk) not in body
