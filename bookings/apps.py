from django.apps import AppConfig


class BookingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "bookings"
    verbose_name = "Bookings"

    def ready(self) -> None:
        from bookings.models import Booking, Review, VisitReport
        from core.listcache import invalidate_on_save

        invalidate_on_save(Booking)
        invalidate_on_save(Review)
        invalidate_on_save(VisitReport)  # hasReport in the lists and the day's visits
