"""Writes: record events and their deliveries, send a delivery (once), people's choices, unsubscribe,
and the scheduled reminders and digests.

An event's deliveries are written in the transaction of the change it reports and enqueued
only once that commits (transaction.on_commit); a delivery is claimed by a conditional UPDATE
before it is sent, so a task that runs twice (a retry, a redelivery after a worker died, the
sweep) sends nothing more. Email and Twilio are called outside any transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
import uuid
from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from bookings.models import Booking, BookingStatus
from circles.models import INVITATION_MAX_AGE, CircleInvitation, InvitationStatus
from circles.notices import audience_resolve, notice_send
from core import notices
from core.errors import InvalidInput, PermissionDenied
from core.events import CircleInvitationSent, KindNoticeWritten
from notifications import channels, selectors
from notifications.content import visit_time
from notifications.kinds import Channel, Frequency, Kind
from notifications.models import Contact, Delivery, DeliveryStatus, Event, Preference, TextOptOut
from notifications.tokens import BadToken, read_unsubscribe_token

if TYPE_CHECKING:
    from bookings.models import Booking as BookingType

logger = logging.getLogger(__name__)

# A delivery claimed this long ago by a worker that never finished is claimed again.
SENDING_LEASE = dt.timedelta(minutes=5)
MESSAGE_QUIET = dt.timedelta(minutes=10)


# ---------------------------------------------------------------- events and deliveries


def event_email(*, kind: str, facts: dict[str, Any], key: str, **who: Any) -> Event:
    """An email-and-text-only notice (a digest, a summary) to the audience its kind declares
    (circles.notices.audience_resolve: `who` says who the helper, addressee... is), in the
    catalogue's words (core.notices) from `facts`."""
    people = audience_resolve(kind, **who)
    roles = {str(pk): part for pk, (_, part) in people.items()}
    return event_record(
        kind=kind,
        receivers=[user for user, _ in people.values()],
        text=notices.texts(kind, facts)[""],
        key=key,
        context={**facts, "roles": roles},
    )


def event_record(
    *,
    kind: str,
    receivers: Iterable[User],
    text: str,
    booking: Booking | None = None,
    key: str = "",
    context: dict[str, Any] | None = None,
) -> Event:
    """Record an event and a delivery for each person and channel they chose; enqueue them on commit.

    `key` names the event when the same thing may be found twice (then nothing new is recorded).
    """
    event, new = Event.objects.get_or_create(
        key=f"{kind}:{key or uuid.uuid4().hex}",
        defaults={"kind": kind, "booking": booking, "text": text, "context": context or {}},
    )
    pairs = selectors.channels_for(users={u.pk: u for u in receivers}.values(), kind=kind)
    if new:  # nothing can clash yet: one INSERT
        rows = [Delivery(event=event, recipient=user, channel=channel) for user, channel in pairs]
        created = [d.pk for d in Delivery.objects.bulk_create(rows)]
    else:
        created = []
        for user, channel in pairs:
            delivery, made = Delivery.objects.get_or_create(event=event, recipient=user, channel=channel)
            if made:
                created.append(delivery.pk)
    if created:
        # robust: a broker that is down never fails the change (resend_stuck_deliveries sends later).
        transaction.on_commit(partial(deliveries_enqueue, created), robust=True)
    return event


def on_kind_notice(event: KindNoticeWritten) -> None:
    """Subscriber of KindNoticeWritten (inside the caller's transaction): a notice with a kind goes
    out by email and text too (the deliveries are recorded with the change, sent after it)."""
    event_record(
        kind=event.kind,
        receivers=event.receivers,
        text=event.content,
        booking=event.booking,
        key=event.key,
        context=event.context,
    )


def deliveries_enqueue(delivery_ids: Iterable[int]) -> None:
    from notifications.tasks import send_delivery

    for pk in delivery_ids:
        send_delivery.delay(pk)


