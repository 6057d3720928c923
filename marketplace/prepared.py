"""Lists whose SQL is compiled once per process: the dashboard's hot list queries.

Turning a QuerySet into SQL is pure Python, and for the dashboard's six-table bookings list and
the service-request lists it cost more than PostgreSQL spent running them (issue 8's load
benchmark). Only a few values change between calls (whose list it is), so ``PreparedList``
builds the QuerySet once with placeholder values, compiles it, and afterwards only puts the
caller's values into the cached SQL's parameters. Rows come back as the QuerySet would give
them: model instances with their select_related objects and annotations, through Django's own
converters and related-object populators.

The QuerySet stays the one definition of the list: ``queryset(**values)`` returns it (detail
views, admin, tests), and tests pin the prepared rows and totals to the QuerySet's. A value
must reach the SQL as a plain parameter (a filter on a field, not in a LIMIT or an expression
Django folds into the SQL text); compiling checks that every placeholder arrived, and refuses
otherwise.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

# Placeholder values: strings no user id or other value can be.
_MARK = "\x00prepared:"


@dataclass(frozen=True)
class _Compiled:
    sql: str
    params: tuple
    slots: tuple[tuple[int, str], ...]  # (position in params, value name)
    converters: tuple
    col_count: int
    model: type[Model]
    fields: slice
    init_list: tuple[str, ...]
    populators: tuple
    annotations: tuple[tuple[str, int], ...]


class PreparedList:
    """``build(**values)`` returns the list's QuerySet (ordered); ``values`` are the names it
    takes, all strings (ids). One PreparedList per shape: a QuerySet that differs other than by
    these values (an admin's unfiltered list, say) is another PreparedList, or a plain QuerySet."""

    def __init__(self, build: Callable[..., QuerySet], *values: str):
        self.build = build
        self.values = values
        self._compiled: dict[Hashable, _Compiled] = {}
        self._lock = threading.Lock()

    # Compiled shapes kept per process; past this many (odd limits and offsets), more are
    # compiled for the call and not kept.
    max_shapes = 64

    def queryset(self, **values: Any) -> QuerySet:
        return self.build(**values)

    def bind(self, **values: str) -> BoundList:
        """The list for these values, for marketplace.api's paginator (page, then count)."""
        return BoundList(self, values)

    def page(self, offset: int, limit: int, **values: str) -> list[Model]:
        """queryset(**values)[offset:offset + limit], as model instances."""
        compiled = self._get(("page", offset, limit), values, lambda: self._compile_page(offset, limit))
        connection = connections[self.alias]
        objects = []
        for row in self._fetch(compiled, values, connection):
            obj = compiled.model.from_db(connection.alias, compiled.init_list, row[compiled.fields])
            for populator in compiled.populators:
                populator.populate(row, obj)
            for name, position in compiled.annotations:
                setattr(obj, name, row[position])
            objects.append(obj)
        return objects

    def count(self, **values: str) -> int:
        """queryset(**values).count()."""
        compiled = self._get(("count",), values, self._compile_count)
        return self._fetch(compiled, values, connections[self.alias])[0][0]

    alias = "default"

    def _get(self, key: Hashable, values: dict[str, str], compile_: Callable[[], _Compiled]) -> _Compiled:
        if set(values) != set(self.values):
            raise TypeError(f"expected values {sorted(self.values)}, got {sorted(values)}")
        compiled = self._compiled.get(key)
        if compiled is None:
            compiled = compile_()
            with self._lock:
                if len(self._compiled) < self.max_shapes:
                    compiled = self._compiled.setdefault(key, compiled)
        return compiled

    def _marked(self) -> QuerySet:
        return self.build(**{name: _MARK + name for name in self.values})

    def _slots(self, sql: str, params: list) -> tuple[tuple[int, str], ...]:
        slots = tuple(
            (i, p.removeprefix(_MARK)) for i, p in enumerate(params) if isinstance(p, str) and p.startswith(_MARK)
        )
        arrived = {name for _, name in slots}
        if arrived != set(self.values) or _MARK in sql:
            missing = sorted(set(self.values) - arrived) or sorted(self.values)
            raise ValueError(f"values {missing} do not reach the SQL as plain parameters")
        return slots

    def _compile_page(self, offset: int, limit: int) -> _Compiled:
        queryset = self._marked()[offset : offset + limit]
        if queryset._prefetch_related_lookups or queryset._known_related_objects:
            raise ValueError("PreparedList does not carry prefetch_related or known related objects")
        compiler = queryset.query.get_compiler(using=self.alias)
        sql, params = compiler.as_sql()
        select, klass_info = compiler.select, compiler.klass_info
        start, end = klass_info["select_fields"][0], klass_info["select_fields"][-1] + 1
        return _Compiled(
            sql=sql,
            params=tuple(params),
            slots=self._slots(sql, params),
            converters=tuple(compiler.get_converters([s[0] for s in select[: compiler.col_count]]).items()),
            col_count=compiler.col_count,
            model=klass_info["model"],
            fields=slice(start, end),
            init_list=tuple(f[0].target.attname for f in select[start:end]),
            populators=tuple(get_related_populators(klass_info, select, self.alias)),
            annotations=tuple((compiler.annotation_col_map or {}).items()),
        )

    def _compile_count(self) -> _Compiled:
        # The list's ids without ordering or joins for display, counted.
        ids = self._marked().order_by().values("pk")
        sql, params = ids.query.get_compiler(using=self.alias).as_sql()
        sql = f'SELECT COUNT(*) FROM ({sql}) AS "listed"'  # noqa: S608 (Django's SQL; values are parameters)
        return _Compiled(sql, tuple(params), self._slots(sql, params), (), 1, Model, slice(0), (), (), ())

    @staticmethod
    def _fetch(compiled: _Compiled, values: dict[str, str], connection) -> list[list]:
        params = list(compiled.params)
        for position, name in compiled.slots:
            value = values[name]
            if not isinstance(value, str):
                raise TypeError(f"{name} must be a string, got {type(value).__name__}")
            params[position] = value
        with connection.cursor() as cursor:
            cursor.execute(compiled.sql, params)
            rows = [list(row[: compiled.col_count]) for row in cursor.fetchall()]
        for row in rows:
            for position, (converters, expression) in compiled.converters:
                value = row[position]
                for converter in converters:
                    value = converter(value, expression, connection)
                row[position] = value
        return rows


@dataclass(frozen=True)
class BoundList:
    """A PreparedList for given values, sliced and counted like its QuerySet (what a paginator
    does: ``bound[offset:offset + limit]``, ``bound.count()``)."""

    prepared: PreparedList
    values: dict[str, str]

    def __getitem__(self, page: slice) -> list[Model]:
        if not isinstance(page, slice) or page.step is not None or page.start is None or page.stop is None:
            raise TypeError("a BoundList is read a page at a time: bound[offset:offset + limit]")
        return self.page(page.start, page.stop - page.start)

    def page(self, offset: int, limit: int) -> list[Model]:
        return self.prepared.page(offset, limit, **self.values)

    def count(self) -> int:
        return self.prepared.count(**self.values)
