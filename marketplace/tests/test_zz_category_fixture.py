"""The six categories are in place for every database test (the root conftest's fixtures).

pytest-django runs every rolled-back database test before the transactional ones, so a flush can
only precede a transactional test: the second run below starts right after the first one's flush.
"""

import pytest

from requests_app.models import ServiceCategory


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("run", ["first", "after a flush"])
def test_each_transactional_test_finds_the_six_categories(run):
    assert ServiceCategory.objects.count() == 6


def test_a_rolled_back_test_finds_the_six_migrated_categories(db):
    assert ServiceCategory.objects.count() == 6
