#!/usr/bin/env bash
# Lighthouse (mobile, its default simulated throttling) against a running Kindly: performance
# score, LCP, CLS and script bytes per page, signed out and, given session cookies, signed in.
#
#   bench/lighthouse.sh http://127.0.0.1:8000
#   bench/lighthouse.sh http://127.0.0.1:8000 admin:/admin anonymous:/login   (only these)
#   SESSION_CLIENT=<sessionid> SESSION_PROVIDER=<sessionid> SESSION_ADMIN=<sessionid> \
#     bench/lighthouse.sh http://127.0.0.1:8000
#
# A session id: sign in in a browser and copy the "sessionid" cookie, or
#   .venv/bin/python manage.py shell -c "from django.test import Client; from accounts.models import User; \
#     c = Client(); c.force_login(User.objects.get(email='...')); print(c.cookies['sessionid'].value)"
# LIGHTHOUSE_LANGUAGE=es asks for the signed-out pages in Spanish (signed in: the account's language).
# Debian's Chromium (CHROME_PATH) runs headless; the JSON reports go to bench/lighthouse-reports/.
set -euo pipefail
cd "$(dirname "$0")/.."

BASE=${1:?usage: bench/lighthouse.sh BASE_URL (e.g. http://127.0.0.1:8000)}
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}
exec node bench/lighthouse.mjs "${BASE%/}" "${LIGHTHOUSE_OUT:-bench/lighthouse-reports}" "${@:2}"
