#!/usr/bin/env python
"""Load benchmark of the dashboard (page and API calls) and the browse call.

Seeds PostgreSQL with 500 providers, 10,000 service requests and 2,000 bookings (plus clients
and messages), runs Kindly with production settings on loopback, signs users in with real Django
sessions (half clients, half providers), and measures with keep-alive connections. Server and
load generator share the machine.

How a build is served is read from its checkout: with a gunicorn.conf.py, gunicorn (gthread
workers, Django's WSGI handler, the counts of that file unless --workers/--threads say
otherwise), as docs/deploy.md runs it; without one (the builds before issue 13), two Daphne
processes (one per core, as that build's docs/deploy.md said), round-robin from the load
generator playing the load balancer.

One build (this checkout): throughput and p50/p95/p99 of each call at concurrency 1, 10 and 50.

    .venv/bin/python bench/api_load.py [--requests 600] [--keep-db]

Side by side with another commit, checked out in a git worktree:

    git worktree add /tmp/kindly-base e132bf3
    .venv/bin/python bench/api_load.py --against /tmp/kindly-base [--rounds 3] [--requests 400]

serves both builds at once, each from its own checkout, and measures each target on one build
right after the other, the order alternating (A B, B A, A B): the dashboard page, each API call,
and "dashboard load" (the page, then the calls that build's dashboard makes before its first
paint, in parallel as a browser does), at concurrency 10 (--concurrency). It prints the medians over the
rounds of p95 and throughput, and each round's p95: the machine is noisy, read the spread before
the medians. Both builds use the same seeded database when their migrations are the same
files; otherwise the other build gets a database of its own, seeded from its own checkout with
the same generator. Each checkout needs its Vite build (static/dist/manifest.json): it is built
when missing (node_modules linked from this checkout). DASHBOARD_FIRST_PAINT below says which
calls this checkout's dashboard makes before its first paint; --against-first-paint says it for
the other build (by default, the three calls of the builds before issue 13).

Needs PostgreSQL on 127.0.0.1:5432 (user postgres, trust auth) and Redis, like `make test`.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import hashlib
import json
import math
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ENV = {
    "DJANGO_SETTINGS_MODULE": "marketplace.settings.production",
    "SECRET_KEY": "bench-only-secret-key-0123456789abcdefghijklmnopqrstuvwxyz",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "FIREBASE_PROJECT_ID": "kindly-bench",
    # The Stripe backend is chosen (never called here): production refuses the test gateway.
    "STRIPE_SECRET_KEY": "sk_test_bench",
    "STRIPE_PUBLISHABLE_KEY": "pk_test_bench",
    "STRIPE_WEBHOOK_SECRET": "whsec_bench",
    "LOG_LEVEL": "WARNING",
    "THROTTLE_SIGN_IN": "",
}
JSON, HTML = "application/json", "text/html"
# (name, path, what it asks for). The first three API calls are the ones the dashboard island
# makes as it mounts (frontend/islands/dashboard.tsx): it asks for the 3 requests its card shows.
# The whole default page of 50 requests and the providers page's browse call are measured too.


def _next_tuesday_morning() -> str:
    """The availability search of issue 18 ("available next Tuesday morning"), as browse's query."""
    today = dt.date.today()
    tuesday = today + dt.timedelta(days=(1 - today.weekday()) % 7 or 7)
    return f"&availableOn={tuesday.isoformat()}&timeWindow=morning"


PAGE = ("dashboard page", "/dashboard", HTML)
CALLS = [
    ("bookings", "/api/bookings", JSON),
    ("service-requests", "/api/service-requests?limit=3", JSON),
    ("unread-count", "/api/messages/unread-count", JSON),
    ("auth/user", "/api/auth/user", JSON),
    ("requests, 50/page", "/api/service-requests", JSON),
    ("browse", "/api/providers?verified=true&sort=rating", JSON),
    ("browse, free next Tuesday morning", f"/api/providers?verified=true&sort=rating{_next_tuesday_morning()}", JSON),
    # The visit (issue 17): a provider's visits of today, and the admins' Today tab (every visit of the day).
    ("provider's today", "/api/bookings/today", JSON),
    ("admin today", "/api/admin/today", JSON),
]
# Who asks: a call named here goes out with the sessions of that role only; every other call with the
# clients' and providers' (interleaved), never the admins'.
CALL_ROLE = {"provider's today": "provider", "admin today": "admin"}
# Calls a build may not serve yet (the checkouts before issue 17): measured only where its URL is routed.
CALL_ROUTE = {
    "provider's today": ("bookings/urls.py", "api/bookings/today"),
    "admin today": ("adminpanel/urls.py", "api/admin/today"),
}


