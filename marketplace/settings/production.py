"""Production settings. Refuses to start without SECRET_KEY or with DEBUG on.

Behind a TLS-terminating reverse proxy (docs/deploy.md) that sets X-Forwarded-Proto.
"""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set in production.")
DEBUG = env.bool("DEBUG", default=False)
if DEBUG:
    raise ImproperlyConfigured("DEBUG must be off in production.")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[])

# HTTPS everywhere: the proxy terminates TLS and says so in X-Forwarded-Proto.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^readyz$"]
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "strict-origin-when-cross-origin"
# same-origin-allow-popups: the Google sign-in popup must be able to talk back to /login.
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin-allow-popups"
X_FRAME_OPTIONS = "DENY"

# A connection pool per process (Django's psycopg pool): each request borrows a connection and
# gives it back when it finishes, so no request pays for a PostgreSQL connection set-up. A gunicorn
# worker's threads (gunicorn.conf.py) and Daphne's websocket consumers share their process's pool.
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":  # noqa: F405
    DATABASES["default"]["CONN_MAX_AGE"] = 0  # noqa: F405
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {  # noqa: F405
        "min_size": env.int("DB_POOL_MIN_SIZE", default=2),
        "max_size": env.int("DB_POOL_MAX_SIZE", default=8),
        "timeout": 10,
    }
    # Parameters bound on the server, and a query run 5 times on a connection prepared: PostgreSQL
    # then plans the dashboard's joins once per pooled connection, not on every request. Empty
    # DB_PREPARE_THRESHOLD turns preparing off (a PgBouncer in transaction mode that cannot keep
    # prepared statements: docs/deploy.md).
    _prepare_threshold = env("DB_PREPARE_THRESHOLD", default="5")
    DATABASES["default"]["OPTIONS"].update(  # noqa: F405
        server_side_binding=env.bool("DB_SERVER_SIDE_BINDING", default=True),
        prepare_threshold=int(_prepare_threshold) if _prepare_threshold else None,
    )
# Sessions are read on every request: serve them from the cache (Redis), written through to the DB.
if REDIS_URL:  # noqa: F405
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"

SESSION_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
CSRF_COOKIE_SECURE = True
