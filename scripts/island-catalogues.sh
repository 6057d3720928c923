#!/usr/bin/env bash
# Each island's own catalogues (docs/i18n.md "How the catalogues reach a page"), generated before
# every Vite build (vite.config.js) into frontend/locales/islands/, which git ignores:
#  1. Lingui's experimental extractor (lingui.islands.config.js) crawls each island's imports and
#     writes the messages it can show as a template, frontend/locales/islands/<island>/messages.pot;
#  2. gettext's msgmerge fills each template from the hand-written frontend/locales/<locale>/messages.po
#     (exact matches only: no fuzzy guesses), and msgattrib drops the rest, into <island>/<locale>.po.
# The hand-written catalogues are only read; scripts/i18n-check.sh checks them, not these.
set -euo pipefail
cd "$(dirname "$0")/.."

out=frontend/locales/islands
rm -rf "$out"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! npx --no-install lingui extract-experimental --config lingui.islands.config.js --template --workers 1 >"$log" 2>&1; then
  cat "$log" >&2
  exit 1
fi
rmdir .lingui 2>/dev/null || true # the extractor's scratch folder, left empty

for template in "$out"/*/messages.pot; do
  island=$(dirname "$template")
  for catalogue in frontend/locales/*/messages.po; do
    locale=$(basename "$(dirname "$catalogue")")
    msgmerge --quiet --no-fuzzy-matching --no-wrap "$catalogue" "$template" -o - |
      msgattrib --no-obsolete --no-wrap -o "$island/$locale.po" -
  done
done
