"""Closing an account and purging it 30 days later (privacy policy: data deleted within 30 days
of closure). They cancel requests and bookings and blank data of every app, so they sit on top
of them all (ARCHITECTURE.md "Apps")."""

from __future__ import annotations

import datetime as dt
import logging
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.firebase import FirebaseUnavailable, firebase_user_delete, firebase_user_set_disabled
from accounts.models import EmergencyContact, User
from bookings.models import Review
from bookings.services import booking_cancel_by_client, booking_cancel_on_account_closure
from circles.selectors import recipients_cared_for_by_others
from circles.services import circles_leave_on_account_closure
from core.errors import Conflict, DomainError, InvalidInput, PermissionDenied
from marketplace.account_lifecycle.selectors import bookings_active_of
from messaging.models import Message
from notifications.services import notifications_forget
from payments.cards import card_forget_on_account_closure
from providers.models import Provider
from requests_app.models import CANCEL_WINDOW_HOURS, RequestStatus, ServiceRequest, still_cancellable
from requests_app.services import service_request_cancel

logger = logging.getLogger(__name__)

CLOSE_CONFIRMATION = "CLOSE"
CLOSE_CONFIRMATION_MESSAGE = gettext_lazy("Type CLOSE to confirm that you want to close your account.")
ADMIN_CLOSE_MESSAGE = gettext_lazy(
    "Admin accounts cannot be closed from Settings. Ask another admin to remove your admin rights first."
)
ALREADY_CLOSED_MESSAGE = gettext_lazy("This account is already closed.")
VISIT_TOO_SOON_MESSAGE = (
    f"You have a visit within the next {CANCEL_WINDOW_HOURS} hours, which can no longer be cancelled. "
    "You can close your account once it has taken place; for anything urgent, message Kindly support."
)
CLOSED_BY_CLIENT_REASON = "The client closed their Kindly account."
FORMER_MEMBER_NAME = "Former Kindly member"
DELETED_CONTENT = "[deleted]"
PURGE_AFTER_DAYS = 30


class SignInServiceUnavailable(DomainError):
    """Firebase did not take the change; nothing was changed here (503, try again)."""

    status_code = 503
    default_message = gettext_lazy(
        "The sign-in service is not responding right now, so nothing was changed. Please try again."
    )


@dataclass
class AccountClosure:
    cancelled_request_ids: list[int]
    cancelled_booking_ids: list[int]


def placeholder_email(uid: str) -> str:
    """The unique, undeliverable address a purged account keeps (email is unique)."""
    return f"closed-{uid}@invalid"


def _closure_plan(locked: User) -> tuple[list[int], list]:
    """What closing this account cancels: (its open request ids, its upcoming bookings); 403 for
    an admin, 409 when already closed or a visit is within 48 hours. Caller holds the user's row
    lock; the open requests are locked too (a provider accepting one now waits, then finds it
    cancelled: no booking appears behind the closure's back)."""
    if locked.is_admin:
        raise PermissionDenied(ADMIN_CLOSE_MESSAGE)
    if locked.closed_at is not None:
        raise Conflict(ALREADY_CLOSED_MESSAGE)
    open_requests = list(
        ServiceRequest.objects.select_for_update()
        .filter(client=locked, status=RequestStatus.OPEN)
        .order_by("pk")
        .values_list("pk", "recipient_id")
    )
    now = timezone.now()
    upcoming = [booking for booking in bookings_active_of(user=locked) if booking.visit_start > now]
    # Care circles: a circle with others in it carries on without them, and keeps the
    # requests and bookings they made for its recipient (they leave it, once those are done).
    carries_on = recipients_cared_for_by_others(user=locked)
    open_request_ids = [pk for pk, recipient_id in open_requests if recipient_id not in carries_on]
    upcoming = [b for b in upcoming if b.provider.user_id == locked.pk or b.recipient_id not in carries_on]
    if not all(still_cancellable(booking.visit_start, now) for booking in upcoming):
        raise Conflict(VISIT_TOO_SOON_MESSAGE)
    return open_request_ids, upcoming


