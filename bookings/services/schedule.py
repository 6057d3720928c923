"""When visits happen: the private calendar feed's token, and the recipient's clock (her time zone)."""

from __future__ import annotations

import datetime as dt
import secrets

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from bookings.models import Booking, BookingStatus, CalendarFeed
from bookings.services.base import save_visit
from circles.models import CareRecipient, validate_time_zone
from core.errors import InvalidInput
from core.events import RecipientTimeZoneChanged

# ---------------------------------------------------------------- calendar feed


def calendar_feed_token(*, user: User) -> str:
    """The user's private calendar feed token (bookings.models.CalendarFeed), made on first use."""
    feed, _ = CalendarFeed.objects.get_or_create(user=user, defaults={"token": secrets.token_urlsafe(32)})
    return feed.token


@transaction.atomic
def calendar_feed_reset(*, user: User) -> str:
    """A new token: the old feed address stops working at once."""
    feed, created = CalendarFeed.objects.select_for_update().get_or_create(
        user=user, defaults={"token": secrets.token_urlsafe(32)}
    )
    if not created:
        feed.token = secrets.token_urlsafe(32)
        feed.save(update_fields=["token", "updated_at"])
    return feed.token


# ---------------------------------------------------------------- the recipient's clock


def recipient_time_zone_set(*, recipient_id: int, time_zone: str) -> CareRecipient:
    """The person cared for lives in another zone: her visits still ahead (scheduled, confirmed)
    keep their date and window on her new clock, so their stored start and end move with it (a 409
    when that makes a helper's two visits overlap). Past visits keep the instants they happened at."""
    try:
        validate_time_zone(time_zone)
    except ValidationError as exc:
        raise InvalidInput(exc.messages[0], errors={"timeZone": exc.messages}) from None
    with transaction.atomic():
        recipient = CareRecipient.objects.select_for_update().get(pk=recipient_id)
        if recipient.time_zone == time_zone:
            return recipient
        recipient.time_zone = time_zone
        recipient.save(update_fields=["time_zone", "updated_at"])
        ahead = (
            Booking.objects.select_for_update()
            .filter(recipient=recipient, status__in=(BookingStatus.SCHEDULED, BookingStatus.CONFIRMED))
            .filter(starts_at__gte=timezone.now() - dt.timedelta(days=1))
        )
        for booking in ahead:
            booking.recipient = recipient
            save_visit(
                booking,
                gettext("In the new time zone one of these visits would overlap another visit of its helper."),
                update_fields=["starts_at", "ends_at", "updated_at"],
            )
    return recipient


def on_recipient_time_zone_changed(event: RecipientTimeZoneChanged) -> None:
    """Her address moved her into another zone (circles.services.address_moved): her visits ahead
    move with her clock, in the same transaction as the address."""
    recipient_time_zone_set(recipient_id=event.recipient_id, time_zone=event.time_zone)
