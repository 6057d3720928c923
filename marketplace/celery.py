"""The Celery app: `celery -A marketplace worker` and `celery -A marketplace beat`.

Configured from Django's settings (the CELERY_* names); the broker is CELERY_BROKER_URL, which
defaults to REDIS_URL (a SQLite file under `make run`). Each app's tasks.py is found by itself.
"""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "marketplace.settings.local")

app = Celery("marketplace")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
