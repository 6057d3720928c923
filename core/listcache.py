"""The hot reads, cached: the dashboard's data, the lists of the API, the session's user.

Zulip's cache_with_key + flush idea, with a version per table. Each cached read names what its
rows come from: `tables` (the models it reads), or for a read of one person's rows only, `rows`
((model, value): the session user is (User, its id); an unread count (Message, its receiver)). A
value is stored with the versions current when it was read and used only while they all still
are (the value and the versions are read in one round trip).

Writes are seen where Django sends them to the database, not where the code that makes them
happens to remember: every INSERT, UPDATE and DELETE (a save, a delete, QuerySet.update(),
bulk_create(), bulk_update(), SQL through Django's cursor) passes an execute wrapper installed on
each connection (watch_writes(): Django's database instrumentation). It replaces the version of the
table written, so a write to bookings re-reads the lists that show bookings and nothing else. For
a model with a row scope (row_scope()) it also replaces the version of each row scope the statement
names: the rows an INSERT writes, and those an UPDATE or DELETE picks with `field = value` (or
`IN (...)`) among the ANDed conditions of its WHERE. A statement whose rows it cannot name
replaces the version every row scope of that model shares: such writes are rare, and the cost of
one is that everyone's value is read again, never a stale one. An UPDATE of only the columns
unless_only() lists (a sign-in's last_login) replaces nothing.

A version is replaced at the write and again when its transaction commits: a value read in
between (from the rows before the commit) is dropped too. Values also expire: after MAX_AGE at the
latest, or earlier when the caller says when the value turns stale by the clock alone (a booking's
"can cancel" turns false 48 hours before the visit). Cache errors are logged and the value is read
from the database instead, never a failed request.

Under settings.LISTCACHE_CHECK_READS (the test settings) every computed value checks that the
tables its queries read are among those it names: a read that starts to show another table fails
its tests until it says so.
"""

from __future__ import annotations

import functools
import logging
import re
import uuid
from collections.abc import Callable, Collection, Hashable, Iterable
from dataclasses import dataclass
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core.cache import cache
from django.db import connection as default_connection
from django.db import models, transaction
from django.db.backends.signals import connection_created
from django.http import HttpResponse
from django.utils import translation
from rest_framework.request import Request

logger = logging.getLogger(__name__)

MAX_AGE = 300  # seconds: the longest a cached value lives, even when nothing is written
EPOCH_KEY = "listcache:v:epoch"  # forget(): every value read again
ROW_VALUES_MAX = 200  # a statement naming more rows than this replaces all rows' version instead


def _table_key(table: str) -> str:
    return f"listcache:v:t:{table}"


def _all_rows_key(table: str) -> str:
    return f"listcache:v:rows:{table}"


def _row_key(table: str, value: Any) -> str:
    return f"listcache:v:row:{table}:{value}"


@dataclass(frozen=True)
class Read:
    """One cached read: `key` names it (what, for whom, which page); compute() reads it from the
    database; `tables` and `rows` say what it shows (see above); max_age(value) may shorten the
    value's life (None: MAX_AGE)."""

    key: tuple[Hashable, ...]
    compute: Callable[[], Any]
    tables: Collection[Model] = ()
    rows: Collection[tuple[Model, Hashable]] = ()
    max_age: Callable[[Any], float | None] | None = None

    @property
    def value_key(self) -> str:
        return "listcache:value:" + ":".join(map(str, self.key))

    @property
    def version_keys(self) -> list[str]:
        keys = [EPOCH_KEY, *sorted(_table_key(_table(m)) for m in self.tables)]
        for model, value in self.rows:
            keys += [_row_key(_table(model), value), _all_rows_key(_table(model))]
        return keys

    @property
    def declared_tables(self) -> set[str]:
        return {_table(m) for m in self.tables} | {_table(m) for m, _ in self.rows}


# A model, or its "app_label.ModelName" where the reading app sits below the model's app (the
# requests list shows each request's booking: requests_app may not import bookings).
Model = type[models.Model] | str


def _table(model: Model) -> str:
    return _table_of_label(model) if isinstance(model, str) else model._meta.db_table


@functools.cache
def _table_of_label(label: str) -> str:
    return apps.get_model(label)._meta.db_table


def forget() -> None:
    """Every cached value is read again (a new epoch): the test suite does it before each test."""
    _replace([EPOCH_KEY])


def invalidate(**kwargs: Any) -> None:
    """Nothing: writes are seen by the execute wrapper (module docstring). Kept while code that
    called it before still does."""


# ---------------------------------------------------------------- reads


