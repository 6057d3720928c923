"""The hot reads, cached: the dashboard's data, GET /api/bookings and GET /api/service-requests.

Zulip's cache_with_key + flush idea, with one version for all of them. A cached value is stored
with the version current when it was read, and used only while that version is still current (the
value and the version are read in one round trip); saving (or deleting) any model those reads show (bookings,
requests, people, reviews, categories: each app lists its models with invalidate_on_save() in its
AppConfig.ready) replaces the version, so no value read before the save is used again. The version
is replaced at the save and again when its transaction commits: a value read in between (from the
rows before the commit) is dropped too. Writes through QuerySet.update() send no signal: the code
that makes them calls invalidate() itself.

Values also expire: after MAX_AGE at the latest, or earlier when the caller says when the value
turns stale by the clock alone (a booking's "can cancel" turns false 48 hours before the visit).
Cache errors are logged and the value is read from the database instead, never a failed request.
One version for all: a save anywhere reads everything again once. Kindly writes seldom and reads
often. What changes far more often than the rest, for one person only (their unread messages),
is read under a scope as well: a version of its own (say, per user) that its writes replace
(invalidate(scope=...)), so a new message re-reads one person's count and nothing else.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Collection, Hashable
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import models, transaction
from django.db.models.signals import post_delete, post_save
from django.http import HttpResponse
from rest_framework.request import Request

logger = logging.getLogger(__name__)

VERSION_KEY = "listcache:version"
MAX_AGE = 300  # seconds: the longest a cached value lives, even when nothing is saved


def _version_key(scope: str | None) -> str:
    return VERSION_KEY if scope is None else f"{VERSION_KEY}:{scope}"


@dataclass(frozen=True)
class Read:
    """One cached read: `key` names it (what, for whom, which page); compute() reads it from the
    database; max_age(value) may shorten the value's life (None: MAX_AGE); `scope`: see above."""

    key: tuple[Hashable, ...]
    compute: Callable[[], Any]
    max_age: Callable[[Any], float | None] | None = None
    scope: str | None = None

    @property
    def value_key(self) -> str:
        return "listcache:value:" + ":".join(map(str, self.key))

    @property
    def version_keys(self) -> list[str]:
        return [VERSION_KEY] if self.scope is None else [VERSION_KEY, _version_key(self.scope)]


def forget(scope: str | None = None) -> None:
    """Replace the version now (invalidate() does it twice; the test suite once before each test)."""
    try:
        cache.delete(_version_key(scope))
    except Exception:  # a down cache: nothing is read from it either (cached() falls back)
        logger.exception("Could not replace the list cache version")


def invalidate(*, scope: str | None = None) -> None:
    """Every cached value (with a scope: every value read under it) is stale: now, and again when
    the current transaction commits."""
    forget(scope)
    transaction.on_commit(lambda: forget(scope))


def invalidate_on_save(model: type[models.Model], *, unless_only: Collection[str] = ()) -> None:
    """Saves and deletes of `model` invalidate(); a save of only the `unless_only` fields (say, a
    user's last_login) does not."""

    def receiver(sender: Any, update_fields: Collection[str] | None = None, **kwargs: Any) -> None:
        if update_fields and unless_only and set(update_fields) <= set(unless_only):
            return
        invalidate()

    uid = f"listcache:{model._meta.label}"
    post_save.connect(receiver, sender=model, weak=False, dispatch_uid=uid)
    post_delete.connect(receiver, sender=model, weak=False, dispatch_uid=uid)


def cached(
    key: tuple[Hashable, ...],
    compute: Callable[[], Any],
    *,
    max_age: Callable[[Any], float | None] | None = None,
    scope: str | None = None,
) -> Any:
    """compute()'s value, from the cache when it was stored at the current version (and the
    scope's): see Read."""
    return cached_all([Read(key, compute, max_age, scope)])[0]


def cached_all(reads: list[Read]) -> list[Any]:
    """Each read's value, as cached() gives it; the versions and the stored values of all of them
    are read in one round trip (a page that shows several cached reads)."""
    version_keys = list(dict.fromkeys(k for read in reads for k in read.version_keys))
    try:
        found = cache.get_many([*version_keys, *(read.value_key for read in reads)])
        for key in version_keys:
            if key not in found:
                cache.add(key, uuid.uuid4().hex, None)  # two first readers agree on one version
                found[key] = cache.get(key)
    except Exception:
        logger.exception("List cache unavailable; reading from the database")
        return [read.compute() for read in reads]
    return [_value(read, ":".join(found[k] for k in read.version_keys), found.get(read.value_key)) for read in reads]


def _value(read: Read, version: str, stored: tuple[str, Any] | None) -> Any:
    if stored is not None and stored[0] == version:
        return stored[1]
    value = read.compute()
    seconds = read.max_age(value) if read.max_age else None
    timeout = MAX_AGE if seconds is None else max(0, min(MAX_AGE, int(seconds)))
    if timeout:
        try:
            cache.set(read.value_key, (version, value), timeout)
        except Exception:
            logger.exception("Could not store %s in the list cache", read.key[0])
    return value


class CachedListMixin:
    """For a ListAPIView: each page cached per viewer (or for everyone, when the list is the same
    for all: cache_per_viewer = False) and query string. A view whose items turn stale by the clock
    overrides cache_max_age(items).

    The page is kept as the JSON its renderer wrote (and its paging headers), so a hit neither
    rebuilds nor re-encodes the items: it sends the bytes (the API renders JSON only)."""

    cache_per_viewer = True

    def cache_max_age(self, items: list) -> float | None:
        return None

    def list(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        parent = super().list  # type: ignore[misc]
        renderer = request.accepted_renderer

        def compute() -> tuple[bytes, dict[str, str], float | None]:
            response = parent(request, *args, **kwargs)
            content = renderer.render(
                response.data,
                request.accepted_media_type,
                self.get_renderer_context(),  # type: ignore[attr-defined]
            )
            headers = {h: response[h] for h in _PAGING_HEADERS if response.has_header(h)}
            return content, headers, self.cache_max_age(response.data)

        viewer = request.user.pk if self.cache_per_viewer else "all"
        key = (type(self).__name__, viewer, renderer.format, request.query_params.urlencode())
        content, headers, _ = cached(key, compute, max_age=lambda value: value[2])
        return HttpResponse(content, content_type=renderer.media_type, headers=headers)


_PAGING_HEADERS = ("X-Total-Count", "Link")
