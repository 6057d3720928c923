# The Celery app is loaded with Django, so shared tasks and on_commit enqueues use it.
from marketplace.celery import app as celery_app

__all__ = ["celery_app"]
