from django.apps import AppConfig


class VettingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "vetting"
    verbose_name = "Vetting (identity and background checks)"