def cached(
    key: tuple[Hashable, ...],
    compute: Callable[[], Any],
    *,
    tables: Collection[Model] = (),
    rows: Collection[tuple[Model, Hashable]] = (),
    max_age: Callable[[Any], float | None] | None = None,
) -> Any:
    """compute()'s value, from the cache while what it shows is unchanged: see Read."""
    return cached_all([Read(key, compute, tables, rows, max_age)])[0]


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
    # A version gone again before its second read (evicted, flushed, or replaced by a write in
    # between) is not known: a read that depends on it is a miss, computed and not stored.
    return [
        _compute(read)
        if any(found[k] is None for k in read.version_keys)
        else _value(read, ":".join(found[k] for k in read.version_keys), found.get(read.value_key))
        for read in reads
    ]


def _value(read: Read, version: str, stored: tuple[str, Any] | None) -> Any:
    if stored is not None and stored[0] == version:
        return stored[1]
    value = _compute(read)
    seconds = read.max_age(value) if read.max_age else None
    timeout = MAX_AGE if seconds is None else max(0, min(MAX_AGE, int(seconds)))
    if timeout:
        try:
            cache.set(read.value_key, (version, value), timeout)
        except Exception:
            logger.exception("Could not store %s in the list cache", read.key[0])
    return value


_TABLE_READ = re.compile(r'\b(?:FROM|JOIN)\s+"([^"]+)"', re.IGNORECASE)


class UndeclaredTables(AssertionError):
    """A cached read's queries read a table it does not name (LISTCACHE_CHECK_READS)."""


def _compute(read: Read) -> Any:
    if not getattr(settings, "LISTCACHE_CHECK_READS", False):
        return read.compute()
    tables: set[str] = set()

    def record(execute, sql, params, many, context):
        tables.update(_TABLE_READ.findall(sql))
        return execute(sql, params, many, context)

    with default_connection.execute_wrapper(record):
        value = read.compute()
    undeclared = tables - read.declared_tables
    if undeclared:
        raise UndeclaredTables(
            f"The cached read {read.key[0]!r} reads {sorted(undeclared)}: add their models to its tables, "
            "or a write to them would leave it stale."
        )
    return value


# ---------------------------------------------------------------- writes


@dataclass(frozen=True)
class _RowScope:
    column: str
    pk_column: str


_row_scopes: dict[str, _RowScope] = {}
_unless_only: dict[str, frozenset[str]] = {}


def row_scope(model: type[models.Model], field: str) -> None:
    """Reads may depend on the rows of `model` with one value of `field` (rows=[(model, value)]):
    a write replaces the version of the values it writes (module docstring)."""
    _row_scopes[model._meta.db_table] = _RowScope(model._meta.get_field(field).column, model._meta.pk.column)


def unless_only(model: type[models.Model], fields: Collection[str]) -> None:
    """An UPDATE of `model` that sets only these fields (a sign-in's last_login) changes no cached value."""
    _unless_only[model._meta.db_table] = frozenset(model._meta.get_field(f).column for f in fields)


def watch_writes() -> None:
    """Install the write watcher on every database connection, now and when one opens."""
    from django.db import connections

    connection_created.connect(_install, dispatch_uid="core.listcache.watch_writes")
    for conn in connections.all(initialized_only=True):
        _install(sender=None, connection=conn)


def _install(sender: Any, connection: Any, **kwargs: Any) -> None:
    if _watch not in connection.execute_wrappers:
        connection.execute_wrappers.append(_watch)


_WRITE = re.compile(r'\s*(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+"([^"]+)"', re.IGNORECASE)


def _watch(execute, sql, params, many, context):
    result = execute(sql, params, many, context)
    match = _WRITE.match(sql) if isinstance(sql, str) else None
    if match:
        keys = _written_keys(match[1].split()[0].upper(), match[2], sql, params, many)
        if keys:
            _replace(keys, context["connection"])
    return result


def _written_keys(verb: str, table: str, sql: str, params: Any, many: bool) -> list[str]:
    """The versions a write statement replaces."""
    if verb == "UPDATE" and table in _unless_only:
        columns = _set_columns(sql)
        if columns and columns <= _unless_only[table]:
            return []
    keys = [_table_key(table)]
    scope = _row_scopes.get(table)
    if scope is not None:
        values = _rows_named(verb, scope, sql, params, many)
        if values is None or len(values) > ROW_VALUES_MAX:
            keys.append(_all_rows_key(table))
        else:
            keys += [_row_key(table, v) for v in values if v is not None]
    return keys


def _replace(keys: list[str], connection: Any = None) -> None:
    """Replace these versions now, and again when the connection's transaction commits."""
    _delete(keys)
    if connection is not None and connection.in_atomic_block:
        transaction.on_commit(lambda: _delete(keys), using=connection.alias)


def _delete(keys: list[str]) -> None:
    try:
        cache.delete_many(keys)
    except Exception:  # a down cache: nothing is read from it either (cached_all() falls back)
        logger.exception("Could not replace list cache versions")


# Which rows a statement writes, from the SQL Django's compilers write (quoted names, %s).