def account_close(*, user: User, confirmation: str) -> AccountClosure:
    """The user closes their own account; in one transaction:

    - their open service requests are cancelled;
    - their scheduled or confirmed bookings (as client or as provider) that start 48 hours or
      more from now are cancelled through the booking services and the other party is told;
      paid ones are refunded in full once this transaction has committed (the gateway is never
      called inside it, and a closure that rolls back refunds nothing);
    - their provider profile is deactivated (gone from listings, cannot accept);
    - the account is marked closed and inactive: every session of theirs stops working;
    - the Firebase account is disabled, so they cannot sign in again.

    A booking whose visit starts within the next 48 hours cannot be cancelled (the 48-hour rule
    protects the other party), so closing is refused (409) until that visit has passed; bookings
    whose visit has already started are left as they are (the provider can still complete
    them). Admins cannot close their own account this way (403): an operator removes admin
    rights first, so the site never loses its last admin by accident.
    The personal data itself is erased 30 days later by account_purge (purge_closed_accounts).
    """
    # The word is asked in capitals, but people type "close" or "Close" and mean the same thing:
    # any case is accepted, surrounding spaces ignored (the dialog checks the same way).
    if confirmation.strip().casefold() != CLOSE_CONFIRMATION.casefold():
        raise InvalidInput(CLOSE_CONFIRMATION_MESSAGE, errors={"confirm": [CLOSE_CONFIRMATION_MESSAGE]})
    # Checked first in a short transaction of its own, so that Firebase is never called while this
    # account's rows are locked (no call to an outside service runs inside a transaction).
    with transaction.atomic():
        _closure_plan(User.objects.select_for_update().get(pk=user.pk))

    # Firebase first, outside any transaction: if it cannot disable the account nothing changes here.
    try:
        firebase_user_set_disabled(user.pk, disabled=True)
    except FirebaseUnavailable:
        raise SignInServiceUnavailable() from None
    try:
        with transaction.atomic():
            locked = User.objects.select_for_update().get(pk=user.pk)
            # Checked again under the lock: a provider may have accepted a request meanwhile.
            open_request_ids, upcoming = _closure_plan(locked)
            now = timezone.now()
            for booking in upcoming:
                if booking.client_id == locked.pk:
                    booking_cancel_by_client(booking_id=booking.pk, actor=locked, reason=CLOSED_BY_CLIENT_REASON)
                else:
                    booking_cancel_on_account_closure(booking_id=booking.pk, actor=locked)
            for request_id in open_request_ids:
                service_request_cancel(service_request_id=request_id, actor=locked)
            circles_leave_on_account_closure(user=locked)
            Provider.objects.filter(user=locked).update(is_active=False, updated_at=now)
            locked.closed_at = now
            locked.is_active = False
            locked.save(update_fields=["closed_at", "is_active", "updated_at"])
    except BaseException:
        # Rolled back (and with it every refund it asked for): let them sign in again, unless a
        # closure running at the same time has closed the account.
        if not User.objects.filter(pk=user.pk, closed_at__isnull=False).exists():
            try:
                firebase_user_set_disabled(user.pk, disabled=False)
            except FirebaseUnavailable:
                logger.error("Account %s: closing failed and Firebase could not enable it again", user.pk)
        raise
    # Her saved card is forgotten and detached, outside the closure's transaction (payments.cards).
    card_forget_on_account_closure(user=locked)
    logger.info(
        "Account %s closed: %d requests and %d bookings cancelled", locked.pk, len(open_request_ids), len(upcoming)
    )
    return AccountClosure(
        cancelled_request_ids=open_request_ids, cancelled_booking_ids=[booking.pk for booking in upcoming]
    )


def account_purge_due(*, user: User, days: int = PURGE_AFTER_DAYS, now: dt.datetime | None = None) -> bool:
    """Closed `days` or more ago and not purged yet."""
    now = now or timezone.now()
    return user.closed_at is not None and user.purged_at is None and user.closed_at <= now - dt.timedelta(days=days)


def account_purge(*, user_id: str, days: int = PURGE_AFTER_DAYS) -> bool:
    """Erase the personal data of an account closed `days` or more ago; False when not due (idempotent).

    Deleted: the Firebase account, emergency contacts, the user's own system notifications, their
    notification choices, phone number for texts and email/text deliveries,
    their open/cancelled requests that never became a booking. Blanked: names (shown as
    "Former Kindly member"), email (a unique placeholder), profile image, Stripe customer ids,
    the text of messages they sent ("[deleted]", so the other person's conversation keeps its
    shape), comments of reviews they gave (the rating stays: it is part of a provider's
    average), the description, location and special requirements of their booked requests,
    and their provider profile's phone, bio, experience, area and availability.
    Kept: bookings with their amounts, dates, statuses and payment ids, so the other party's
    booking history and the money records stay intact; the request title and category say
    what a visit was for; messages other people sent them are those people's own history.
    """
    user = User.objects.filter(pk=user_id).first()
    if user is None or not account_purge_due(user=user, days=days):
        return False
    # Firebase first: when it fails nothing changes here and the next run tries again; an
    # account already gone from Firebase is fine.
    try:
        firebase_user_delete(user.pk)
    except FirebaseUnavailable:
        raise SignInServiceUnavailable() from None
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=user_id).first()
        now = timezone.now()
        if user is None or not account_purge_due(user=user, days=days, now=now):
            return False
        EmergencyContact.objects.filter(user=user).delete()
        notifications_forget(user=user)
        Message.objects.filter(receiver=user, sender__isnull=True).delete()
        Message.objects.filter(sender=user).update(content=DELETED_CONTENT, updated_at=now)
        Review.objects.filter(reviewer=user).update(comment="")
        # all_objects: the requests the client deleted are purged too (staff kept only a trace).
        ServiceRequest.all_objects.filter(client=user, bookings__isnull=True).delete()
        ServiceRequest.all_objects.filter(client=user).update(
            description="",
            street="",
            unit="",
            town="",
            state="",
            zip_code="",
            special_requirements="",
            updated_at=now,
        )
        Provider.objects.filter(user=user).update(
            phone="",
            bio="",
            experience="",
            service_area="",
            home_zip="",
            latitude=None,
            longitude=None,
            place_status="",
            availability={},
            is_active=False,
            updated_at=now,
        )
        user.first_name = FORMER_MEMBER_NAME
        user.last_name = ""
        user.email = placeholder_email(user.pk)
        user.profile_image_url = ""
        user.stripe_customer_id = ""
        user.stripe_subscription_id = ""
        user.is_active = False
        user.purged_at = now
        user.set_unusable_password()
        user.save(
            update_fields=[
                "first_name",
                "last_name",
                "email",
                "profile_image_url",
                "stripe_customer_id",
                "stripe_subscription_id",
                "is_active",
                "purged_at",
                "password",
                "updated_at",
            ]
        )
    logger.info("Account %s purged (closed %s)", user.pk, user.closed_at.isoformat())
    return True
