from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from accounts import (
            checks,  # noqa: F401 - registers the system checks
            schema,  # noqa: F401 - registers the OpenAPI auth extension
        )
        from accounts.models import User
        from core.listcache import invalidate_on_save

        # Names and roles show in the cached lists; a sign-in (last_login alone) changes neither.
        invalidate_on_save(User, unless_only={"last_login"})
