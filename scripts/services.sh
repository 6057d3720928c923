#!/usr/bin/env bash
# Make sure PostgreSQL and Redis answer on 127.0.0.1 (tests use them as production would).
# Starts them when installed but stopped; fails with a clear message when they are missing.
set -euo pipefail

PGHOST=127.0.0.1
PGPORT=5432
REDIS_PORT=6379
DB_NAME=${KINDLY_DB_NAME:-kindly}

pg_up() { pg_isready -q -h "$PGHOST" -p "$PGPORT" 2>/dev/null; }
redis_up() { [ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" = "PONG" ]; }

if ! command -v pg_isready >/dev/null 2>&1 || ! ls /etc/postgresql >/dev/null 2>&1; then
  echo "PostgreSQL is not installed. Install it (apt-get install postgresql) and allow trust auth for" >&2
  echo "user postgres on 127.0.0.1:5432, then run make test again." >&2
  exit 1
fi
if ! pg_up; then
  echo "Starting PostgreSQL..."
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  for _ in $(seq 1 30); do pg_up && break; sleep 1; done
  pg_up || { echo "PostgreSQL did not start on $PGHOST:$PGPORT." >&2; exit 1; }
fi
if ! psql -h "$PGHOST" -p "$PGPORT" -U postgres -d postgres -tAc "select 1 from pg_database where datname='$DB_NAME'" | grep -q 1; then
  createdb -h "$PGHOST" -p "$PGPORT" -U postgres "$DB_NAME"
fi

if ! command -v redis-server >/dev/null 2>&1; then
  echo "Redis is not installed. Install it (apt-get install redis-server), then run make test again." >&2
  exit 1
fi
if ! redis_up; then
  echo "Starting Redis..."
  redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no
  for _ in $(seq 1 30); do redis_up && break; sleep 1; done
  redis_up || { echo "Redis did not start on 127.0.0.1:$REDIS_PORT." >&2; exit 1; }
fi
echo "PostgreSQL and Redis are up."
