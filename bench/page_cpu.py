#!/usr/bin/env python
"""What each signed-in page costs the server, in-process, side by side with another checkout.

No HTTP server and no load generator: each page is asked for through Django's test client, with
production settings, on the database bench/api_load.py seeds (500 providers, 10,000 bookings,
20,000 messages; run it once with --keep-db first, or let it seed) and its Redis. That leaves out
what api_load.py measures (serving, queueing, the machine's other processes) and shows what one
request costs: rendering, queries, cache round trips. Each page is asked for by 30 people of its
role in turn, after one warm-up request each (the list cache filled).

    .venv/bin/python bench/page_cpu.py [--rounds 5] [--requests 150]
    git worktree add /tmp/kindly-before <commit>
    .venv/bin/python bench/page_cpu.py --against /tmp/kindly-before

With --against, the two checkouts run one after the other in each round (A B, B A, ...), each in
a process of its own that imports its own code; the other checkout must have the same migrations
(it uses the same database) and its Vite build (static/dist). Prints the median over the rounds of
the milliseconds per request.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

from api_load import ENV  # noqa: E402  (the production settings api_load.py serves with)

PAGES = [
    ("provider", "/dashboard"),
    ("client", "/dashboard"),
    ("client", "/messages"),
    ("client", "/providers"),
    ("client", "/settings"),
    ("provider", "/messages"),
    ("client", "/api/auth/user"),
    ("client", "/api/messages/unread-count"),
]
PEOPLE = 30


def run_once(requests: int) -> dict[str, float]:
    """In this process (the checkout on sys.path): ms per request of each page."""
    import time

    import django

    django.setup()
    from django.test import Client

    from accounts.models import User

    prefix = {"client": "bench-c-", "provider": "bench-p-"}
    out = {}
    for role, path in PAGES:
        people = User.objects.filter(id__startswith=prefix[role], is_active=True).order_by("id")[:PEOPLE]
        clients = []
        for user in people:
            client = Client()
            client.force_login(user)
            response = client.get(path, secure=True)
            assert response.status_code == 200, (path, response.status_code)
            clients.append(client)
        start = time.perf_counter()
        for i in range(requests):
            clients[i % len(clients)].get(path, secure=True)
        out[f"{role} {path}"] = (time.perf_counter() - start) / requests * 1000
    return out


def measure(root: Path, args: argparse.Namespace) -> dict[str, float]:
    env = {
        **os.environ,
        **ENV,
        "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:5432/{args.db_name}",
        "REDIS_URL": args.redis_url,
        "PYTHONPATH": str(root),
    }
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", str(args.requests)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--against", type=Path, help="another checkout (a git worktree) with the same migrations")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--requests", type=int, default=150, help="requests per page and round")
    parser.add_argument("--db-name", default="kindly_bench", help="the database bench/api_load.py seeded")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(run_once(args.child)))
        return 0

    builds = {"head": ROOT} | ({"base": args.against.resolve()} if args.against else {})
    results: dict[str, list[dict[str, float]]] = {name: [] for name in builds}
    for n in range(args.rounds):
        order = list(builds) if n % 2 == 0 else list(reversed(builds))
        for name in order:
            results[name].append(measure(builds[name], args))
            print(f"round {n + 1}: {name} done", file=sys.stderr)

    def median(name: str, page: str) -> float:
        return statistics.median(r[page] for r in results[name])

    pages = list(results["head"][0])
    print(f"ms per request, in-process, median of {args.rounds} rounds of {args.requests} requests")
    if args.against:
        print(f"{'page':40} {'base':>8} {'head':>8} {'change':>8}")
        for page in pages:
            base, head = median("base", page), median("head", page)
            print(f"{page:40} {base:8.2f} {head:8.2f} {(head - base) / base * 100:+7.0f}%")
    else:
        for page in pages:
            print(f"{page:40} {median('head', page):8.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
