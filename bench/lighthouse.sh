#!/usr/bin/env bash
# Lighthouse (mobile, its default simulated throttling) against a running Kindly:
# performance score, LCP and CLS per page, signed out and, given session cookies, signed in.
#
#   bench/lighthouse.sh http://127.0.0.1:8000
#   SESSION_CLIENT=<sessionid> SESSION_PROVIDER=<sessionid> SESSION_ADMIN=<sessionid> \
#     bench/lighthouse.sh http://127.0.0.1:8000
#
# A session id: sign in in a browser and copy the "sessionid" cookie, or
#   .venv/bin/python manage.py shell -c "from django.test import Client; from accounts.models import User; \
#     c = Client(); c.force_login(User.objects.get(email='...')); print(c.cookies['sessionid'].value)"
# Debian's Chromium (CHROME_PATH) runs headless; reports go to bench/lighthouse-reports/ (JSON).
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${1:?usage: bench/lighthouse.sh BASE_URL (e.g. http://127.0.0.1:8000)}
BASE=${BASE%/}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
OUT=${LIGHTHOUSE_OUT:-bench/lighthouse-reports}
mkdir -p "$OUT"

ANONYMOUS_PAGES=(/ /login /privacy-policy /terms-of-service.html)
CLIENT_PAGES=(/dashboard /request-service /providers /messages /settings /privacy-policy)
PROVIDER_PAGES=(/dashboard /messages /settings)
ADMIN_PAGES=(/admin /messages)

printf "%-10s %-24s %11s %8s %7s %9s\n" role page performance LCP CLS "JS (KB)"
run() {
  local role=$1 path=$2 cookie=${3:-}
  local name report
  name=$(echo "$role$path" | tr -c 'a-zA-Z0-9\n' '_')
  report="$OUT/$name.json"
  local args=(--quiet --only-categories=performance --output=json --output-path="$report"
    --chrome-flags="--headless=new --no-sandbox")
  [ -n "$cookie" ] && args+=(--extra-headers="{\"Cookie\": \"sessionid=$cookie\"}")
  if ! npx --no-install lighthouse "$BASE$path" "${args[@]}" >/dev/null 2>"$OUT/$name.log"; then
    printf "%-10s %-24s %11s (see %s)\n" "$role" "$path" "failed" "$OUT/$name.log"
    return
  fi
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const a = r.audits;
    const js = (a["network-requests"].details.items || [])
      .filter((i) => i.resourceType === "Script")
      .reduce((sum, i) => sum + (i.transferSize || 0), 0);
    const landed = r.finalDisplayedUrl !== r.requestedUrl ? ` -> ${new URL(r.finalDisplayedUrl).pathname}` : "";
    console.log(
      process.argv[2].padEnd(10) + " " + (process.argv[3] + landed).padEnd(24) + " " +
      String(Math.round(r.categories.performance.score * 100)).padStart(11) + " " +
      ((a["largest-contentful-paint"].numericValue / 1000).toFixed(2) + " s").padStart(8) + " " +
      a["cumulative-layout-shift"].numericValue.toFixed(3).padStart(7) + " " +
      (js / 1024).toFixed(1).padStart(9),
    );
  ' "$report" "$role" "$path"
}

for path in "${ANONYMOUS_PAGES[@]}"; do run anonymous "$path"; done
if [ -n "${SESSION_CLIENT:-}" ]; then for path in "${CLIENT_PAGES[@]}"; do run client "$path" "$SESSION_CLIENT"; done; fi
if [ -n "${SESSION_PROVIDER:-}" ]; then for path in "${PROVIDER_PAGES[@]}"; do run provider "$path" "$SESSION_PROVIDER"; done; fi
if [ -n "${SESSION_ADMIN:-}" ]; then for path in "${ADMIN_PAGES[@]}"; do run admin "$path" "$SESSION_ADMIN"; done; fi
