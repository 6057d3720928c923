"""A real Celery worker on the test Redis (REDIS_URL), in a thread of the test process.

``celery_worker`` starts one (solo pool) for a transactional test: tasks enqueued on commit run
in it against the test database, as in production; nothing runs eagerly. Retries are made quick
(NOTIFICATIONS_RETRY_BASE) so a test of backoff takes seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from urllib.parse import quote

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import task_postrun
from django.conf import settings
from django.db import close_old_connections

from marketplace.celery import app


def _close_connections(**kwargs) -> None:
    # The worker thread's database connection must not outlive the test (the flush, the DROP).
    close_old_connections()


def database_url() -> str:
    """DATABASE_URL of the database this process uses now (the test database), for a worker process."""
    db = settings.DATABASES["default"]
    password = f":{quote(db['PASSWORD'], safe='')}" if db.get("PASSWORD") else ""
    return f"postgres://{quote(db['USER'], safe='')}{password}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def wait_until(check: Callable[[], object], timeout: float = 15.0, interval: float = 0.05) -> object:
    """Poll `check` until it returns something truthy; fail after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"not true within {timeout} s: {check}")
        time.sleep(interval)


@pytest.fixture
def celery_worker(transactional_db, settings):
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("the worker tests need REDIS_URL (a Redis broker)")
    settings.NOTIFICATIONS_RETRY_BASE = 0.5
    settings.NOTIFICATIONS_RETRY_CAP = 2.0
    app.control.purge()  # tasks left in the queue by earlier tests that had no worker
    task_postrun.connect(_close_connections, dispatch_uid="kindly.tests.close_connections")
    try:
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=30) as worker:
            yield worker
    finally:
        task_postrun.disconnect(dispatch_uid="kindly.tests.close_connections")
        close_old_connections()