def _claim(delivery_id: int, now: dt.datetime) -> bool:
    """Take a delivery for sending; False when it is done or another worker holds it.

    A claim whose worker stopped before handing the message over is taken again once its lease
    has run out; one that had handed it over is left for delivery_settle_abandoned.
    """
    return bool(
        Delivery.objects.filter(pk=delivery_id)
        .filter(
            Q(status__in=[DeliveryStatus.PENDING, DeliveryStatus.RETRYING])
            | Q(status=DeliveryStatus.SENDING, claimed_at__lt=now - SENDING_LEASE, handed_over_at__isnull=True)
        )
        .update(status=DeliveryStatus.SENDING, attempts=F("attempts") + 1, claimed_at=now, updated_at=now)
    )


def _hand_over(delivery_id: int) -> None:
    Delivery.objects.filter(pk=delivery_id).update(handed_over_at=timezone.now())


def _finish(delivery_id: int, status: str, error: str = "") -> None:
    now = timezone.now()
    fields: dict[str, Any] = {"status": status, "last_error": error[:2000], "updated_at": now, "handed_over_at": None}
    if status == DeliveryStatus.SENT:
        fields["sent_at"] = now
    Delivery.objects.filter(pk=delivery_id, status=DeliveryStatus.SENDING).update(**fields)


def delivery_send(*, delivery_id: int, last_try: bool) -> str:
    """Send one delivery unless it is done or held: "sent", "skipped", "retry", "failed" or "done".

    Choices are read again now (a change is immediate). Not inside a transaction: the claim and
    the outcome are single UPDATEs around the call to the mail server or Twilio.
    """
    if not _claim(delivery_id, timezone.now()):
        return "done"
    delivery = Delivery.objects.select_related(
        "event__booking__service_request", "event__booking__client", "event__booking__provider__user", "recipient"
    ).get(pk=delivery_id)
    user, kind, channel = delivery.recipient, delivery.event.kind, delivery.channel
    if not user.is_active or user.is_closed or not selectors.channel_enabled(user=user, kind=kind, channel=channel):
        _finish(delivery_id, DeliveryStatus.SKIPPED, "Turned off by the person before it was sent.")
        return "skipped"
    try:
        if channel == Channel.EMAIL:
            message = channels.email_message(delivery)
            _hand_over(delivery_id)
            message.send()
        else:
            contact = selectors.contact_of(user=user)
            if not selectors.sms_configured() or not contact.phone or contact.phone_opted_out_at:
                _finish(delivery_id, DeliveryStatus.SKIPPED, "No phone number to text, or texts are off.")
                return "skipped"
            _hand_over(delivery_id)
            channels.send_sms(delivery, contact.phone)
    except channels.RecipientOptedOut as error:
        Contact.objects.filter(user=user).update(phone_opted_out_at=timezone.now())
        _finish(delivery_id, DeliveryStatus.SKIPPED, f"The number answered STOP: {error}")
        return "skipped"
    except Exception as error:  # noqa: BLE001 - any failure of the mail server or Twilio is retried
        detail = f"{type(error).__name__}: {error}"
        if last_try:
            _finish(delivery_id, DeliveryStatus.FAILED, detail)
            logger.error("notification delivery %s failed after its last try: %s", delivery_id, detail)
            return "failed"
        _finish(delivery_id, DeliveryStatus.RETRYING, detail)
        logger.warning("notification delivery %s failed, will retry: %s", delivery_id, detail)
        return "retry"
    _finish(delivery_id, DeliveryStatus.SENT)
    return "sent"


def retry_countdown(retries: int) -> float:
    """Exponential backoff: base x 2^retries seconds, at most the cap."""
    return min(settings.NOTIFICATIONS_RETRY_BASE * (2**retries), settings.NOTIFICATIONS_RETRY_CAP)


