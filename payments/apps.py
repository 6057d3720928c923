from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payments"
    verbose_name = "Payments"

    def ready(self) -> None:
        from bookings.signals import booking_completed, refund_requested
        from marketplace.listcache import invalidate_on_save
        from payments import checks  # noqa: F401 - registers the system checks
        from payments.models import ConnectedAccount, Earning
        from payments.payouts import booking_completed_receiver
        from payments.refunds import refund_requested_receiver

        # The dashboard's payouts card (payments.selectors.payout_card) is cached with its lists:
        # its setup state and what waits for it. The UPDATE queries on earnings (payments.payouts)
        # change neither a pending earning nor its amount, so they need no invalidate().
        invalidate_on_save(ConnectedAccount)
        invalidate_on_save(Earning)

        refund_requested.connect(refund_requested_receiver, dispatch_uid="payments.refund_requested")
        booking_completed.connect(booking_completed_receiver, dispatch_uid="payments.booking_completed")
