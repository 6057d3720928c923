"""Liveness and readiness for the load balancer: cheap, unauthenticated, no session touched."""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

logger = logging.getLogger(__name__)
_migrations_applied = False  # once true it stays true for the life of the process


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """The process is up and serving requests."""
    return JsonResponse({"status": "ok"})


def _database_ok() -> bool:
    with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
        cursor.execute("SELECT 1")
        return cursor.fetchone() == (1,)


def _migrations_ok() -> bool:
    global _migrations_applied
    if not _migrations_applied:
        executor = MigrationExecutor(connections[DEFAULT_DB_ALIAS])
        _migrations_applied = not executor.migration_plan(executor.loader.graph.leaf_nodes())
    return _migrations_applied


def _redis_ok() -> bool | None:
    if not settings.REDIS_URL:
        return None
    import redis

    client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
    try:
        return bool(client.ping())
    finally:
        client.close()


@never_cache
@require_GET
def readyz(request: HttpRequest) -> JsonResponse:
    """Ready for traffic: database reachable, migrations applied, Redis reachable when configured."""
    checks: dict[str, str] = {}
    for name, probe in (("database", _database_ok), ("migrations", _migrations_ok), ("redis", _redis_ok)):
        try:
            result = probe()
        except Exception:
            logger.warning("readiness check %s failed", name, exc_info=True)
            result = False
        if result is not None:
            checks[name] = "ok" if result else "failing"
    ready = all(value == "ok" for value in checks.values())
    return JsonResponse({"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503)
