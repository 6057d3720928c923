from django.apps import AppConfig


class CirclesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "circles"
    verbose_name = "Care circles"
