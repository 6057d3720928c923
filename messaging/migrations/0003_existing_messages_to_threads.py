"""Existing client <-> provider messages join their booking's thread, losing nothing.

1. A message between a client and a provider without a booking is tied to the pair's newest shared
   booking (so the messages page, which shows one conversation per booking, still shows it).
2. A message between the client and the provider of its booking becomes a thread message, and its
   sender gets their own copy (read): the thread's canonical row. circles 0002 made every client the
   organizer of their own recipient's circle, so the thread's participants are exactly the two.
Messages with an admin (support) and system notifications stay as they are. Every existing row is
kept; the copies are new rows with the original's content and times.
"""

from django.db import migrations
from django.db.models import F, Q

ADMIN = "admin"
BATCH = 2000


def _pairwise(Message):
    return Message.objects.filter(thread=False, sender__isnull=False).exclude(
        Q(sender__user_type=ADMIN) | Q(receiver__user_type=ADMIN)
    )


def forwards(apps, schema_editor):
    Message = apps.get_model("messaging", "Message")
    Booking = apps.get_model("bookings", "Booking")

    # 1. Booking-less messages of a client and a provider: their newest shared booking.
    pairs = _pairwise(Message).filter(booking__isnull=True).values_list("sender_id", "receiver_id").distinct()
    for sender_id, receiver_id in list(pairs):
        newest = (
            Booking.objects.filter(
                Q(client_id=sender_id, provider__user_id=receiver_id)
                | Q(client_id=receiver_id, provider__user_id=sender_id)
            )
            .order_by("-scheduled_date", "-id")
            .values_list("pk", flat=True)
            .first()
        )
        if newest is not None:
            Message.objects.filter(
                thread=False, booking__isnull=True, sender_id=sender_id, receiver_id=receiver_id
            ).update(booking_id=newest)

    # 2. Messages between the two parties of their booking become thread messages ...
    parties = Q(sender_id=F("booking__client_id"), receiver_id=F("booking__provider__user_id")) | Q(
        sender_id=F("booking__provider__user_id"), receiver_id=F("booking__client_id")
    )
    ids = list(_pairwise(Message).filter(booking__isnull=False).filter(parties).values_list("pk", flat=True))
    for start in range(0, len(ids), BATCH):
        Message.objects.filter(pk__in=ids[start : start + BATCH]).update(thread=True)

    # ... and their senders get their own (read) copy, with the original's times.
    created_at = Message._meta.get_field("created_at")
    updated_at = Message._meta.get_field("updated_at")
    created_at.auto_now_add = False
    updated_at.auto_now = False
    try:
        for start in range(0, len(ids), BATCH):
            originals = Message.objects.filter(pk__in=ids[start : start + BATCH]).order_by("pk")
            Message.objects.bulk_create(
                [
                    Message(
                        sender_id=m.sender_id,
                        receiver_id=m.sender_id,
                        booking_id=m.booking_id,
                        content=m.content,
                        message_type=m.message_type,
                        is_read=True,
                        thread=True,
                        created_at=m.created_at,
                        updated_at=m.updated_at,
                    )
                    for m in originals
                ]
            )
    finally:
        created_at.auto_now_add = True
        updated_at.auto_now = True


def backwards(apps, schema_editor):
    """Drop the senders' copies; the messages themselves go back to pairwise (the booking they were
    tied to in step 1 stays: it is a true booking of the pair)."""
    Message = apps.get_model("messaging", "Message")
    Message.objects.filter(thread=True, receiver_id=F("sender_id")).delete()
    Message.objects.filter(thread=True).update(thread=False)


class Migration(migrations.Migration):
    dependencies = [
        ("messaging", "0002_booking_threads"),
        ("circles", "0002_existing_clients"),
    ]

    operations = [migrations.RunPython(forwards, backwards)]
