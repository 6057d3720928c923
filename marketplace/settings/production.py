"""Production settings. Refuses to start without SECRET_KEY or with DEBUG on."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env

SECRET_KEY = env("SECRET_KEY", default="")
if not SECRET_KEY:
    raise ImproperlyConfigured("SECRET_KEY must be set in production.")
DEBUG = env.bool("DEBUG", default=False)
if DEBUG:
    raise ImproperlyConfigured("DEBUG must be off in production.")
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")

SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
