from django.apps import AppConfig


class MessagingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        # Django's documented place to connect receivers: models are loaded by now.
        from django.db.models.signals import post_delete, post_save

        from circles.signals import member_removed
        from marketplace.notifications import system_notification
        from messaging.events import message_written
        from messaging.models import Message
        from messaging.services import deliver_system_notification, member_removed_receiver

        system_notification.connect(deliver_system_notification, dispatch_uid="messaging.system_notification")
        member_removed.connect(member_removed_receiver, dispatch_uid="messaging.member_removed")
        # The cached unread summaries (messaging.selectors.unread_summary) of the receivers.
        post_save.connect(message_written, sender=Message, dispatch_uid="messaging.unread.saved")
        post_delete.connect(message_written, sender=Message, dispatch_uid="messaging.unread.deleted")
