#!/usr/bin/env python
"""Load benchmark of the dashboard's calls and the browse call (issue 8).

Seeds PostgreSQL with 500 providers, 10,000 service requests and 2,000 bookings (plus clients
and messages), runs Kindly with production settings as two Daphne processes (one per core, as
docs/deploy.md advises; the load generator plays the load balancer, round-robin), signs users
in with real Django sessions (half clients, half providers), and prints throughput and
p50/p95/p99 latency per call at concurrency 1, 10 and 50. Server and load generator share the
machine, as the issue asks. The verdict line is about the dashboard's calls at concurrency 10,
with no errors anywhere.

    .venv/bin/python bench/api_load.py [--requests 600] [--processes 2] [--keep-db]

Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth), like `make test`.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB_NAME = "kindly_bench"
ENV = {
    "DJANGO_SETTINGS_MODULE": "marketplace.settings.production",
    "SECRET_KEY": "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{DB_NAME}",
    "FIREBASE_PROJECT_ID": "kindly-bench",
    # The Stripe backend is chosen (never called here): production refuses the test gateway.
    "STRIPE_SECRET_KEY": "sk_test_bench",
    "STRIPE_PUBLISHABLE_KEY": "pk_test_bench",
    "STRIPE_WEBHOOK_SECRET": "whsec_bench",
    "LOG_LEVEL": "WARNING",
    # Production runs with Redis (channel layer, cache, cached sessions); so does the benchmark.
    "REDIS_URL": "redis://127.0.0.1:6379/9",
    "THROTTLE_SIGN_IN": "",
}
# (name, path, whether the dashboard makes this call: the 50 ms target is for those).
# The dashboard asks for the 3 requests its card shows (frontend/islands/dashboard.tsx); the
# whole default page of 50 is measured too, as are the providers page's browse call.
CALLS = [
    ("auth/user", "/api/auth/user", True),
    ("bookings", "/api/bookings", True),
    ("service-requests", "/api/service-requests?limit=3", True),
    ("unread-count", "/api/messages/unread-count", True),
    ("requests, 50/page", "/api/service-requests", False),
    ("browse", "/api/providers?verified=true&sort=rating", False),
]
CONCURRENCY = [1, 10, 50]

N_PROVIDERS = 500
N_CLIENTS = 1000
N_REQUESTS = 10_000
N_BOOKINGS = 2_000
N_MESSAGES = 20_000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-qc", sql], check=True)


def seed() -> list[tuple[str, str]]:
    """Create the data set; return (session key, role) of the users the load runs as."""
    import django

    django.setup()
    import datetime as dt
    from decimal import Decimal

    from django.db import transaction
    from django.utils import timezone

    from accounts.models import User, UserType
    from bookings.models import Booking, BookingStatus
    from messaging.models import Message
    from providers.models import Provider, Specialty, VerificationStatus
    from requests_app.models import RequestStatus, ServiceCategory, ServiceRequest, TimeWindow, Urgency

    rng = random.Random(7)
    specialties = [s.value for s in Specialty]
    categories = list(ServiceCategory.objects.all())
    today = timezone.localdate()
    with transaction.atomic():
        provider_users = User.objects.bulk_create(
            User(
                id=f"bench-p-{i}",
                email=f"provider{i}@bench.example",
                first_name=f"Pat{i}",
                last_name="Helper",
                user_type=UserType.PROVIDER,
                password="!",
            )
            for i in range(N_PROVIDERS)
        )
        clients = User.objects.bulk_create(
            User(
                id=f"bench-c-{i}",
                email=f"client{i}@bench.example",
                first_name=f"Cleo{i}",
                last_name="Senior",
                user_type=UserType.CLIENT,
                password="!",
            )
            for i in range(N_CLIENTS)
        )
        providers = Provider.objects.bulk_create(
            Provider(
                user=u,
                phone="555-0100-000",
                specialties=rng.sample(specialties, 3),
                hourly_rate=Decimal(rng.choice(range(15, 101, 5))),
                service_area=f"Town {i % 40}",
                bio="Patient helper with years of experience supporting older neighbours at home. " * 2,
                experience="Volunteer at the senior centre.",
                verification_status=VerificationStatus.VERIFIED if i % 10 else VerificationStatus.PENDING,
                rating=Decimal(f"{rng.uniform(3, 5):.2f}"),
                total_reviews=rng.randint(0, 80),
            )
            for i, u in enumerate(provider_users)
        )
        requests = ServiceRequest.objects.bulk_create(
            ServiceRequest(
                client=clients[i % N_CLIENTS],
                category=rng.choice(categories),
                title=f"Help request {i}",
                description="Please help me with my tablet and a few errands around the house.",
                preferred_date=today + dt.timedelta(days=rng.randint(1, 60)),
                preferred_time=rng.choice([t.value for t in TimeWindow]),
                urgency=rng.choice(list(Urgency)).value,
                location="12 Elm Street",
                estimated_duration=60,
                max_budget=Decimal("60.00"),
                status=RequestStatus.BOOKED if i < N_BOOKINGS else RequestStatus.OPEN,
            )
            for i in range(N_REQUESTS)
        )
        verified = [p for p in providers if p.verification_status == VerificationStatus.VERIFIED]
        bookings = Booking.objects.bulk_create(
            Booking(
                service_request=r,
                provider=verified[i % len(verified)],
                client=r.client,
                scheduled_date=r.preferred_date,
                scheduled_time=r.preferred_time,
                duration=60,
                total_amount=Decimal("30.00"),
                status=rng.choice([BookingStatus.SCHEDULED, BookingStatus.CONFIRMED, BookingStatus.COMPLETED]),
            )
            for i, r in enumerate(requests[:N_BOOKINGS])
        )
        Message.objects.bulk_create(
            Message(
                sender=b.client,
                receiver=b.provider.user,
                booking=b,
                content="Hello, see you soon!",
                is_read=bool(j % 3),
            )
            for j, b in enumerate(rng.choices(bookings, k=N_MESSAGES))
        )
    # A production database has statistics and a visibility map (autovacuum keeps both); a freshly
    # bulk-loaded one needs VACUUM ANALYZE first, or COUNTs cannot use index-only scans.
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return sign_in()


def sign_in() -> list[tuple[str, str]]:
    """Real sessions for 60 clients and 60 verified providers: (session key, role)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from providers.models import VerificationStatus

    clients = User.objects.filter(id__startswith="bench-c-").order_by("created_at", "id")[:60]
    providers = User.objects.filter(
        id__startswith="bench-p-", provider__verification_status=VerificationStatus.VERIFIED
    ).order_by("created_at", "id")[:60]
    backend = settings.AUTHENTICATION_BACKENDS[0]
    sessions = []
    # Interleaved, so that every concurrency level runs half its connections as clients and half
    # as providers: the dashboard's calls answer each role differently.
    people = [pair for c, p in zip(clients, providers, strict=True) for pair in ((c, "client"), (p, "provider"))]
    for user, role in people:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append((store.session_key, role))
    return sessions


