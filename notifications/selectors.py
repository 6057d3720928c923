"""Reads: each person's choices, and what the scheduled jobs find due."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Count, Max, Min, Prefetch, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from bookings.models import Booking, BookingStatus
from messaging.models import Message, MessageType
from notifications.kinds import ADMIN_KINDS, CLIENT_KINDS, DEFAULT_ON, PROVIDER_KINDS, Channel, Frequency, Kind
from notifications.models import Contact, Preference, TextOptOut
from providers.models import Provider, TimeOff, VerificationStatus
from requests_app.models import Offer, OfferedTo, RequestStatus, ServiceRequest
from requests_app.selectors import provider_can_take

if TYPE_CHECKING:
    from accounts.models import User


def sms_configured() -> bool:
    return bool(settings.TWILIO_ACCOUNT_SID and settings.TWILIO_AUTH_TOKEN and settings.TWILIO_FROM_NUMBER)


# Quiet hours: Kindly never texts anyone between 9 PM and 8 AM on their own clock.
QUIET_FROM = dt.time(21, 0)
QUIET_UNTIL = dt.time(8, 0)


def in_quiet_hours(local: dt.datetime) -> bool:
    """Whether `local` (a time on the reader's clock) falls in quiet hours."""
    return local.time() >= QUIET_FROM or local.time() < QUIET_UNTIL


def number_opted_out(phone: str) -> bool:
    """The number answered STOP: as a care recipient's own phone, or as a person's texting number."""
    return (
        TextOptOut.objects.filter(phone=phone).exists()
        or Contact.objects.filter(phone=phone, phone_opted_out_at__isnull=False).exists()
    )


def kinds_for(*, user: User) -> list[Kind]:
    """The kinds a person can receive, in the order the settings page lists them."""
    if user.is_admin:
        return list(ADMIN_KINDS)
    if Provider.objects.filter(user=user).exists():
        return list(dict.fromkeys([*PROVIDER_KINDS, *CLIENT_KINDS]))
    return list(CLIENT_KINDS)


def preferences_of(*, user: User) -> dict[tuple[str, str], bool]:
    """(kind, channel) -> on/off for every kind, the defaults filled in."""
    chosen = {(p.kind, p.channel): p.enabled for p in Preference.objects.filter(user=user)}
    return {(kind, channel): chosen.get((kind, channel), DEFAULT_ON[channel]) for kind in Kind for channel in Channel}


def contact_of(*, user: User) -> Contact:
    """The person's contact row (unsaved when they never set one)."""
    return Contact.objects.filter(user=user).first() or Contact(user=user)


def channel_enabled(*, user: User, kind: str, channel: str) -> bool:
    chosen = Preference.objects.filter(user=user, kind=kind, channel=channel).values_list("enabled", flat=True).first()
    return DEFAULT_ON[channel] if chosen is None else chosen


def channels_for(*, users: Iterable[User], kind: str) -> list[tuple[User, str]]:
    """(user, channel) pairs an event of this kind goes to now: what each chose, and where they can be reached."""
    users = [u for u in users if u.is_active and not u.is_closed]
    if not users:
        return []
    chosen = {(p.user_id, p.channel): p.enabled for p in Preference.objects.filter(user__in=users, kind=kind)}
    texting = sms_configured()
    phones = (
        dict(
            Contact.objects.filter(user__in=users, phone_opted_out_at__isnull=True)
            .exclude(phone="")
            .values_list("user_id", "phone")
        )
        if texting
        else {}
    )
    pairs = []
    for user in users:
        for channel in Channel:
            if not chosen.get((user.pk, channel), DEFAULT_ON[channel]):
                continue
            if channel == Channel.EMAIL and not user.email:
                continue
            if channel == Channel.SMS and user.pk not in phones:
                continue
            pairs.append((user, channel))
    return pairs


# ---------------------------------------------------------------- what the scheduled jobs find


def bookings_to_remind(*, now: dt.datetime, ahead: dt.timedelta = dt.timedelta(hours=24)) -> list[Booking]:
    """Upcoming bookings whose visit starts within `ahead` of now (the reminder's key keeps it to one)."""
    # A day either side covers any zone; the stored start (in the recipient's zone) decides.
    candidates = (
        Booking.objects.filter(
            status__in=[BookingStatus.SCHEDULED, BookingStatus.CONFIRMED],
            scheduled_date__gte=(now - dt.timedelta(days=1)).date(),
            scheduled_date__lte=(now + ahead + dt.timedelta(days=1)).date(),
        )
        .select_related("service_request", "client", "provider__user")
        .order_by("scheduled_date", "id")
    )
    return [b for b in candidates if now < b.starts_at <= now + ahead]


def unread_bursts(*, quiet_since: dt.datetime) -> QuerySet:
    """Conversations with unread messages the oldest of which is older than `quiet_since`.

    One row per (receiver, sender): the burst's first unread message (its key), how many are unread.
    """
    return (
        Message.objects.filter(is_read=False, message_type=MessageType.TEXT, sender__isnull=False)
        .values("receiver_id", "sender_id")
        .annotate(first_id=Min("id"), count=Count("id"), first_at=Min("created_at"), last_at=Max("created_at"))
        .filter(first_at__lte=quiet_since)
        .order_by("first_id")
    )


def open_requests_since(*, since: dt.datetime) -> QuerySet:
    """Open requests that became open to all providers since `since`: when posted, or, for one sent
    to a provider, when it opened (its window lapsed and the circle was told, or the
    provider declined), or, for one offered to a few, when it widened to all (widened_at). A request
    for one provider only is never announced to others."""
    return (
        # A request offered to a few helpers is told to them alone (its offers' notices).
        ServiceRequest.objects.filter(
            status=RequestStatus.OPEN, only_requested_provider=False, offered_to=OfferedTo.ALL
        )
        .filter(Q(requested_provider__isnull=True) | Q(direct_opened_at__isnull=False))
        .annotate(listed_at=Coalesce("widened_at", "direct_opened_at", "created_at"))
        .filter(listed_at__gte=since)
        .select_related("category")
        # The helpers it was offered to before it widened were told then (provider_matches).
        .prefetch_related(Prefetch("offers", queryset=Offer.objects.only("service_request_id", "provider_id")))
        .order_by("listed_at", "id")
    )


def providers_choosing(*, frequency: str) -> list[Provider]:
    """Verified active providers who chose to hear of new requests at `frequency` (no choice: daily)."""
    chose = dict(Contact.objects.values_list("user_id", "new_requests"))
    providers = (
        Provider.objects.filter(verification_status=VerificationStatus.VERIFIED, is_active=True)
        .select_related("user")
        # What provider_matches reads of each (her hours, her time off ahead), once for all.
        .prefetch_related(
            "weekly_hours",
            Prefetch(
                "time_off",
                queryset=TimeOff.objects.filter(last_day__gte=timezone.localdate()),
                to_attr="upcoming_time_off",
            ),
        )
    )
    return [p for p in providers if chose.get(p.user_id, Frequency.DAILY) == frequency]


def provider_matches(provider: Provider, service_request: ServiceRequest) -> bool:
    """The provider could take the request (requests_app.selectors.provider_can_take: one of her
    services, a visit inside her hours, not on her time off, not over another of her visits: the
    rule of the open requests she is shown), and it is not their own."""
    if provider.user_id == service_request.client_id or provider.pk == service_request.requested_provider_id:
        return False  # their own, or one sent to them (they were told directly)
    if any(offer.provider_id == provider.pk for offer in service_request.offers.all()):
        return False  # offered to her before it widened: she was told then, and may have passed on it
    return provider_can_take(provider, service_request)


def pending_applications() -> QuerySet:
    return Provider.objects.filter(verification_status=VerificationStatus.PENDING).select_related("user")


def notification_settings(*, user: User) -> dict:
    """What the settings page shows (NotificationSettingsSerializer)."""
    chosen = preferences_of(user=user)
    contact = contact_of(user=user)
    is_provider = Provider.objects.filter(user=user).exists()
    return {
        "kinds": [
            {
                "kind": kind.value,
                "label": kind.label,
                "email": chosen[(kind, Channel.EMAIL)],
                "sms": chosen[(kind, Channel.SMS)],
            }
            for kind in kinds_for(user=user)
        ],
        "sms_available": sms_configured(),
        "phone": contact.phone,
        "phone_opted_out": contact.phone_opted_out_at is not None,
        "new_requests": contact.new_requests if is_provider else None,
    }


def notifications_export(*, user: User) -> dict:
    """What the account export shows: the phone number for texts and the choices the person made."""
    contact = Contact.objects.filter(user=user).first()
    return {
        "phone": contact.phone if contact else "",
        "phoneOptedOutAt": contact.phone_opted_out_at.isoformat() if contact and contact.phone_opted_out_at else None,
        "newRequests": contact.new_requests if contact else Frequency.DAILY,
        "choices": [
            {"kind": p.kind, "channel": p.channel, "enabled": p.enabled}
            for p in Preference.objects.filter(user=user).order_by("kind", "channel")
        ],
    }