def deliveries_stuck(*, now: dt.datetime) -> list[int]:
    """Deliveries whose task was lost (a broker down at enqueue, a worker gone): to enqueue again."""
    return list(
        Delivery.objects.filter(
            Q(status=DeliveryStatus.PENDING, created_at__lt=now - dt.timedelta(minutes=5))
            | Q(status=DeliveryStatus.SENDING, claimed_at__lt=now - SENDING_LEASE, handed_over_at__isnull=True)
            | Q(
                status=DeliveryStatus.RETRYING,
                updated_at__lt=now - dt.timedelta(seconds=settings.NOTIFICATIONS_RETRY_CAP) - SENDING_LEASE,
            )
        ).values_list("pk", flat=True)[:1000]
    )


def deliveries_settle_abandoned(*, now: dt.datetime) -> int:
    """Deliveries a worker handed over and never heard back on (it stopped): "maybe sent", never
    sent again, so nobody gets a message twice; an ERROR line and the admin show each one."""
    abandoned = Delivery.objects.filter(
        status=DeliveryStatus.SENDING, claimed_at__lt=now - SENDING_LEASE, handed_over_at__isnull=False
    )
    ids = list(abandoned.values_list("pk", flat=True))
    for pk in ids:
        logger.error("notification delivery %s: the worker stopped while sending it; it may have arrived", pk)
    return Delivery.objects.filter(pk__in=ids, status=DeliveryStatus.SENDING).update(
        status=DeliveryStatus.UNKNOWN,
        last_error="The worker stopped after handing it over and before the answer; not sent again.",
        updated_at=now,
    )


# ---------------------------------------------------------------- care-circle invitations


def on_circle_invitation_sent(event: CircleInvitationSent) -> None:
    """Subscriber of CircleInvitationSent (on commit): email the invitation from Celery."""
    from notifications.tasks import send_circle_invitation

    send_circle_invitation.delay(event.invitation_id)


def _invitation_key(invitation: CircleInvitation) -> str:
    return f"{Kind.CIRCLE_INVITATION}:invitation:{invitation.pk}:{invitation.created_at.isoformat()}"


def circle_invitations_unsent(*, now: dt.datetime) -> list[int]:
    """Pending invitations whose email task was lost (a broker down at commit): to enqueue again."""
    waiting = list(
        CircleInvitation.objects.filter(
            status=InvitationStatus.PENDING,
            created_at__lt=now - dt.timedelta(minutes=5),
            created_at__gt=now - INVITATION_MAX_AGE,
        )[:1000]
    )
    sent = set(Event.objects.filter(key__in=[_invitation_key(i) for i in waiting]).values_list("key", flat=True))
    return [i.pk for i in waiting if _invitation_key(i) not in sent]


def circle_invitation_send(*, invitation_id: int, last_try: bool) -> str:
    """Email one invitation to its address, at most once per sending (a renewal is a new sending):
    "sent", "done" (already sent, or no longer pending), "retry" or "failed".

    The Event keyed by the invitation and its (renewed) time is the claim: a task that runs twice
    sends nothing more; a failed send gives the claim back so the retry may send it.
    """
    invitation = CircleInvitation.objects.select_related("recipient", "invited_by").filter(pk=invitation_id).first()
    if invitation is None or invitation.status != InvitationStatus.PENDING or invitation.expired:
        return "done"
    key = _invitation_key(invitation)
    event, claimed = Event.objects.get_or_create(
        key=key,
        defaults={
            "kind": Kind.CIRCLE_INVITATION,
            "text": f"Invitation of {invitation.email} to {invitation.recipient.full_name}'s care circle.",
            "context": {"email": invitation.email, "invitation": invitation.pk},
        },
    )
    if not claimed:
        return "done"
    try:
        channels.invitation_email(invitation, key=key).send()
    except Exception as error:  # noqa: BLE001 - any failure of the mail server is retried
        detail = f"{type(error).__name__}: {error}"
        event.delete()
        if last_try:
            logger.error("care-circle invitation %s failed after its last try: %s", invitation_id, detail)
            return "failed"
        logger.warning("care-circle invitation %s failed, will retry: %s", invitation_id, detail)
        return "retry"
    return "sent"


