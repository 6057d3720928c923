from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payments"
    verbose_name = "Payments"

    def ready(self) -> None:
        from core.listcache import invalidate_on_save
        from payments import checks  # noqa: F401 - registers the system checks
        from payments.models import ConnectedAccount, Earning

        # The dashboard's payouts card (payments.selectors.payout_card) is cached with its lists:
        # its setup state and what waits for it. The UPDATE queries on earnings (payments.payouts)
        # change neither a pending earning nor its amount, so they need no invalidate().
        invalidate_on_save(ConnectedAccount)
        invalidate_on_save(Earning)
        # Framework integration inside one module (listcache), not a domain event: payments hears
        # of refunds and completed visits through marketplace/subscribers.py.
