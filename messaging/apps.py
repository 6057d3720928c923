from django.apps import AppConfig


class MessagingConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "messaging"
    verbose_name = "Messages"

    def ready(self) -> None:
        from core import listcache
        from messaging.models import Message

        # Each person's unread summary (messaging.selectors.unread_summary) is cached in the row
        # scope of the messages they receive: a message to someone else leaves it cached.
        listcache.row_scope(Message, "receiver")
