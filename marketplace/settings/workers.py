"""pytest-xdist: each test worker gets a Redis database of its own.

The workers share one Redis, but a test may clear the cache (django-redis' clear() is a FLUSHDB),
empty the channel layer or purge the Celery queue, and a real Celery worker in one test process
must not take another's tasks (they name rows of the other's database). Worker gwK of N moves
REDIS_URL's database number by K * (16 // N), modulo Redis' 16 databases: with `-n 2` and
REDIS_URL .../0 the workers use 0 and 8. Processes a worker starts (Daphne, a Celery worker) inherit
the moved URL and a marker, so they do not move it again.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from urllib.parse import urlsplit, urlunsplit

REDIS_DATABASES = 16
MARKER = "KINDLY_REDIS_OF_WORKER"


def worker_redis_url(url: str, worker: str, count: int) -> str:
    parts = urlsplit(url)
    path = parts.path.strip("/")
    base = int(path) if path.isdigit() else 0
    index = int(worker.removeprefix("gw"))
    database = (base + index * (REDIS_DATABASES // max(1, min(count, REDIS_DATABASES)))) % REDIS_DATABASES
    return urlunsplit(parts._replace(path=f"/{database}"))


def use_own_redis_database(environ: MutableMapping[str, str]) -> None:
    worker = environ.get("PYTEST_XDIST_WORKER", "")
    url = environ.get("REDIS_URL", "")
    if not worker.startswith("gw") or not url or environ.get(MARKER) == worker:
        return
    count = int(environ.get("PYTEST_XDIST_WORKER_COUNT") or 1)
    environ["REDIS_URL"] = worker_redis_url(url, worker, count)
    environ[MARKER] = worker
