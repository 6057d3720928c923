from django.apps import AppConfig
from django.contrib.admin import apps as admin_apps


class MarketplaceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "marketplace"

    def ready(self) -> None:
        # Every app's models are loaded by now: wire the domain events to their subscribers (the
        # one list of them is marketplace/subscribers.py), and the lower apps' ports to the
        # selectors that answer them (marketplace/ports.py).
        from core import listcache
        from marketplace import ports, subscribers

        subscribers.connect()
        ports.plug()
        # The list cache sees every write statement on every connection (core.listcache).
        listcache.watch_writes()


class KindlyAdminConfig(admin_apps.AdminConfig):
    """django.contrib.admin with Kindly's site as the default one (Django's documented way). Named
    in INSTALLED_APPS; not this module's default config (that is MarketplaceConfig)."""

    default = False
    default_site = "marketplace.admin_site.KindlyAdminSite"

    def ready(self) -> None:
        super().ready()  # autodiscover: every app's admin module has registered its models
        from django.contrib import admin

        from marketplace.admin_site import hide_second_factor_models

        hide_second_factor_models(admin.site)
