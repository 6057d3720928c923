"""PostgreSQL for the test suite (settings/test.py): Django's own backend with one change, how a
transactional test empties the tables when it ends (pytest-django's `transactional_db`,
`live_server` and every browser test call Django's `flush`).

Django's flush on PostgreSQL is one TRUNCATE of every table, which gives each table and index a
new file: about 0.7 s per test on this machine for ~60 tables that hold a few rows each. DELETE of
the same few rows takes about 0.05 s; Django's foreign keys are DEFERRABLE INITIALLY DEFERRED, so
they are checked at the flush's commit, when every table is empty, whatever the order. A flush
that resets sequences (reset_sequences=True) stays Django's TRUNCATE ... RESTART IDENTITY.

The content types and permissions are kept: they are what the migrations made of the models, the
same before and after every test, and Django's flush sends post_migrate, which makes again any that
are missing. Emptied, they were all made again after every such test (182 queries, about 0.35 s
here); kept, post_migrate finds them all there (74 queries, about 0.14 s).
Production uses Django's backend unchanged (settings/base.py); the custom backend is Django's
documented way to change a database's behaviour (a package with a `base.DatabaseWrapper`).
"""

from django.db.backends.postgresql import base

# Rows derived from the models alone (post_migrate makes them), left in place by the flush.
KEPT_TABLES = frozenset({"django_content_type", "auth_permission"})


class DatabaseOperations(base.DatabaseOperations):
    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if not tables or reset_sequences or allow_cascade:
            return super().sql_flush(style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade)
        return [
            f"{style.SQL_KEYWORD('DELETE')} {style.SQL_KEYWORD('FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
            if table not in KEPT_TABLES
        ]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
