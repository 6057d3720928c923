from __future__ import annotations

from django.conf import settings
from django.db import models

SYSTEM_SENDER_ID = "system"


class MessageType(models.TextChoices):
    TEXT = "text", "Text"
    SYSTEM = "system", "System"


class Message(models.Model):
    """A message between two users, or a system notification (no sender; senderId "system").

    A message in a booking's thread (thread=True) is stored once per participant
    of the thread at sending time (the booked provider and every member of the booking's
    recipient's circle) with that participant as receiver: each person's unread state is their
    own row, so the unread count and marking read stay one indexed query. The sender's own copy
    (receiver = sender, born read) is the thread's canonical row: the thread everyone sees is the
    canonical rows of the booking, so someone who joins the circle later sees the whole history.
    """

    sender = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, null=True, blank=True, related_name="messages_sent"
    )
    receiver = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="messages_received")
    booking = models.ForeignKey(
        "bookings.Booking", on_delete=models.SET_NULL, null=True, blank=True, related_name="messages"
    )
    content = models.TextField()
    message_type = models.CharField(max_length=16, choices=MessageType.choices, default=MessageType.TEXT)
    is_read = models.BooleanField(default=False)
    thread = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["receiver", "is_read"], name="message_receiver_read_idx"),
            models.Index(fields=["sender", "receiver", "created_at"], name="message_pair_idx"),
            models.Index(
                fields=["booking", "created_at", "id"], name="message_thread_idx", condition=models.Q(thread=True)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.sender_id_or_system} -> {self.receiver_id}: {self.content[:40]}"

    @property
    def is_thread_origin(self) -> bool:
        """The canonical row of a thread message: the sender's own copy."""
        return self.thread and self.sender_id is not None and self.sender_id == self.receiver_id

    @property
    def sender_id_or_system(self) -> str:
        return self.sender_id or SYSTEM_SENDER_ID
