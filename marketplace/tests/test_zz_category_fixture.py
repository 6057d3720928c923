"""The six categories survive a transactional test's flush for the tests that follow it."""

import pytest

from requests_app.models import ServiceCategory


@pytest.mark.django_db(transaction=True)
def test_a_transactional_test_sees_the_categories():
    assert ServiceCategory.objects.count() == 6


@pytest.mark.django_db
def test_a_plain_test_after_a_flush_still_sees_the_categories():
    assert ServiceCategory.objects.count() == 6


def test_a_fixture_only_test_after_a_flush_sees_them_too(db):
    assert ServiceCategory.objects.count() == 6
