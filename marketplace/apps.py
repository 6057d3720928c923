from django.apps import AppConfig


class MarketplaceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "marketplace"

    def ready(self) -> None:
        # Every app's models are loaded by now: wire the domain events to their subscribers (the
        # one list of them is marketplace/subscribers.py).
        from core import listcache
        from marketplace import subscribers

        subscribers.connect()
        # The list cache sees every write statement on every connection (core.listcache).
        listcache.watch_writes()
