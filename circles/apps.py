from django.apps import AppConfig


class CirclesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "circles"
    verbose_name = "Care circles"

    def ready(self) -> None:
        from circles.models import CareRecipient, CircleMember
        from core.listcache import invalidate_on_save

        # Who is in a circle decides which requests and bookings each member's lists hold.
        invalidate_on_save(CareRecipient)
        invalidate_on_save(CircleMember)
