from django.apps import AppConfig


class RequestsAppConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "requests_app"
    # The Django admin shows this, not the label in capitals ("REQUESTS_APP").
    verbose_name = "Service requests"