# ---------------------------------------------------------------- choices


PHONE_HELP = gettext_lazy("Enter a mobile number like 555-123-4567, or with its country code, like +44 7700 900123.")


def normalize_phone(raw: str) -> str:
    """A phone number in E.164 ("+15551234567"); a 10-digit number is taken as US/Canada. InvalidInput otherwise."""
    text = (raw or "").strip()
    if not re.fullmatch(r"\+?[\d\s().-]+", text, flags=re.ASCII):
        raise InvalidInput(PHONE_HELP, errors={"phone": [PHONE_HELP]})
    digits = re.sub(r"\D", "", text, flags=re.ASCII)
    if text.startswith("+"):
        number = "+" + digits
    elif len(digits) == 10:
        number = "+1" + digits
    elif len(digits) == 11 and digits.startswith("1"):
        number = "+" + digits
    else:
        raise InvalidInput(PHONE_HELP, errors={"phone": [PHONE_HELP]})
    if not re.fullmatch(r"\+[1-9]\d{7,14}", number, flags=re.ASCII) or (number.startswith("+1") and len(number) != 12):
        raise InvalidInput(PHONE_HELP, errors={"phone": [PHONE_HELP]})
    return number


def preferences_set(*, user: User, choices: Iterable[dict[str, Any]]) -> None:
    """Set some (kind, channel) choices at once; any bad item and nothing changes (InvalidInput)."""
    items = list(choices)
    errors: list[str] = []
    for i, item in enumerate(items):
        if item.get("kind") not in Kind.values:
            errors.append(f"Item {i + 1}: unknown kind {item.get('kind')!r}.")
        if item.get("channel") not in Channel.values:
            errors.append(f"Item {i + 1}: channel must be email or sms.")
        if not isinstance(item.get("enabled"), bool):
            errors.append(f"Item {i + 1}: enabled must be true or false.")
    if errors:
        raise InvalidInput(gettext("Some choices are not valid."), errors={"preferences": errors})
    with transaction.atomic():
        for item in items:
            Preference.objects.update_or_create(
                user=user, kind=item["kind"], channel=item["channel"], defaults={"enabled": item["enabled"]}
            )


def contact_set(*, user: User, phone: str | None = None, new_requests: str | None = None) -> Contact:
    """Opt in to texts with a phone number ("" removes it), or choose how often to hear of new requests.

    A number that answered STOP stays opted out until it is changed.
    """
    fields: dict[str, Any] = {}
    if phone is not None:
        fields["phone"] = normalize_phone(phone) if phone.strip() else ""
    if new_requests is not None:
        if new_requests not in Frequency.values:
            msg = "Choose instant, daily or off."
            raise InvalidInput(msg, errors={"newRequests": [msg]})
        fields["new_requests"] = new_requests
    with transaction.atomic():
        contact, _ = Contact.objects.select_for_update().get_or_create(user=user)
        if "phone" in fields and fields["phone"] != contact.phone:
            contact.phone_opted_out_at = None
        for name, value in fields.items():
            setattr(contact, name, value)
        contact.save()
    return contact


def notification_settings_set(
    *,
    user: User,
    choices: Iterable[dict[str, Any]] | None = None,
    phone: str | None = None,
    new_requests: str | None = None,
) -> None:
    """The settings page's save: all of it or nothing (a bad phone number changes no choice)."""
    with transaction.atomic():
        if choices:
            preferences_set(user=user, choices=choices)
        if phone is not None or new_requests is not None:
            contact_set(user=user, phone=phone, new_requests=new_requests)


def notifications_forget(*, user: User) -> None:
    """An account is purged: its choices, its phone number and its deliveries go."""
    Contact.objects.filter(user=user).delete()
    Preference.objects.filter(user=user).delete()
    Delivery.objects.filter(recipient=user).delete()


