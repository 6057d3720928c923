"""The six categories are in place for every database test (the root conftest puts them back
after every flush, on post_migrate).

A transactional test flushes every table when it ends. pytest-django runs the rolled-back tests
first, but a worker of `--dist loadgroup` may run a rolled-back test after a transactional one:
the second run below starts right after the first one's flush.
"""

import pytest
from django.core.management import call_command

from requests_app.models import ServiceCategory


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("run", ["first", "after a flush"])
def test_each_transactional_test_finds_the_six_categories(run):
    assert ServiceCategory.objects.count() == 6


def test_a_rolled_back_test_finds_the_six_migrated_categories(db):
    assert ServiceCategory.objects.count() == 6


@pytest.mark.django_db(transaction=True)
def test_a_flush_puts_them_back_at_once():
    call_command("flush", interactive=False, verbosity=0)
    assert ServiceCategory.objects.count() == 6
