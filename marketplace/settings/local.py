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
