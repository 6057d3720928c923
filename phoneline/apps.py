from django.apps import AppConfig


class PhonelineConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "phoneline"
    verbose_name = "Phone lines"
