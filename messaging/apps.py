from django.apps import AppConfig


class MessagingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "messaging"

    def ready(self) -> None:
        # Django's documented place to connect receivers: models are loaded by now.
        from circles.signals import member_removed
        from marketplace.notifications import system_notification
        from messaging.services import deliver_system_notification, member_removed_receiver

        system_notification.connect(deliver_system_notification, dispatch_uid="messaging.system_notification")
        member_removed.connect(member_removed_receiver, dispatch_uid="messaging.member_removed")
