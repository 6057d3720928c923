"""Test settings: PostgreSQL and Redis on 127.0.0.1, as production would use them."""

import os
import tempfile

from .workers import use_own_redis_database

# Before the base settings read REDIS_URL: under pytest-xdist each worker its own Redis database.
use_own_redis_database(os.environ)

from .base import *  # noqa: E402, F403
from .base import env, visit_photos_storage  # noqa: E402

DEBUG = False
SECRET_KEY = "test-secret-key-only-for-the-test-suite-0123456789abcdef"
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]

DATABASES = {
    "default": env.db("DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/kindly"),
}
# Queries as production runs them: parameters bound on the server, repeated queries prepared
# (settings/production.py). Some SQL is valid with inlined parameters only; the suite finds it.
# `make pytest-sqlite` runs a marked subset on SQLite (the embedded default of `make run`).
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {}).update(server_side_binding=True, prepare_threshold=5)
    # The same backend, except that a transactional test empties its tables with DELETE, not
    # TRUNCATE: about 0.6 s less per browser or live-server test (marketplace/testing/pgflush).
    DATABASES["default"]["ENGINE"] = "marketplace.testing.pgflush"
    # A test database is thrown away: its commits need not wait for the disk (the browser and
    # live-server tests commit every write and empty every table after each test).
    DATABASES["default"]["OPTIONS"]["options"] = "-c synchronous_commit=off"

# Every value the list cache computes checks that its queries read only the tables it names.
LISTCACHE_CHECK_READS = True

FIREBASE_PROJECT_ID = env("FIREBASE_PROJECT_ID", default="demo-kindly-test")
FIREBASE_API_KEY = env("FIREBASE_API_KEY", default="demo-api-key")
FIREBASE_AUTH_DOMAIN = env("FIREBASE_AUTH_DOMAIN", default="demo-kindly-test.firebaseapp.com")
FIREBASE_APP_ID = env("FIREBASE_APP_ID", default="demo-app-id")
# The suite starts its own Auth emulator (marketplace/testing/firebase.py) with DEBUG off.
ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG = True

PAYMENTS_BACKEND = env("PAYMENTS_BACKEND", default="test")
# The suite runs with DEBUG off and the offline test gateway (see payments.checks).
PAYMENTS_ALLOW_TEST_GATEWAY = True
# Visit photos land in a folder of this run's own, never the worktree.
VISIT_PHOTOS_ROOT = tempfile.mkdtemp(prefix="kindly-visit-photos-")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    "visit_photos": visit_photos_storage("core.storage.PrivateFileSystemStorage", VISIT_PHOTOS_ROOT),
}

# Limits high enough that no suite trips them by accident; the rate-limit tests set their own.
THROTTLE_RATES = {scope: "10000/min" for scope in THROTTLE_RATES}  # noqa: F405

# Mail stays in memory unless a test points EMAIL_* at its SMTP server (marketplace/testing/mail.py).
EMAIL_URL = env("EMAIL_URL", default="memorymail://")
globals().update(email_settings(EMAIL_URL))  # noqa: F405

# WhiteNoise finds a static file when it is asked for (as in development) instead of listing all of
# STATIC_ROOT when its middleware starts: the test client starts the middleware stack for every
# client it makes, so a STATIC_ROOT that `make run` filled (about 1,250 files) made the SQLite
# stage take 179 s instead of 57 (the PostgreSQL one pays it too).
WHITENOISE_AUTOREFRESH = True
