from django.apps import AppConfig


class MessagingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        # Django's documented place to connect receivers: models are loaded by now.
        from django.db.models.signals import post_delete, post_save

        from messaging.events import message_written
        from messaging.models import Message

        # The cached unread summaries (messaging.selectors.unread_summary) of the receivers. A
        # cache kept right by its own app's model saves (framework integration inside messaging,
        # like listcache's invalidate_on_save), not a domain event: the domain events and their
        # subscribers are in marketplace/subscribers.py.
        post_save.connect(message_written, sender=Message, dispatch_uid="messaging.unread.saved")
        post_delete.connect(message_written, sender=Message, dispatch_uid="messaging.unread.deleted")
