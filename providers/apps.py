from django.apps import AppConfig


class ProvidersConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "providers"
    verbose_name = "Providers"

    def ready(self) -> None:
        from core.listcache import invalidate_on_save
        from providers.models import Provider, TimeOff, WeeklyHours

        # The browse list (cached) shows each provider's next free window.
        for model in (Provider, WeeklyHours, TimeOff):
            invalidate_on_save(model)