def _set_columns(sql: str) -> frozenset[str] | None:
    """The columns an UPDATE sets, when its SET is plain `"column" = value, ...`."""
    set_at = sql.find(" SET ")
    where_at = _top_level(sql, " WHERE ")
    if set_at < 0:
        return None
    assignments = sql[set_at + 5 : where_at if where_at >= 0 else len(sql)]
    if "(" in assignments:
        return None
    return frozenset(re.findall(r'"([^"]+)" = ', assignments))


def _rows_named(verb: str, scope: _RowScope, sql: str, params: Any, many: bool) -> set[Any] | None:
    """The values of the scope's column among the rows the statement writes; None: not known."""
    try:
        if verb == "INSERT":
            return _inserted(scope, sql, params, many)
        if many or params is None:
            return None
        return _picked(scope, sql, list(params))
    except (IndexError, TypeError, ValueError):
        return None


_INSERT = re.compile(r'\s*INSERT\s+INTO\s+"[^"]+"\s*\(([^)]*)\)\s+(VALUES|SELECT \* FROM UNNEST)\s*(.*)', re.S)
_VALUES = re.compile(r"\(%s(?:, %s)*\)(?:, \(%s(?:, %s)*\))*")


def _inserted(scope: _RowScope, sql: str, params: Any, many: bool) -> set[Any] | None:
    match = _INSERT.match(sql)
    if not match:
        return None
    columns = [c.strip().strip('"') for c in match[1].split(",")]
    if scope.column not in columns:
        return None
    at = columns.index(scope.column)
    if match[2] == "VALUES":
        values = _VALUES.match(match[3])
        if not values or not re.match(r"\s*(RETURNING\b|ON CONFLICT\b|$)", match[3][values.end() :]):
            return None
        rows = params if many else [params]
        return {v for p in rows for v in list(p)[at :: len(columns)]}
    if many:  # UNNEST: one array per column
        return None
    return set(list(params)[at])


def _picked(scope: _RowScope, sql: str, params: list[Any]) -> set[Any] | None:
    """The values an UPDATE's or DELETE's WHERE picks for the scope's column: a top-level ANDed
    condition `"table"."column" = %s` or `IN (%s, ...)` (every row written then has one of them)."""
    where_at = _top_level(sql, " WHERE ")
    if where_at < 0:
        return None
    start = where_at + len(" WHERE ")
    end = _top_level(sql, " RETURNING ", start)
    clause_start, clause = start, sql[start : end if end >= 0 else len(sql)]
    while clause.startswith("(") and _closing(clause, 0) == len(clause) - 1:
        clause_start, clause = clause_start + 1, clause[1:-1]
    if _top_level(clause, " OR ") >= 0:
        return None
    table = _WRITE.match(sql)[2]
    condition = re.compile(rf'"{re.escape(table)}"\."{re.escape(scope.column)}" (?:= %s|IN \(%s(?:, %s)*\))$')
    offset = 0
    for part in _split_top_level(clause, " AND "):
        if condition.match(part):
            first = sql[: clause_start + offset].count("%s")
            return set(params[first : first + part.count("%s")])
        offset += len(part) + len(" AND ")
    return None


def _top_level(text: str, word: str, start: int = 0) -> int:
    """Where `word` first appears outside parentheses, from `start` (-1: nowhere)."""
    depth = 0
    for i in range(start, len(text)):
        char = text[i]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif depth == 0 and text.startswith(word, i):
            return i
    return -1


def _closing(text: str, at: int) -> int:
    depth = 0
    for i in range(at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def _split_top_level(text: str, word: str) -> Iterable[str]:
    start = 0
    while (at := _top_level(text, word, start)) >= 0:
        yield text[start:at]
        start = at + len(word)
    yield text[start:]


# ---------------------------------------------------------------- the API's lists


class CachedListMixin:
    """For a ListAPIView: each page cached per viewer (or for everyone, when the list is the same
    for all: cache_per_viewer = False) and query string, until a write to one of `cache_tables`
    (the models the page shows). A view whose items turn stale by the clock overrides
    cache_max_age(items).

    The page is kept as the JSON its renderer wrote (and its paging headers), so a hit neither
    rebuilds nor re-encodes the items: it sends the bytes (the API renders JSON only)."""

    cache_per_viewer = True
    cache_tables: tuple[Model, ...] = ()

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
        # The page's words are in the request's language ("Speaks English, Spanish"): one value per language.
        key = (
            type(self).__name__,
            viewer,
            translation.get_language(),
            renderer.format,
            request.query_params.urlencode(),
        )
        content, headers, _ = cached(key, compute, tables=self.cache_tables, max_age=lambda value: value[2])
        return HttpResponse(content, content_type=renderer.media_type, headers=headers)


_PAGING_HEADERS = ("X-Total-Count", "Link")
