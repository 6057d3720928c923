from django.apps import AppConfig


class MarketplaceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "marketplace"

    def ready(self) -> None:
        # Every app's models are loaded by now: wire the domain events to their subscribers (the
        # one list of them is marketplace/subscribers.py), and the lower apps' ports to the
        # selectors that answer them (marketplace/ports.py).
        from marketplace import ports, subscribers

        subscribers.connect()
        ports.plug()