def sms_opt_out(*, phone: str, stop: bool) -> int:
    """An incoming STOP (or START) from a number: it gets no texts (or gets them again), whether it
    is a person's (Contact) or a care recipient's own phone (TextOptOut: the reminder texts)."""
    now = timezone.now()
    if stop:
        TextOptOut.objects.get_or_create(phone=phone, defaults={"opted_out_at": now})
    else:
        TextOptOut.objects.filter(phone=phone).delete()
    return Contact.objects.filter(phone=phone).update(phone_opted_out_at=now if stop else None)


def text_to_number(*, phone: str, words: str, time_zone: dt.tzinfo, now: dt.datetime | None = None) -> str:
    """Text `words` to a phone number that is no Kindly account's (a care recipient's own phone),
    with the rules every Kindly text keeps: never in quiet hours on the reader's clock
    (selectors.in_quiet_hours), never to a number that answered STOP (TextOptOut, or a person's
    Contact), and the text message's own words (core.notices.text_message: "Kindly: ... Reply STOP
    to stop texts."). Outside any transaction. Returns "sent", "quiet", "opted_out" or "not_set_up";
    a Twilio error other than an opt-out is raised to the caller.
    """
    now = now or timezone.now()
    if not selectors.sms_configured():
        return "not_set_up"
    if selectors.in_quiet_hours(now.astimezone(time_zone)):
        return "quiet"
    if selectors.number_opted_out(phone):
        return "opted_out"
    try:
        channels.send_text(phone, notices.text_message(words))
    except channels.RecipientOptedOut:
        sms_opt_out(phone=phone, stop=True)
        return "opted_out"
    return "sent"


def unsubscribe(*, token: str, actor: User | None = None) -> tuple[User, str]:
    """One-click unsubscribe: the token's person no longer gets that kind by email.

    BadToken (nothing changes) when the token is forged or expired, or when someone else is
    signed in (the link was sent to another account).
    """
    user_id, kind = read_unsubscribe_token(token)
    user = User.objects.filter(pk=user_id).first()
    if user is None or kind not in Kind.values:
        raise BadToken("This unsubscribe link is not valid.")
    if actor is not None and actor.is_authenticated and actor.pk != user.pk:
        raise PermissionDenied(
            gettext(
                "This unsubscribe link was sent to another Kindly account. Sign out to use it, or change your own "
                "choices in Settings."
            )
        )
    preferences_set(user=user, choices=[{"kind": kind, "channel": Channel.EMAIL, "enabled": False}])
    return user, kind


# ---------------------------------------------------------------- scheduled: reminders and digests


def visit_reminders_due(*, now: dt.datetime) -> list[int]:
    """Bookings whose visit starts within 24 hours and whose reminder is not recorded yet."""
    due = selectors.bookings_to_remind(now=now)
    done = set(
        Event.objects.filter(kind=Kind.VISIT_REMINDER, booking__in=[b.pk for b in due]).values_list("key", flat=True)
    )
    return [b.pk for b in due if _reminder_key(b, full=True) not in done]


def _reminder_key(booking: BookingType, *, full: bool = False) -> str:
    key = f"booking:{booking.pk}:{booking.visit_start.isoformat()}"
    return f"{Kind.VISIT_REMINDER}:{key}" if full else key


def visit_reminder_send(*, booking_id: int, now: dt.datetime) -> bool:
    """Remind client and provider of one visit starting within 24 hours (once per booking and time)."""
    with transaction.atomic():
        # The booking's lock makes two runs at once take turns; the event makes the second a no-op.
        booking = (
            Booking.objects.select_for_update(of=("self",))
            .select_related("service_request", "client", "provider__user")
            .filter(pk=booking_id)
            .first()
        )
        if booking is None or booking.status not in (BookingStatus.SCHEDULED, BookingStatus.CONFIRMED):
            return False
        if not now < booking.visit_start <= now + dt.timedelta(hours=24):
            return False
        if Event.objects.filter(key=_reminder_key(booking, full=True)).exists():
            return False
        _remind(booking, _reminder_key(booking))
    return True


