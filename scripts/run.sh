#!/usr/bin/env bash
# `make run`: migrate, start the Firebase Auth emulator, load demo data, serve on 127.0.0.1:8000.
# Embedded defaults: SQLite, in-memory channel layer, test payment gateway; a Celery worker and beat
# on a SQLite broker (.run/celery.sqlite), mail written as files to .run/mail/.
#
# The console stays quiet: warnings and errors only, no line per request, so the demo sign-ins
# printed once the server answers stay on screen. ACCESS_LOG=1 make run prints every request
# again (and INFO logs); LOG_LEVEL still sets the log level. The sign-ins again, at any time:
#   .venv/bin/python manage.py seed_demo --print-sign-ins
set -euo pipefail
cd "$(dirname "$0")/.."

export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-marketplace.settings.local}
export FIREBASE_PROJECT_ID=${FIREBASE_PROJECT_ID:-demo-kindly}
export FIREBASE_AUTH_EMULATOR_HOST=${FIREBASE_AUTH_EMULATOR_HOST:-127.0.0.1:9099}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
# Links in emails, and the passkeys' origin (http://localhost:$PORT: settings.base._webauthn_site).
export SITE_URL=${SITE_URL:-http://$HOST:$PORT}
ACCESS_LOG=${ACCESS_LOG:-0}
if [ "$ACCESS_LOG" = "1" ]; then
  export LOG_LEVEL=${LOG_LEVEL:-INFO}
  server_log_args=(--access-log -)
else
  export LOG_LEVEL=${LOG_LEVEL:-WARNING}
  server_log_args=(-v 0)
fi
PY=.venv/bin/python
mkdir -p .run .firebase-data

# A second `make run` (or another program) on the same port would make this one's server fail
# while the banner, answered by the other server, said all was well: say so and stop instead.
if curl -s -o /dev/null "http://$HOST:$PORT/" 2>/dev/null; then
  echo "Something already answers on http://$HOST:$PORT (another make run?)." >&2
  echo "Stop it first, or choose another port: PORT=8001 make run" >&2
  exit 1
fi

echo "Preparing the database (migrations)..."
$PY manage.py migrate --noinput -v 0

# Served as in production (marketplace/settings/local.py): collected and gzipped once here.
echo "Collecting the static files (compressed copies for the browser)..."
$PY manage.py collectstatic --noinput -v 0

emulator_pid=""
banner_pid=""
worker_pid=""
beat_pid=""
cleanup() {
  for pid in "$worker_pid" "$beat_pid"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  if [ -n "$banner_pid" ] && kill -0 "$banner_pid" 2>/dev/null; then
    kill "$banner_pid" 2>/dev/null || true
  fi
  if [ -n "$emulator_pid" ] && kill -0 "$emulator_pid" 2>/dev/null; then
    echo "Stopping the Firebase Auth emulator (saving its users to .firebase-data)..."
    # One SIGINT is the emulator's clean shutdown (it exports, then exits); a second one stops
    # it at once, halfway through the export. It runs in a session of its own (below), so the
    # terminal's Ctrl+C does not reach it: this is the only one it gets.
    kill -INT "$emulator_pid" 2>/dev/null || true
    for _ in $(seq 1 60); do
      kill -0 "$emulator_pid" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$emulator_pid" 2>/dev/null; then
      echo "The emulator did not stop within 30 seconds; stopping it now." >&2
      kill -TERM "$emulator_pid" 2>/dev/null || true
    fi
    wait "$emulator_pid" 2>/dev/null || true
    remove_export_leftovers
  fi
}
# The emulator exports into a temporary firebase-export-<time> folder at the root, then moves it
# to .firebase-data; one stopped midway leaves that folder behind (nothing needs it).
remove_export_leftovers() {
  local leftover
  for leftover in firebase-export-*; do
    [ -d "$leftover" ] && rm -rf -- "$leftover"
  done
  return 0
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if curl -sf "http://$FIREBASE_AUTH_EMULATOR_HOST/" >/dev/null 2>&1; then
  echo "A Firebase Auth emulator already answers on $FIREBASE_AUTH_EMULATOR_HOST; using it."
else
  import_args=()
  [ -f .firebase-data/firebase-export-metadata.json ] && import_args=(--import .firebase-data)
  echo "Starting the Firebase Auth emulator on $FIREBASE_AUTH_EMULATOR_HOST (about 20 seconds; log: .run/emulator.log)..."
  remove_export_leftovers
  # setsid: a session of its own, out of reach of the terminal's Ctrl+C (see cleanup).
  own_session=()
  command -v setsid >/dev/null 2>&1 && own_session=(setsid)
  "${own_session[@]}" node_modules/.bin/firebase emulators:start --only auth --project "$FIREBASE_PROJECT_ID" \
    "${import_args[@]}" --export-on-exit .firebase-data >.run/emulator.log 2>&1 &
  emulator_pid=$!
  for _ in $(seq 1 60); do
    curl -sf "http://$FIREBASE_AUTH_EMULATOR_HOST/" >/dev/null 2>&1 && break
    kill -0 "$emulator_pid" 2>/dev/null || { cat .run/emulator.log; echo "The emulator did not start." >&2; exit 1; }
    sleep 1
  done
fi

echo "Loading the demo accounts and requests..."
$PY manage.py seed_demo

# Background jobs (emails, texts, reminders, the daily jobs): one worker and beat, on a broker that
# needs no server (kombu's SQLAlchemy transport on .run/celery.sqlite, unless CELERY_BROKER_URL or
# REDIS_URL say otherwise). Mail goes to .run/mail/ unless EMAIL_URL points at a mail server.
mkdir -p .run/mail
echo "Starting the background worker and scheduler (logs: .run/worker.log, .run/beat.log)..."
$PY -m celery -A marketplace worker --pool solo --concurrency 1 --loglevel WARNING \
  --without-gossip --without-mingle --without-heartbeat >.run/worker.log 2>&1 &
worker_pid=$!
$PY -m celery -A marketplace beat --loglevel WARNING --schedule .run/celerybeat-schedule >.run/beat.log 2>&1 &
beat_pid=$!
if [ -n "${EMAIL_URL:-}" ]; then
  mail_note="Emails go to the mail server in EMAIL_URL."
else
  mail_note="Emails Kindly sends are written to $(pwd)/.run/mail/ (one .log file per email)."
fi

sign_ins=$($PY manage.py seed_demo --print-sign-ins)
if [ "$ACCESS_LOG" = "1" ]; then
  quiet_note="Every request is logged below (ACCESS_LOG=1)."
else
  quiet_note="The console shows warnings and errors only; ACCESS_LOG=1 make run logs every request."
fi
banner() {
  cat <<MSG

  Kindly is running at http://$HOST:$PORT

  Demo sign-ins (email / password):
$sign_ins

  Staff admin: http://$HOST:$PORT/django-admin/ (sign in as the admin above)
  Staff sign in with a second step after the password: the admin's is the authenticator code above.
  Passkeys instead need the site at a name, not an address: http://localhost:$PORT
  $mail_note
  These sign-ins again, at any time: .venv/bin/python manage.py seed_demo --print-sign-ins
  $quiet_note
  Press Ctrl+C to stop.

MSG
}

# Print the banner once the server answers, so that it is the last thing on the screen.
(
  for _ in $(seq 1 120); do
    if curl -sf "http://$HOST:$PORT/healthz" >/dev/null 2>&1; then
      banner
      exit 0
    fi
    sleep 0.5
  done
) &
banner_pid=$!

echo "Starting the server on http://$HOST:$PORT ..."
$PY -m daphne "${server_log_args[@]}" -b "$HOST" -p "$PORT" marketplace.asgi:application