class Connection:
    """One keep-alive HTTP/1.1 connection (the load generator must not be the bottleneck)."""

    def __init__(self, port: int, cookie: str):
        self.port, self.cookie = port, cookie
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str) -> int:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None
        self.writer.write(
            (
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: application/json\r\n"
                f"X-Forwarded-Proto: https\r\nCookie: sessionid={self.cookie}\r\n\r\n"
            ).encode()
        )
        await self.writer.drain()
        status_line = await self.reader.readline()
        length, chunked = 0, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            if name.lower() == "content-length":
                length = int(value)
            elif name.lower() == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
        if chunked:
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            await self.reader.readexactly(length)
        return int(status_line.split()[1])


async def run_level(
    path: str, ports: list[int], sessions: list[tuple[str, str]], concurrency: int, total: int
) -> tuple[list[float], float, int]:
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))

    async def worker(n: int) -> None:
        nonlocal errors
        conn = Connection(ports[n % len(ports)], sessions[n % len(sessions)][0])
        for _ in counter:
            t0 = time.perf_counter()
            status = await conn.get(path)
            latencies.append((time.perf_counter() - t0) * 1000)
            if status != 200:
                errors += 1

    started = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(concurrency)))
    return latencies, time.perf_counter() - started, errors


def pct(values: list[float], q: float) -> float:
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=600, help="requests per call and concurrency level")
    parser.add_argument("--processes", type=int, default=2, help="Daphne processes (docs/deploy.md: one per core)")
    parser.add_argument("--keep-db", action="store_true", help="reuse an already seeded bench database")
    args = parser.parse_args()

    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    python = sys.executable
    if not args.keep_db:
        _psql(f"DROP DATABASE IF EXISTS {DB_NAME}")
        _psql(f"CREATE DATABASE {DB_NAME}")
    subprocess.run([python, "manage.py", "migrate", "-v0"], cwd=ROOT, check=True)
    t0 = time.perf_counter()
    import django

    django.setup()
    from accounts.models import User

    if args.keep_db and User.objects.filter(id__startswith="bench-").exists():
        sessions = sign_in()
        print(f"reusing the seeded {DB_NAME} database")
    else:
        sessions = seed()
        print(
            f"seeded {N_PROVIDERS} providers, {N_REQUESTS} requests, {N_BOOKINGS} bookings, "
            f"{N_MESSAGES} messages in {time.perf_counter() - t0:.1f} s"
        )

    ports = [_free_port() for _ in range(args.processes)]
    servers = [
        subprocess.Popen(
            [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(p), "marketplace.asgi:application"],
            cwd=ROOT,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for p in ports
    ]
    try:
        for p in ports:
            for _ in range(100):
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{p}/healthz", timeout=1)  # noqa: S310
                    break
                except OSError:
                    time.sleep(0.2)
        print(
            f"{args.processes} Daphne processes (production settings), PostgreSQL, "
            f"{os.cpu_count()} cores shared with the load generator\n"
        )
        print(f"{'call':<18}{'conc':>5}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}")
        worst_p95_at_10, worst_call, total_errors = 0.0, "", 0
        for name, path, dashboard in CALLS:
            asyncio.run(run_level(path, ports, sessions, 4, 40))  # warm up connections and caches
            for conc in CONCURRENCY:
                lat, elapsed, errors = asyncio.run(run_level(path, ports, sessions, conc, args.requests))
                p95 = pct(lat, 95)
                total_errors += errors
                if conc == 10 and dashboard and p95 > worst_p95_at_10:
                    worst_p95_at_10, worst_call = p95, name
                print(
                    f"{name:<18}{conc:>5}{len(lat) / elapsed:>9.0f}{pct(lat, 50):>9.1f}{p95:>9.1f}"
                    f"{pct(lat, 99):>9.1f}{errors:>8}"
                )
        verdict = "meets" if worst_p95_at_10 < 50 and not total_errors else "MISSES"
        print(
            f"\nworst p95 of the dashboard's calls at concurrency 10: {worst_p95_at_10:.1f} ms ({worst_call}; "
            f"{verdict} the 50 ms target)"
        )
    finally:
        for s in servers:
            s.terminate()
        for s in servers:
            s.wait(timeout=10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
