"""Data a whole test module reads, built once.

`once_per_module(django_db_blocker, build)` builds it inside a transaction that is rolled back after
the module's last test; each test (pytest-django's `db`) runs in a savepoint inside it, so what one
test writes never reaches the next, as with data built for each test. For tables of many small
cells over one set of rows (the permission tables), where building the rows took most of the time.
A test that changes a built object in Python (not in the database) would leak that change: the
modules using this only read the objects' ids.

    @pytest.fixture(scope="module")
    def _world_once(django_db_setup, django_db_blocker):
        yield from once_per_module(django_db_blocker, _build_world)

    @pytest.fixture
    def world(db, _world_once):
        return _world_once
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TypeVar

from django.db import transaction

T = TypeVar("T")


def once_per_module(blocker, build: Callable[[], T]) -> Iterator[T]:
    with blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            built = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield built
    finally:
        with blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