def visit_reminders_send(*, now: dt.datetime) -> int:
    """Every reminder due now, one after the other (the beat job fans them out to the workers instead)."""
    return sum(visit_reminder_send(booking_id=pk, now=now) for pk in visit_reminders_due(now=now))


def _remind(booking: BookingType, key: str) -> None:
    notice_send(
        Kind.VISIT_REMINDER,
        recipient_id=booking.recipient_id,
        client=booking.client,
        helpers=[booking.provider.user],
        facts={"title": booking.service_request.title, "when": visit_time(booking)},
        booking=booking,
        key=key,
    )


def message_digests_send(*, now: dt.datetime) -> int:
    """One email per conversation with messages unread for 10 minutes (per burst: keyed by its first)."""
    bursts = list(selectors.unread_bursts(quiet_since=now - MESSAGE_QUIET))
    if not bursts:
        return 0
    people = User.objects.in_bulk({b["receiver_id"] for b in bursts} | {b["sender_id"] for b in bursts})
    sent = 0
    for burst in bursts:
        key = f"conversation:{burst['receiver_id']}:{burst['sender_id']}:{burst['first_id']}"
        if Event.objects.filter(key=f"{Kind.UNREAD_MESSAGES}:{key}").exists():
            continue
        sender = people[burst["sender_id"]]
        name = sender.first_name or "Someone on Kindly"
        with transaction.atomic():
            event_email(
                kind=Kind.UNREAD_MESSAGES,
                addressee=people[burst["receiver_id"]],
                key=key,
                facts={"count": burst["count"], "sender": name},
            )
        sent += 1
    return sent


def _request_line(service_request) -> str:
    day = service_request.preferred_date
    when = f", {day:%A, %B} {day.day}" if day else ""
    return f"{service_request.title}{when}"


def new_request_notices_send(*, now: dt.datetime, frequency: str) -> int:
    """Providers hear of open requests that match their services: each as it comes (instant), or
    one summary of the last day (daily, at most once a day)."""
    # Instant notices look back an hour (beat runs them every 5 minutes), the summary a day.
    since = now - (dt.timedelta(hours=1) if frequency == Frequency.INSTANT else dt.timedelta(days=1))
    providers = selectors.providers_choosing(frequency=frequency)
    per_provider: dict[int, tuple[User, list]] = {}
    for service_request in selectors.open_requests_since(since=since) if providers else []:
        for provider in providers:
            if selectors.provider_matches(provider, service_request):
                per_provider.setdefault(provider.pk, (provider.user, []))[1].append(service_request)
    count = 0
    for provider_id, (user, requests) in per_provider.items():
        if frequency == Frequency.INSTANT:
            for service_request in requests:
                count += _new_requests_event(
                    user, [service_request], key=f"request:{service_request.pk}:provider:{provider_id}"
                )
        else:
            count += _new_requests_event(user, requests, key=f"daily:{provider_id}:{timezone.localdate(now)}")
    return count


def _new_requests_event(user: User, requests: list, *, key: str) -> int:
    if Event.objects.filter(key=f"{Kind.NEW_REQUESTS}:{key}").exists():
        return 0
    with transaction.atomic():
        event_email(
            kind=Kind.NEW_REQUESTS,
            helpers=[user],
            key=key,
            facts={"requests": [_request_line(r) for r in requests]},
        )
    return 1


def provider_application_digest_send(*, now: dt.datetime) -> bool:
    """Admins get one email a day listing the provider applications waiting for review (none: no email)."""
    pending = list(selectors.pending_applications())
    if not pending:
        return False
    key = f"day:{timezone.localdate(now)}"
    if Event.objects.filter(key=f"{Kind.PROVIDER_APPLICATIONS}:{key}").exists():
        return False
    with transaction.atomic():
        event_email(
            kind=Kind.PROVIDER_APPLICATIONS,
            key=key,
            facts={
                "count": len(pending),
                "names": [f"{p.user.full_name or p.user.email}, applied {p.created_at:%B %-d}" for p in pending],
            },
        )
    return True