def serves(root: Path, name: str) -> bool:
    where = CALL_ROUTE.get(name)
    return where is None or where[1] in (root / where[0]).read_text()


def sessions_for(sessions: list[tuple[str, str]], name: str) -> list[tuple[str, str]]:
    role = CALL_ROLE.get(name)
    return [s for s in sessions if (s[1] == role if role else s[1] != "admin")]


# The API calls this checkout's dashboard makes before its first paint (the page's own data
# excepted): keep it equal to what frontend/islands/dashboard.tsx does on mount.
DASHBOARD_FIRST_PAINT: list[str] = []  # the dashboard paints from its props (issue 13 item 2)
CONCURRENCY = [1, 10, 50]
# Fair under load (docs/deploy.md): at any concurrency level each call's p95 stays within FAIR_TAIL
# times its p50 and under FAIR_P95_MS.
FAIR_TAIL = 4
FAIR_P95_MS = 250

N_PROVIDERS = 500
N_CLIENTS = 1000
N_REQUESTS = 14_000
N_BOOKINGS = 10_000  # issue 17: the day's visits measured among 10,000 bookings
N_ADMINS = 4
N_MESSAGES = 20_000
# Care circles (issue 16): each client's own recipient, with a circle of 1 to 5 members (the client
# organizes it; up to 4 other clients are members), so the dashboard and the lists are measured
# through circles. The builds before circles get none (the same rows otherwise).
CIRCLE_MAX_MEMBERS = 5


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _psql(sql: str) -> None:
    subprocess.run(["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-qc", sql], check=True)


