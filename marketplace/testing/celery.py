"""A real Celery worker on the test Redis (REDIS_URL), in a thread of the test process.

``celery_worker`` starts one (solo pool) for a transactional test: tasks enqueued on commit run
in it against the test database, as in production; nothing runs eagerly. Retries are made quick
(NOTIFICATIONS_RETRY_BASE) so a test of backoff takes seconds.

Without it, ``money_tasks_in_process`` (autouse) runs the money tasks (payments.tasks) when they
are enqueued, in the test's process, as their last try (a gateway error counts as failed at once,
no backoff): the refund and payout tests see what a worker would have done after the commit.
``offer_notices_in_process`` (autouse) likewise tells the helpers of a round of offers
(requests_app.tasks.offers_tell) when it is enqueued, that is once the round has committed (in a
test inside a transaction: under django_capture_on_commit_callbacks(execute=True)).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from urllib.parse import quote

import pytest
from celery.contrib.testing.worker import start_worker
from celery.signals import after_task_publish, task_postrun, task_prerun
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, close_old_connections, connections

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


class _Traffic:
    """The tasks this process published (the test's and the worker thread's own) and the runs the
    worker thread finished, by task id: a retry publishes its id again and runs it again."""

    def __init__(self) -> None:
        self.published: Counter[str] = Counter()
        self.finished: Counter[str] = Counter()
        self.changed = threading.Condition()

    def on_publish(self, headers=None, body=None, **kwargs) -> None:
        task_id = (headers or {}).get("id") or (body or {}).get("id")
        if task_id:
            with self.changed:
                self.published[task_id] += 1
                self.changed.notify_all()

    def on_postrun(self, task_id=None, **kwargs) -> None:
        with self.changed:
            self.finished[task_id] += 1
            self.changed.notify_all()

    def idle(self) -> bool:
        return all(self.finished[task_id] >= count for task_id, count in self.published.items())


_traffic: _Traffic | None = None


def wait_for_worker(timeout: float = 15.0) -> None:
    """Wait until the celery_worker thread has run every task published so far, the ones those
    tasks published and their retries included (a retry waits out its countdown): what they would
    send is sent. A test that proves something did NOT happen waits for this, not a fixed sleep."""
    if _traffic is None:
        raise RuntimeError("wait_for_worker() needs the celery_worker fixture")
    with _traffic.changed:
        if not _traffic.changed.wait_for(_traffic.idle, timeout):
            left = {t: n - _traffic.finished[t] for t, n in _traffic.published.items() if _traffic.finished[t] < n}
            raise AssertionError(f"the worker did not finish these tasks within {timeout} s: {left}")


@pytest.fixture
def celery_worker(transactional_db, settings, request):
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("the worker tests need REDIS_URL (a Redis broker)")
    settings.NOTIFICATIONS_RETRY_BASE = 0.5
    settings.NOTIFICATIONS_RETRY_CAP = 2.0
    settings.PAYMENTS_RETRY_BASE = 0.5
    settings.PAYMENTS_RETRY_CAP = 2.0
    settings.VETTING_RETRY_BASE = 0.5
    settings.VETTING_RETRY_CAP = 2.0
    app.control.purge()  # tasks left in the queue by earlier tests that had no worker
    task_postrun.connect(_close_connections, dispatch_uid="kindly.tests.close_connections")
    global _traffic
    _traffic = _Traffic()
    after_task_publish.connect(_traffic.on_publish, weak=False, dispatch_uid="kindly.tests.published")
    task_postrun.connect(_traffic.on_postrun, weak=False, dispatch_uid="kindly.tests.finished")
    if "fake_stripe" in request.fixturenames:
        # The fake Stripe also checks the worker thread's connection: a task that called Stripe
        # inside a transaction fails the test as the web process's calls do.
        fake = request.getfixturevalue("fake_stripe")

        def watch_connection(**kwargs) -> None:
            connection = connections[DEFAULT_DB_ALIAS]
            if all(c is not connection for c in fake.other_connections):
                fake.other_connections.append(connection)

        task_prerun.connect(watch_connection, weak=False, dispatch_uid="kindly.tests.watch_stripe_caller")
    # The worker thread stops between two waits for a task (BRPOP): a wait of 0.1 s instead of
    # kombu's 1 s ends each test up to a second sooner.
    transport_options = app.conf.broker_transport_options
    app.conf.broker_transport_options = {**(transport_options or {}), "polling_interval": 0.1}
    try:
        with start_worker(app, pool="solo", concurrency=1, perform_ping_check=False, shutdown_timeout=30) as worker:
            yield worker
    finally:
        app.conf.broker_transport_options = transport_options
        task_postrun.disconnect(dispatch_uid="kindly.tests.close_connections")
        after_task_publish.disconnect(dispatch_uid="kindly.tests.published")
        task_postrun.disconnect(dispatch_uid="kindly.tests.finished")
        _traffic = None
        task_prerun.disconnect(dispatch_uid="kindly.tests.watch_stripe_caller")
        close_old_connections()


MONEY_TASKS = (
    "send_refund",
    "release_earning",
    "reverse_earning",
    "release_waiting_earnings",
    "sweep_refunds",
    "release_late_fee",
    "refund_late_fee",
    "release_late_fees",
    "charge_visit",
    "sweep_visit_charges",
    "release_tip",
    "refund_tip",
    "release_waiting_tips",
)


@pytest.fixture(autouse=True)
def money_tasks_in_process(request, monkeypatch):
    if "celery_worker" in request.fixturenames:
        yield  # the real worker takes them from the queue
        return
    from payments import tasks

    for name in MONEY_TASKS:
        task = getattr(tasks, name)

        def delay(*args, _task=task, **kwargs):
            return _task.apply(args=args, kwargs=kwargs, retries=settings.PAYMENTS_MAX_RETRIES, throw=True)

        monkeypatch.setattr(task, "delay", delay)
    yield


@pytest.fixture(autouse=True)
def offer_notices_in_process(request, monkeypatch):
    if "celery_worker" in request.fixturenames:
        yield  # the real worker takes them from the queue
        return
    from requests_app import tasks

    monkeypatch.setattr(tasks.offers_tell, "delay", lambda *args: tasks.offers_tell.apply(args=args, throw=True))
    yield


@pytest.fixture(autouse=True)
def matching_in_process(request, monkeypatch):
    """A browser test has no worker: the tasks that make a posted request visible to helpers (the
    care recipient's place, circles.tasks.place_recipient, then the request's first round of offers,
    requests_app.tasks.offer_request) run when enqueued, after the commit, in the live server's
    thread, as a worker would at once. Other tests ask for them (places_in_process, offers_send)."""
    if "celery_worker" in request.fixturenames or request.node.get_closest_marker("browser") is None:
        yield
        return
    from circles import tasks as circle_tasks
    from requests_app import services as request_services
    from requests_app import tasks as request_tasks
    from requests_app.models import ServiceRequest

    def place(recipient_id, *args, **kwargs):
        return circle_tasks.place_recipient.apply(args=[recipient_id])

    def offer(service_request_id, *args, **kwargs):
        if request_services.offers_send(service_request_id=service_request_id) == request_services.WAITING_FOR_PLACE:
            # Its place task, enqueued by the same commit, has not run yet: place it now, then offer.
            place(ServiceRequest.objects.get(pk=service_request_id).recipient_id)
            request_services.offers_send(service_request_id=service_request_id)

    monkeypatch.setattr(circle_tasks.place_recipient, "delay", place)
    monkeypatch.setattr(request_tasks.offer_request, "delay", offer)
    yield
