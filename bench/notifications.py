"""Email notifications: accept-to-inbox latency, and how long one worker takes to send 1,000 reminders.

On a throwaway PostgreSQL database, with a real SMTP server (aiosmtpd, in this process) and one
Celery worker process (prefork, 2 processes: "one worker on 2 cores") on the Redis broker:

1. accept-to-inbox: N times, a verified provider accepts an open request (the booking service,
   committed in this process); measured from the call to the moment the client's email is in
   the SMTP server's inbox. Prints p50/p95/p99 (target p95 under 2 s).
2. reminders: 500 confirmed bookings whose visit starts within 24 hours; one run of the reminder
   job (as beat starts it) makes 1,000 emails (client and provider of each). Measured from the
   job's enqueue to the 1,000th email in the inbox (target under 60 s).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/kindly REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/notifications.py [-n 50] [--bookings 500] [--concurrency 2]

Needs PostgreSQL and Redis (the broker), like `make test`. The queue of that Redis db is purged.
"""

from __future__ import annotations

import argparse
import datetime as dt
import logging
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marketplace.settings.test")

import django  # noqa: E402

django.setup()

from django.conf import settings  # noqa: E402
from django.test.utils import setup_databases, teardown_databases  # noqa: E402
from django.utils import timezone  # noqa: E402

TARGET_ACCEPT_P95_S = 2.0
TARGET_REMINDERS_S = 60.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def start_worker(smtp, concurrency: int) -> subprocess.Popen:
    from marketplace.testing.celery import database_url

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "marketplace.settings.test",
        "DATABASE_URL": database_url(),
        "EMAIL_URL": f"smtp://{smtp.host}:{smtp.port}",
        "LOG_LEVEL": "WARNING",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "marketplace", "worker", "--pool", "prefork",
         "--concurrency", str(concurrency), "--without-gossip", "--without-mingle", "--without-heartbeat",
         "--loglevel", "WARNING"],
        env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    return worker


def wait_for(smtp, count: int, timeout: float) -> float:
    """Monotonic time the inbox reached `count` messages."""
    deadline = time.monotonic() + timeout
    with smtp.inbox.lock:
        while len(smtp.inbox.messages) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                raise SystemExit(f"only {len(smtp.inbox.messages)} of {count} emails arrived in {timeout:.0f} s")
            smtp.inbox.lock.wait(left)
        return smtp.inbox.arrived_at[count - 1]


def visit_slot_within_24_hours() -> tuple[dt.date, str]:
    """A (date, time window) whose visit starts between now and 24 hours from now (site zone)."""
    from requests_app.models import WINDOW_START, TimeWindow

    now = timezone.localtime()
    for days in (0, 1):
        day = now.date() + dt.timedelta(days=days)
        for window in (TimeWindow.MORNING, TimeWindow.AFTERNOON, TimeWindow.EVENING):
            start = dt.datetime.combine(day, WINDOW_START[window], tzinfo=now.tzinfo)
            if now + dt.timedelta(minutes=5) < start <= now + dt.timedelta(hours=23, minutes=55):
                return day, window
    raise RuntimeError("no time window starts within 24 hours")


def bench_accepts(smtp, n: int, warmup: int) -> list[float]:
    from bookings.services import service_request_accept
    from providers.tests.factories import VerifiedProviderFactory
    from requests_app.tests.factories import ServiceRequestFactory

    provider = VerifiedProviderFactory()
    requests = ServiceRequestFactory.create_batch(n + warmup)
    latencies = []
    for i, service_request in enumerate(requests):
        before = len(smtp.inbox.messages)
        started = time.monotonic()
        service_request_accept(service_request_id=service_request.pk, actor=provider.user)
        arrived = wait_for(smtp, before + 1, timeout=60)
        if i >= warmup:
            latencies.append(arrived - started)
    return latencies


