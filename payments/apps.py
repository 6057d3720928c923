from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "payments"

    def ready(self) -> None:
        from bookings.signals import booking_completed, refund_requested
        from payments import checks  # noqa: F401 - registers the system checks
        from payments.payouts import booking_completed_receiver
        from payments.refunds import refund_requested_receiver

        refund_requested.connect(refund_requested_receiver, dispatch_uid="payments.refund_requested")
        booking_completed.connect(booking_completed_receiver, dispatch_uid="payments.booking_completed")
