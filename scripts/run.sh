#!/usr/bin/env bash
# `make run`: migrate, start the Firebase Auth emulator, load demo data, serve on 127.0.0.1:8000.
# Embedded defaults: SQLite, in-memory channel layer, test payment gateway.
set -euo pipefail
cd "$(dirname "$0")/.."

export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-marketplace.settings.local}
export FIREBASE_PROJECT_ID=${FIREBASE_PROJECT_ID:-demo-kindly}
export FIREBASE_AUTH_EMULATOR_HOST=${FIREBASE_AUTH_EMULATOR_HOST:-127.0.0.1:9099}
HOST=${HOST:-127.0.0.1}
PORT=${PORT:-8000}
PY=.venv/bin/python
mkdir -p .run .firebase-data

.venv/bin/python manage.py migrate --noinput

emulator_pid=""
cleanup() {
  if [ -n "$emulator_pid" ] && kill -0 "$emulator_pid" 2>/dev/null; then
    echo "Stopping the Firebase Auth emulator (saving its users to .firebase-data)..."
    kill -INT "$emulator_pid" 2>/dev/null || true
    wait "$emulator_pid" 2>/dev/null || true
  fi
}
trap cleanup EXIT INT TERM

if curl -sf "http://$FIREBASE_AUTH_EMULATOR_HOST/" >/dev/null 2>&1; then
  echo "A Firebase Auth emulator already answers on $FIREBASE_AUTH_EMULATOR_HOST; using it."
else
  import_args=()
  [ -f .firebase-data/firebase-export-metadata.json ] && import_args=(--import .firebase-data)
  echo "Starting the Firebase Auth emulator on $FIREBASE_AUTH_EMULATOR_HOST (log: .run/emulator.log)..."
  node_modules/.bin/firebase emulators:start --only auth --project "$FIREBASE_PROJECT_ID" \
    "${import_args[@]}" --export-on-exit .firebase-data >.run/emulator.log 2>&1 &
  emulator_pid=$!
  for _ in $(seq 1 60); do
    curl -sf "http://$FIREBASE_AUTH_EMULATOR_HOST/" >/dev/null 2>&1 && break
    kill -0 "$emulator_pid" 2>/dev/null || { cat .run/emulator.log; echo "The emulator did not start." >&2; exit 1; }
    sleep 1
  done
fi

$PY manage.py seed_demo

cat <<MSG

  Kindly is running at http://$HOST:$PORT

  Demo sign-ins (email / password):
$($PY manage.py seed_demo --print-sign-ins)

  Staff admin: http://$HOST:$PORT/django-admin/ (sign in as the admin above)
  Press Ctrl+C to stop.

MSG
$PY -m daphne -b "$HOST" -p "$PORT" marketplace.asgi:application