def _psql_rows(sql: str) -> list[str]:
    """The rows a query answers (one value a row), from the server's maintenance database."""
    out = subprocess.run(
        ["psql", "-h", "127.0.0.1", "-U", "postgres", "-d", "postgres", "-Atc", sql],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split()


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (all its threads), 0 if it is gone (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    """A process's descendants (gunicorn's workers under its master)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = [int(k) for k in (task / "children").read_text().split()]
        except OSError:
            continue
        for kid in kids:
            found += [kid, *_children(kid)]
    return found


def _backends(database: str) -> list[int]:
    """The PostgreSQL backends serving a database (what its queries cost runs in them)."""
    return [int(p) for p in _psql_rows(f"SELECT pid FROM pg_stat_activity WHERE datname = '{database}'")]


# ---------------------------------------------------------------- data (runs inside Django)


def seed() -> None:
    """Create the data set (the same on every run: a seeded generator)."""
    import datetime as dt
    from decimal import Decimal

    from django.apps import apps
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import User, UserType
    from bookings.models import Booking, BookingStatus
    from messaging.models import Message
    from providers.models import Provider, Specialty, VerificationStatus
    from requests_app.models import RequestStatus, ServiceCategory, ServiceRequest, TimeWindow, Urgency

    rng = random.Random(7)
    specialties = [s.value for s in Specialty]
    categories = list(ServiceCategory.objects.order_by("pk"))
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
        User.objects.bulk_create(
            User(
                id=f"bench-a-{i}",
                email=f"admin{i}@bench.example",
                first_name=f"Ada{i}",
                last_name="Admin",
                user_type=UserType.ADMIN,
                password="!",
            )
            for i in range(N_ADMINS)
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
        recipient_of = _seed_circles(clients) if apps.is_installed("circles") else None

        def for_whom(client) -> dict:
            return {} if recipient_of is None else {"recipient_id": recipient_of[client.pk]}

        requests = ServiceRequest.objects.bulk_create(
            ServiceRequest(
                **for_whom(clients[i % N_CLIENTS]),
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

        # A provider's k-th visit falls in week k: no two of their visits overlap (a provider holds
        # one visit at a time, a constraint since issue 18); their first is today (the "today" calls).
        def visit_day(i: int):
            week = i // len(verified)
            return today if week == 0 else today + dt.timedelta(days=7 * week + rng.randint(-6, 0))

        bookings = [
            Booking(
                **for_whom(r.client),
                service_request=r,
                provider=verified[i % len(verified)],
                client=r.client,
                scheduled_date=visit_day(i),
                scheduled_time=r.preferred_time,
                duration=60,
                total_amount=Decimal("30.00"),
                status=rng.choice([BookingStatus.SCHEDULED, BookingStatus.CONFIRMED, BookingStatus.COMPLETED]),
            )
            for i, r in enumerate(requests[:N_BOOKINGS])
        ]
        for booking in bookings:
            if hasattr(booking, "fill_visit_times"):  # the builds before issue 18 have no visit times
                booking.fill_visit_times()
        bookings = Booking.objects.bulk_create(bookings)
        try:
            from providers.models import WeeklyHours
        except ImportError:  # the builds before issue 18 have no weekly hours
            WeeklyHours = None
        if WeeklyHours is not None:
            # Most providers keep weekday hours (mornings, or afternoons and evenings); every tenth sets none.
            WeeklyHours.objects.bulk_create(
                WeeklyHours(provider=p, weekday=day, start_time=dt.time(*start), end_time=dt.time(*end))
                for i, p in enumerate(verified)
                if i % 10
                for day in range(5)
                for start, end in ([((8, 0), (12, 0))] if i % 2 else [((12, 0), (17, 0)), ((17, 0), (20, 0))])
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
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def _seed_circles(clients: list) -> dict[str, int]:
    """Each client's own care recipient and its circle of 1 to CIRCLE_MAX_MEMBERS members (the client
    as organizer, other clients as members), in bulk. Returns {client id: recipient id}. Its own
    generator, so the rest of the data is the same as a build without circles draws it."""
    from circles.models import CareRecipient, CircleMember, CircleRole

    rng = random.Random(16)
    recipients = CareRecipient.objects.bulk_create(
        CareRecipient(first_name=c.first_name, last_name=c.last_name, address="12 Elm Street", account=c)
        for c in clients
    )
    members = []
    for i, recipient in enumerate(recipients):
        members.append(CircleMember(recipient=recipient, user=clients[i], role=CircleRole.ORGANIZER))
        others = [j for j in rng.sample(range(len(clients)), CIRCLE_MAX_MEMBERS) if j != i]
        for j in others[: rng.randint(0, CIRCLE_MAX_MEMBERS - 1)]:
            members.append(CircleMember(recipient=recipient, user=clients[j], role=CircleRole.MEMBER))
    CircleMember.objects.bulk_create(members, batch_size=2000)
    return {c.pk: r.pk for c, r in zip(clients, recipients, strict=True)}


def sign_in() -> list[tuple[str, str]]:
    """Real sessions for 60 clients and 60 verified providers: (session key, role)."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore

    from accounts.models import User
    from providers.models import VerificationStatus

    clients = User.objects.filter(id__startswith="bench-c-").order_by("created_at", "id")[:60]
    admins = User.objects.filter(id__startswith="bench-a-").order_by("id")
    providers = User.objects.filter(
        id__startswith="bench-p-", provider__verification_status=VerificationStatus.VERIFIED
    ).order_by("created_at", "id")[:60]
    backend = settings.AUTHENTICATION_BACKENDS[0]
    sessions = []
    # Interleaved, so that every concurrency level runs half its connections as clients and half
    # as providers: the dashboard's calls answer each role differently.
    people = [pair for c, p in zip(clients, providers, strict=True) for pair in ((c, "client"), (p, "provider"))]
    people += [(a, "admin") for a in admins]  # only the admins' calls use these (CALL_ROLE)
    for user, role in people:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = backend
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        if role == "admin":
            store.update(_second_step_passed(user))
        store.create()
        sessions.append((store.session_key, role))
    return sessions


def _second_step_passed(user) -> dict[str, str]:
    """What a staff session holds once it passed the second step (django_otp.login after a code
    from the user's authenticator app), on a checkout that has it."""
    from django.apps import apps

    if not apps.is_installed("django_otp"):
        return {}
    from django_otp import DEVICE_ID_SESSION_KEY
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device, _ = TOTPDevice.objects.get_or_create(user=user, name="Authenticator app", defaults={"confirmed": True})
    return {DEVICE_ID_SESSION_KEY: device.persistent_id}


def prepare_data(keep_db: bool) -> list[tuple[str, str]]:
    """In a process set up for one checkout and database: seed (unless kept), sign in."""
    import django

    django.setup()
    from accounts.models import User

    if keep_db and User.objects.filter(id__startswith="bench-").exists():
        print("  reusing the seeded data", file=sys.stderr)
    else:
        t0 = time.perf_counter()
        seed()
        print(
            f"  seeded {N_PROVIDERS} providers, {N_REQUESTS} requests, {N_BOOKINGS} bookings, "
            f"{N_MESSAGES} messages in {time.perf_counter() - t0:.1f} s",
            file=sys.stderr,
        )
    return sign_in()


# ---------------------------------------------------------------- builds and their servers


@dataclass
class Build:
    label: str
    root: Path
    server: str  # "gunicorn" or "daphne"
    first_paint: list[str]
    database: str = ""
    sessions: list[tuple[str, str]] = field(default_factory=list)

    def env(self, redis_url: str) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PYTHON"))}
        env.update(ENV, DATABASE_URL=f"postgres://postgres@127.0.0.1:5432/{self.database}", REDIS_URL=redis_url)
        return env


def server_kind(root: Path, choice: str) -> str:
    if choice != "auto":
        return choice
    return "gunicorn" if (root / "gunicorn.conf.py").exists() else "daphne"


def migrations_digest(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.glob("*/migrations/*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def ensure_vite_build(root: Path) -> None:
    if (root / "static" / "dist" / "manifest.json").exists():
        return
    if not (root / "node_modules").exists():
        (root / "node_modules").symlink_to((ROOT / "node_modules").resolve())
    print(f"  building the islands in {root} (vite build)...", file=sys.stderr)
    subprocess.run(["npx", "--no-install", "vite", "build", "--logLevel", "warn"], cwd=root, check=True)


def prepare_database(build: Build, keep_db: bool, redis_url: str) -> None:
    """Create (unless kept), migrate with the build's own code, seed and sign in, in a subprocess
    running from the build's checkout."""
    if not keep_db:
        _psql(f"DROP DATABASE IF EXISTS {build.database}")
        _psql(f"CREATE DATABASE {build.database}")
    env = build.env(redis_url)
    subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=build.root, env=env, check=True)
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--prepare-data", *(["--keep-db"] if keep_db else [])],
        cwd=build.root,
        env=env,
        check=True,
        stdout=subprocess.PIPE,
        text=True,
    ).stdout
    build.sessions = [tuple(s) for s in json.loads(out)]


class Server:
    """A build's HTTP server(s) on loopback ports, started from its own checkout."""

    def __init__(self, build: Build, redis_url: str, workers: int | None, threads: int | None, processes: int):
        self.build = build
        env = build.env(redis_url)
        python = sys.executable
        if build.server == "gunicorn":
            self.ports = [_free_port()]
            cmd = [python, "-m", "gunicorn", "-b", f"127.0.0.1:{self.ports[0]}"]
            cmd += ["--workers", str(workers)] if workers else []
            cmd += ["--threads", str(threads)] if threads else []
            commands = [cmd]
        else:
            self.ports = [_free_port() for _ in range(processes)]
            commands = [
                [python, "-m", "daphne", "-b", "127.0.0.1", "-p", str(p), "marketplace.asgi:application"]
                for p in self.ports
            ]
        self.procs = [
            subprocess.Popen(c, cwd=build.root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            for c in commands
        ]
        try:
            self._wait_ready()
        except Exception:
            self.stop()
            raise

    def _wait_ready(self) -> None:
        for port in self.ports:
            deadline = time.monotonic() + 60
            while True:
                if any(p.poll() is not None for p in self.procs):
                    raise RuntimeError(f"the {self.build.label} server exited on start")
                try:
                    urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)  # noqa: S310
                    break
                except urllib.error.HTTPError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise RuntimeError(f"the {self.build.label} server did not start") from None
                    time.sleep(0.2)

    def describe(self, workers: int | None, threads: int | None) -> str:
        if self.build.server == "gunicorn":
            counts = f"{workers or 'conf'} workers x {threads or 'conf'} threads"
            return f"gunicorn gthread ({counts}, {self.build.root.name}/gunicorn.conf.py)"
        return f"{len(self.ports)} Daphne processes"

    def cpu(self) -> dict[int, float]:
        """CPU seconds so far of each of the server's processes and of the PostgreSQL backends of
        its database: per-request CPU does not depend on what else the machine runs."""
        pids = [p.pid for p in self.procs]
        pids += [kid for pid in pids for kid in _children(pid)] + _backends(self.build.database)
        return {pid: _cpu_seconds(pid) for pid in pids}

    def stop(self) -> None:
        for p in self.procs:
            if p.poll() is None:
                p.terminate()
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait(timeout=5)


# ---------------------------------------------------------------- load


class Connection:
    """One keep-alive HTTP/1.1 connection (the load generator must not be the bottleneck)."""

    def __init__(self, port: int, cookie: str):
        self.port, self.cookie = port, cookie
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def get(self, path: str, accept: str = JSON) -> int:
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
            assert self.reader is not None
            self.writer.write(
                (
                    f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: {accept}\r\n"
                    f"X-Forwarded-Proto: https\r\nCookie: sessionid={self.cookie}\r\n\r\n"
                ).encode()
            )
            await self.writer.drain()
            status_line = await self.reader.readline()
            if status_line:
                break
            # The server closed an idle keep-alive connection: open a new one, once.
            self.writer.close()
            self.writer = None
            if attempt == 2:
                raise ConnectionError(f"no response to GET {path}")
        length, chunked, close = 0, False, False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.lower()
            if name == "content-length":
                length = int(value)
            elif name == "transfer-encoding" and "chunked" in value.lower():
                chunked = True
            elif name == "connection" and "close" in value.lower():
                close = True
        if chunked:
            while True:
                size = int((await self.reader.readline()).strip(), 16)
                await self.reader.readexactly(size + 2)
                if size == 0:
                    break
        else:
            await self.reader.readexactly(length)
        if close:
            self.writer.close()
            self.writer = None
        return int(status_line.split()[1])

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


@dataclass
class Result:
    latencies: list[float]
    elapsed: float
    errors: int
    cpu: float = float("nan")  # server + PostgreSQL CPU seconds spent on the run

    @property
    def cpu_ms(self) -> float:
        """CPU milliseconds per request (per page load for a page load)."""
        return self.cpu * 1000 / len(self.latencies)

    @property
    def rate(self) -> float:
        return len(self.latencies) / self.elapsed

    def pct(self, q: float) -> float:
        return statistics.quantiles(self.latencies, n=100, method="inclusive")[int(q) - 1]


async def run_level(
    requests: list[tuple[str, str]], ports: list[int], sessions: list[tuple[str, str]], concurrency: int, total: int
) -> Result:
    """`total` times, over `concurrency` workers: `requests[0]`, then the rest in parallel (each
    on a connection of its own, as a browser does). One latency per time: start to last byte."""
    latencies: list[float] = []
    errors = 0
    counter = iter(range(total))

    async def worker(n: int) -> None:
        nonlocal errors
        cookie = sessions[n % len(sessions)][0]
        first = Connection(ports[n % len(ports)], cookie)
        rest = [Connection(ports[(n + 1 + i) % len(ports)], cookie) for i in range(len(requests) - 1)]
        try:
            for _ in counter:
                t0 = time.perf_counter()
                statuses = [await first.get(*requests[0])]
                if rest:
                    statuses += await asyncio.gather(*(c.get(*r) for c, r in zip(rest, requests[1:], strict=True)))
                latencies.append((time.perf_counter() - t0) * 1000)
                errors += sum(s != 200 for s in statuses)
        finally:
            for c in [first, *rest]:
                c.close()

    started = time.perf_counter()
    await asyncio.gather(*(worker(n) for n in range(concurrency)))
    return Result(latencies, time.perf_counter() - started, errors)


def measure(
    requests: list[tuple[str, str]], ports: list[int], sessions: list[tuple[str, str]], concurrency: int, total: int
) -> Result:
    return asyncio.run(run_level(requests, ports, sessions, concurrency, total))


WARM_UP_AT_ONCE = 50  # sessions warmed at once (each with a connection per request of a target)


def warm_up(requests: list[tuple[str, str]], ports: list[int], sessions: list[tuple[str, str]]) -> None:
    """Every session through every process, twice (connections, caches, prepared statements): a
    measured level uses up to as many sessions as it has connections, and a session the warm-up
    missed would be measured cold (its cached reads computed, all at once at the start)."""
    for start in range(0, len(sessions), WARM_UP_AT_ONCE):
        some = sessions[start : start + WARM_UP_AT_ONCE]
        measure(requests, ports, some, len(some), 2 * len(some))


# ---------------------------------------------------------------- the two modes


def single(args: argparse.Namespace, build: Build) -> int:
    server = Server(build, args.redis_url, args.workers, args.threads, args.processes)
    try:
        print(
            f"{server.describe(args.workers, args.threads)}, production settings, PostgreSQL, "
            f"{os.cpu_count()} cores shared with the load generator\n"
        )
        print(f"{'call':<18}{'conc':>5}{'req/s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}{'errors':>8}")
        total_errors = 0
        for name, path, accept in [t for t in [PAGE, *CALLS] if not args.only or t[0] in args.only]:
            sessions = sessions_for(build.sessions, name)
            warm_up([(path, accept)], server.ports, sessions)
            for conc in CONCURRENCY:
                r = measure([(path, accept)], server.ports, sessions, conc, args.requests)
                total_errors += r.errors
                print(
                    f"{name:<18}{conc:>5}{r.rate:>9.0f}{r.pct(50):>9.1f}{r.pct(95):>9.1f}{r.pct(99):>9.1f}{r.errors:>8}"
                )
    finally:
        server.stop()
    return 1 if total_errors else 0


def targets(build: Build, only: list[str], builds: list[Build] = ()) -> list[tuple[str, list[tuple[str, str]]]]:
    """What --against measures: the page, each call every build serves, the dashboard load (those named
    in `only`)."""
    roots = [b.root for b in builds] or [build.root]
    by_name = {name: (path, accept) for name, path, accept in CALLS if all(serves(r, name) for r in roots)}
    load = [(PAGE[1], PAGE[2]), *(by_name[n] for n in build.first_paint)]
    every = [
        (PAGE[0], [(PAGE[1], PAGE[2])]),
        *((name, [(path, accept)]) for name, path, accept in CALLS if name in by_name),
        (f"dashboard load ({build.label}: page + {len(build.first_paint)} calls)", load),
    ]
    return [t for t in every if not only or t[0].split(" (")[0] in only]


def compare(args: argparse.Namespace, builds: list[Build]) -> int:
    conc = args.concurrency
    # results[label][target index] = [Result per round]
    results: dict[str, list[list[Result]]] = {b.label: [[] for _ in targets(b, args.only, builds)] for b in builds}
    started = time.perf_counter()
    # Both builds' servers stay up the whole run, and each target is measured on one build right
    # after the other (the order alternating), so that both see the same moment of a noisy machine.
    servers: dict[str, Server] = {}
    try:
        for build in builds:
            redis_url = args.redis_url if build.label == "head" else args.against_redis_url or args.redis_url
            servers[build.label] = Server(build, redis_url, *build_counts(args, build), args.processes)
        descriptions = {b.label: servers[b.label].describe(*build_counts(args, b)) for b in builds}
        for build in builds:
            shared = [(p, a) for n, p, a in CALLS if not CALL_ROLE.get(n) and serves(build.root, n)]
            every = [(PAGE[1], PAGE[2]), *shared]
            warm_up(every, servers[build.label].ports, sessions_for(build.sessions, ""))
        for i in range(len(targets(builds[0], args.only, builds))):
            line = []
            for rnd in range(args.rounds):
                for build in builds if rnd % 2 == 0 else builds[::-1]:
                    name, requests = targets(build, args.only, builds)[i]
                    ports = servers[build.label].ports
                    sessions = sessions_for(build.sessions, name)
                    warm_up(requests, ports, sessions)
                    before = servers[build.label].cpu()
                    r = measure(requests, ports, sessions, conc, args.requests)
                    after = servers[build.label].cpu()
                    r.cpu = sum(t - before.get(pid, 0.0) for pid, t in after.items())
                    results[build.label][i].append(r)
                    line.append(
                        f"{build.label} {r.pct(50):.0f}/{r.pct(95):.0f} ms {r.rate:.0f}/s {r.cpu_ms:.1f} cpu-ms"
                    )
            print(f"{name.split(' (')[0]}: " + ", ".join(line), file=sys.stderr)
    finally:
        for server in servers.values():
            server.stop()
    elapsed = time.perf_counter() - started

    head, other = builds
    print(
        f"\nconcurrency {conc}, {args.requests} requests (or page loads) per target per round, "
        f"{args.rounds} rounds alternating per target; medians; {os.cpu_count()} cores shared "
        f"with the load generator; {elapsed / 60:.1f} min"
    )
    for b in builds:
        print(f"  {b.label}: {b.root} @ {git_describe(b.root)}, {descriptions[b.label]}")
    a_, b_ = other.label, head.label
    print(
        f"\n{'':<20}{'p50 ms':^16}{'p95 ms':^24}{'req/s':^24}{'CPU ms per request':^24}\n"
        f"{'target':<20}{a_:>8}{b_:>8}"
        + f"{a_:>8}{b_:>8}{'change':>8}" * 3
        + f"{'errors':>8}   p95 per round ({a_} | {b_})"
    )

    def cells(x: float, y: float) -> str:
        return f"{x:>8.1f}{y:>8.1f}{(y / x - 1) * 100:>+7.0f}%"

    worse, unfair, errors_total, load_speedup = [], [], 0, float("nan")
    for i, (name, _) in enumerate(targets(head, args.only, builds)):
        a, b = results[other.label][i], results[head.label][i]
        p50_a, p50_b = (statistics.median(r.pct(50) for r in rs) for rs in (a, b))
        p95_a, p95_b = (statistics.median(r.pct(95) for r in rs) for rs in (a, b))
        rate_a, rate_b = (statistics.median(r.rate for r in rs) for rs in (a, b))
        cpu_a, cpu_b = (statistics.median(r.cpu_ms for r in rs) for rs in (a, b))
        errors = sum(r.errors for r in a + b)
        errors_total += errors
        label = "dashboard load" if name.startswith("dashboard load") else name
        spread = f"{' '.join(f'{r.pct(95):.0f}' for r in a)} | {' '.join(f'{r.pct(95):.0f}' for r in b)}"
        print(
            f"{label:<20}{p50_a:>8.1f}{p50_b:>8.1f}"
            f"{cells(p95_a, p95_b)}{cells(rate_a, rate_b)}{cells(cpu_a, cpu_b)}{errors:>8}   {spread}"
        )
        # Fair under load: no call's tail far behind its middle (queueing, not work, makes a tail).
        if p95_b > FAIR_TAIL * p50_b or p95_b > FAIR_P95_MS:
            unfair.append(label)
        if label == "dashboard load":
            load_speedup = p95_a / p95_b
        elif p95_b > 1.1 * p95_a or rate_b < rate_a / 1.1:
            worse.append(label)
    if not math.isnan(load_speedup):
        print(
            f"\ndashboard load ({a_}: page + {len(other.first_paint)} calls; {b_}: page + "
            f"{len(head.first_paint)} calls): p95 {load_speedup:.2f}x as fast as {a_}"
        )
    print(f"calls worse than 10% on median p95 or throughput: {', '.join(worse) or 'none'}; errors: {errors_total}")
    print(f"{b_}'s calls with p95 over {FAIR_TAIL}x their p50 or over {FAIR_P95_MS} ms: {', '.join(unfair) or 'none'}")
    return 1 if errors_total else 0


def build_counts(args: argparse.Namespace, build: Build) -> tuple[int | None, int | None]:
    return (args.workers, args.threads) if build.label == "head" else (args.against_workers, args.against_threads)


def git_describe(root: Path) -> str:
    out = subprocess.run(["git", "log", "-1", "--format=%h %s"], cwd=root, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root, capture_output=True)
    return out.stdout.strip()[:70] + (" (+ uncommitted changes)" if dirty.stdout.strip() else "")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--requests", type=int, default=None, help="requests per call and level (600; 400 with --against)"
    )
    parser.add_argument("--against", type=Path, help="checkout of another commit (a git worktree) to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds with --against")
    parser.add_argument("--concurrency", type=int, default=10, help="connections at once with --against")
    parser.add_argument(
        "--server", choices=["auto", "gunicorn", "daphne"], default="auto", help="how to serve this checkout"
    )
    parser.add_argument("--against-server", choices=["auto", "gunicorn", "daphne"], default="auto")
    parser.add_argument("--workers", type=int, help="gunicorn workers (default: gunicorn.conf.py's)")
    parser.add_argument("--threads", type=int, help="gunicorn threads per worker (default: gunicorn.conf.py's)")
    parser.add_argument("--against-workers", type=int)
    parser.add_argument("--against-threads", type=int)
    parser.add_argument("--processes", type=int, default=2, help="Daphne processes when serving with Daphne")
    parser.add_argument(
        "--against-first-paint",
        default=",".join(["bookings", "service-requests", "unread-count"]),
        help="the calls the other build's dashboard makes before first paint (comma-separated names; "
        "default: those of the builds before issue 13)",
    )
    parser.add_argument(
        "--only",
        type=lambda v: [n.strip() for n in v.split(",") if n.strip()],
        default=[],
        help='measure only these (comma-separated names as printed, e.g. "bookings,dashboard load")',
    )
    parser.add_argument("--db-name", default="kindly_bench", help="the bench database (dropped and re-created)")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument(
        "--against-redis-url", help="the other build's Redis (default: --redis-url; give each build its own)"
    )
    parser.add_argument(
        "--against-db-name", help="the other build's database (default: --db-name when the migrations are equal)"
    )
    parser.add_argument("--keep-db", action="store_true", help="reuse already seeded bench databases")
    parser.add_argument("--prepare-data", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    # Stopped from outside (kill, a timeout): still stop the servers (the finally blocks).
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))

    if args.prepare_data:  # the subprocess of prepare_database(), in the build's checkout
        sys.path.insert(0, os.getcwd())
        print(json.dumps(prepare_data(args.keep_db)))
        return 0

    head = Build("head", ROOT, server_kind(ROOT, args.server), DASHBOARD_FIRST_PAINT, args.db_name)
    builds = [head]
    if args.against:
        root = args.against.resolve()
        first_paint = [n.strip() for n in args.against_first_paint.split(",") if n.strip()]
        other = Build("base", root, server_kind(root, args.against_server), first_paint, args.db_name)
        if args.against_db_name:
            other.database = args.against_db_name
        elif migrations_digest(root) != migrations_digest(ROOT):
            other.database = f"{args.db_name}_base"
        builds.append(other)
    for build in builds:
        ensure_vite_build(build.root)
    print(f"preparing {head.database} ({head.label})...", file=sys.stderr)
    prepare_database(head, args.keep_db, args.redis_url)
    if args.against:
        other = builds[1]
        if other.database == head.database:
            other.sessions = head.sessions
        else:
            print(f"preparing {other.database} (base: its migrations differ)...", file=sys.stderr)
            prepare_database(other, args.keep_db, args.against_redis_url or args.redis_url)
        args.requests = args.requests or 400
        return compare(args, builds)
    args.requests = args.requests or 600
    return single(args, head)


if __name__ == "__main__":
    sys.exit(main())
