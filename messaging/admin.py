from django.contrib import admin

from messaging.models import Message


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    list_display = ("id", "sender", "receiver", "message_type", "booking", "is_read", "created_at")
    list_filter = ("message_type", "is_read", "created_at")
    search_fields = ("content", "sender__email", "receiver__email")
    list_select_related = ("sender", "receiver", "booking")
    raw_id_fields = ("sender", "receiver", "booking")
    date_hierarchy = "created_at"
