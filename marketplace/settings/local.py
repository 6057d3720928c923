"""Development settings: `make run`. Embedded defaults, nothing to configure."""

from .base import *  # noqa: F403
from .base import env

DEBUG = env.bool("DEBUG", default=True)
SECRET_KEY = env("SECRET_KEY", default="django-insecure-local-development-key-not-for-production")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])

FIREBASE_PROJECT_ID = env("FIREBASE_PROJECT_ID", default="demo-kindly")
FIREBASE_API_KEY = env("FIREBASE_API_KEY", default="demo-api-key")
FIREBASE_AUTH_DOMAIN = env("FIREBASE_AUTH_DOMAIN", default="demo-kindly.firebaseapp.com")
FIREBASE_APP_ID = env("FIREBASE_APP_ID", default="demo-app-id")

# Mail lands as files in .run/mail/ (make run prints where); EMAIL_URL points at a real server instead.
EMAIL_URL = env("EMAIL_URL", default="filemail:///.run/mail")
globals().update(email_settings(EMAIL_URL))  # noqa: F405
# Background jobs need no server: kombu's SQLAlchemy transport on a SQLite file, unless Redis is given.
_SQLITE_BROKER = f"sqla+sqlite:///{BASE_DIR / '.run' / 'celery.sqlite'}"  # noqa: F405
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL or _SQLITE_BROKER)  # noqa: F405
# Static files as in production: WhiteNoise serves what collectstatic put in STATIC_ROOT (the
# compressed .gz copies too; scripts/run.sh collects them after the build), with the hashed Vite
# assets cached for ever. In DEBUG it would otherwise look the originals up on every request,
# uncompressed and uncached. Working on CSS without make run: WHITENOISE_AUTOREFRESH=1.
WHITENOISE_AUTOREFRESH = env.bool("WHITENOISE_AUTOREFRESH", default=False)
WHITENOISE_USE_FINDERS = WHITENOISE_AUTOREFRESH

# The phone menu under make run: its webhooks are signed with this dev token by the phone simulator
# (/phone-simulator, staff only). No account id: nothing is sent to Twilio (texts stay off).
TWILIO_AUTH_TOKEN = env("TWILIO_AUTH_TOKEN", default="dev-auth-token")
TWILIO_FROM_NUMBER = env("TWILIO_FROM_NUMBER", default="+15005550006")

# Offline, with the demo's home placed to the street so a check-in there can be "verified"
# (core.geocoding.DemoGeocoder); every other address by its ZIP code's centre, as "zip".
GEOCODER = env("GEOCODER", default="demo")
