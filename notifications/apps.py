from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The apps below tell people through marketplace.notifications.notify(kind=...): record
        # the deliveries of those notices here (they never import this app).
        from marketplace.notifications import notification_event
        from notifications.services import event_record_from_notice

        notification_event.connect(event_record_from_notice, dispatch_uid="notifications.notification_event")

        # A care-circle invitation goes to an address that may have no account: its own email task.
        from circles.signals import invitation_sent
        from notifications.services import circle_invitation_enqueue

        invitation_sent.connect(circle_invitation_enqueue, dispatch_uid="notifications.invitation_sent")
