#!/usr/bin/env bash
# The islands' catalogues (frontend/locales/{en,es}/messages.po, docs/i18n.md), checked by make lint:
#  1. they hold every message of the code as it is: Lingui's extractor, run into a copy, must
#     change nothing (else: npm run i18n:extract, then write the Spanish);
#  2. the Spanish misses no message and each compiles: lingui compile --strict, on that copy.
# Nothing is written in the tree.
set -euo pipefail
cd "$(dirname "$0")/.."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r frontend/locales/. "$work/"

LINGUI_LOCALES_DIR="$work" npx --no-install lingui extract --clean >"$work/extract.log" 2>&1 || {
  cat "$work/extract.log" >&2
  exit 1
}
stale=0
for po in frontend/locales/*/messages.po; do
  locale=$(basename "$(dirname "$po")")
  if ! diff -u "$po" "$work/$locale/messages.po" >"$work/diff"; then
    head -40 "$work/diff"
    stale=1
  fi
done
if [ "$stale" -ne 0 ]; then
  echo "ERROR: frontend/locales is out of date with the islands' messages." >&2
  echo "       Run 'npm run i18n:extract', write the Spanish in frontend/locales/es/messages.po, commit both." >&2
  exit 1
fi

if ! LINGUI_LOCALES_DIR="$work" npx --no-install lingui compile --strict >"$work/compile.log" 2>&1; then
  cat "$work/compile.log" >&2
  echo "ERROR: a message of frontend/locales/es/messages.po has no Spanish (or does not compile)." >&2
  exit 1
fi
echo "frontend/locales holds every island message, and the Spanish misses none."