def bench_reminders(smtp, bookings: int) -> tuple[int, float, float]:
    from bookings.tests.factories import BookingFactory
    from notifications.tasks import send_visit_reminders
    from providers.tests.factories import VerifiedProviderFactory
    from requests_app.tests.factories import ServiceRequestFactory

    day, window = visit_slot_within_24_hours()
    # One provider per visit: they all start in the same window, and a provider holds one visit at a time.
    for provider in VerifiedProviderFactory.create_batch(bookings):
        request = ServiceRequestFactory(preferred_date=day, preferred_time=window, status="booked")
        BookingFactory(service_request=request, provider=provider, status="confirmed")
    expected = 2 * bookings
    before = len(smtp.inbox.messages)
    started = time.monotonic()
    send_visit_reminders.delay()
    from notifications.models import Delivery

    while Delivery.objects.filter(event__kind="visit_reminder").count() < expected:
        time.sleep(0.2)
    recorded = time.monotonic() - started
    done = wait_for(smtp, before + expected, timeout=600)
    return expected, done - started, recorded


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=50, help="accepts measured (default 50)")
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--bookings", type=int, default=500, help="bookings to remind, 2 emails each (default 500)")
    parser.add_argument("--concurrency", type=int, default=2, help="worker processes (default 2: 2 cores)")
    args = parser.parse_args()
    if not settings.CELERY_BROKER_URL.startswith("redis"):
        raise SystemExit("Set REDIS_URL (the broker), e.g. redis://127.0.0.1:6379/0")
    logging.getLogger("mail.log").setLevel(logging.WARNING)

    from marketplace.celery import app
    from marketplace.testing.mail import SmtpServer, free_port

    smtp = SmtpServer(free_port())
    smtp.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    old_config = setup_databases(verbosity=0, interactive=False, keepdb=False)
    worker = None
    try:
        app.control.purge()
        worker = start_worker(smtp, args.concurrency)
        accepts = bench_accepts(smtp, args.n, args.warmup)
        count, reminders_s, recorded_s = bench_reminders(smtp, args.bookings)
    finally:
        if worker is not None:
            worker.terminate()
            worker.wait(timeout=30)
        # The worker's CPU time (its pool processes included, waited for by it): what the machine's
        # other load does not change much, unlike the wall-clock times.
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        smtp.stop()
        from django.db import connections

        connections.close_all()
        teardown_databases(old_config, verbosity=0)

    ms = [s * 1000 for s in accepts]
    print(
        f"Kindly email notifications: 1 Celery worker ({args.concurrency} processes) on Redis, "
        f"aiosmtpd on loopback, {os.cpu_count()} CPU cores"
    )
    print(
        f"accept -> email in the inbox ({len(ms)} accepts): p50 {percentile(ms, 0.5):.0f} ms, "
        f"p95 {percentile(ms, 0.95):.0f} ms, p99 {percentile(ms, 0.99):.0f} ms, mean {statistics.fmean(ms):.0f} ms"
    )
    p95_s = percentile(accepts, 0.95)
    print(f"  target p95 < {TARGET_ACCEPT_P95_S:.0f} s: {'PASS' if p95_s < TARGET_ACCEPT_P95_S else 'FAIL'}")
    print(f"{count:,} visit reminders (one job run -> {count:,} emails in the inbox): {reminders_s:.1f} s")
    print(
        f"  target < {TARGET_REMINDERS_S:.0f} s: {'PASS' if reminders_s < TARGET_REMINDERS_S else 'FAIL'} "
        f"({count / reminders_s:.0f} emails/s; the job had recorded every delivery after {recorded_s:.1f} s)"
    )
    cpu = usage.ru_utime + usage.ru_stime
    print(
        f"worker CPU time for the whole run ({count + len(ms) + args.warmup:,} emails, accepts and reminders): "
        f"{cpu:.1f} s, {cpu / (count + len(ms) + args.warmup) * 1000:.0f} ms per email; load average "
        f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores while measured"
    )


if __name__ == "__main__":
    main()
