"""WSGI entry point: gunicorn (gthread workers) serves Kindly's HTTP through it in production
(gunicorn.conf.py, docs/deploy.md); websockets go to Daphne (marketplace.asgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marketplace.settings.local")
application = get_wsgi_application()
