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
        from core import listcache

        # The session's user is cached per user (accounts.authentication); a sign-in (last_login
        # alone) changes nothing a cached read shows.
        listcache.row_scope(User, "id")
        listcache.unless_only(User, {"last_login"})
