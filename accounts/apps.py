from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from accounts import (
            checks,  # noqa: F401 - registers the system checks
            schema,  # noqa: F401 - registers the OpenAPI auth extension
        )
