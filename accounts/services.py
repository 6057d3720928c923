"""Writes for accounts: users synced from Firebase sign-ins, user type, emergency contacts,
closing an account and purging it 30 days later."""

from __future__ import annotations

import datetime as dt
import logging
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.firebase import FirebaseUnavailable, firebase_user_delete, firebase_user_set_disabled
from accounts.models import EmergencyContact, User, UserType
from accounts.selectors import bookings_active_of
from bookings.models import Review
from bookings.services import booking_cancel_by_client, booking_cancel_on_account_closure
from marketplace.errors import Conflict, DomainError, InvalidInput, PermissionDenied
from marketplace.validators import check_phone
from messaging.models import Message
from providers.models import Provider
from requests_app.models import CANCELLATION_WINDOW, RequestStatus, ServiceRequest
from requests_app.services import service_request_cancel

logger = logging.getLogger(__name__)

EMAIL_TAKEN_MESSAGE = (
    "This email already belongs to another Kindly account. Please contact support to recover that account."
)
SWITCHABLE_TYPES = (UserType.CLIENT, UserType.PROVIDER)


NAME_MAX_LENGTH = 150


def clean_name(value: str) -> str:
    """A name as shown: trimmed, inner runs of spaces made one; a name made only of spaces or
    invisible characters is no name ("")."""
    text = " ".join(value.split())
    if all(unicodedata.category(ch) in ("Cf", "Cc", "Zs") for ch in text):
        return ""
    return text[:NAME_MAX_LENGTH].strip()


def _split_name(display_name: str) -> tuple[str, str]:
    first, _, last = clean_name(display_name).partition(" ")
    return clean_name(first), clean_name(last)


def user_sync_from_claims(*, claims: dict[str, Any], first_name: str = "", last_name: str = "") -> User:
    """Create or update the local user for verified Firebase claims (keyed by uid).

    Email and picture follow Firebase on every sign-in. Names come from first_name/last_name
    when given (sent at sign-up), else from the token's display name for a user who has none;
    names made only of spaces count as not given. A different local user already holding the
    email (a Firebase account recreated under a new uid) is a Conflict: the uid is the primary
    key everything else points at, so it cannot be re-keyed silently.
    """
    uid = claims["uid"]
    email = claims.get("email")
    if not isinstance(email, str) or not email:
        raise InvalidInput("Your account has no email address.", errors={"email": ["An email address is required."]})
    email = User.objects.normalize_email(email)
    picture = claims.get("picture") if isinstance(claims.get("picture"), str) else ""
    first_name, last_name = clean_name(first_name), clean_name(last_name)
    if not (first_name or last_name):
        # Sign-in, or a sign-up whose names were blank: the token's display name ("First Last").
        first_name, last_name = _split_name(claims.get("name") if isinstance(claims.get("name"), str) else "")
        from_token = True
    else:
        from_token = False

    with transaction.atomic():
        if User.objects.filter(email__iexact=email).exclude(pk=uid).exists():
            raise Conflict(EMAIL_TAKEN_MESSAGE, errors={"email": [EMAIL_TAKEN_MESSAGE]})
        user = User.objects.select_for_update().filter(pk=uid).first()
        if user is None:
            try:
                with transaction.atomic():
                    return User.objects.create_user(
                        id=uid,
                        email=email,
                        first_name=first_name,
                        last_name=last_name,
                        profile_image_url=picture[:1000],
                    )
            except IntegrityError:
                # A concurrent first sign-in of the same uid won; update that row below.
                user = User.objects.select_for_update().filter(pk=uid).first()
                if user is None:
                    raise Conflict(EMAIL_TAKEN_MESSAGE, errors={"email": [EMAIL_TAKEN_MESSAGE]}) from None
        changed: list[str] = []

        def put(field: str, value: str) -> None:
            if getattr(user, field) != value:
                setattr(user, field, value)
                changed.append(field)

        put("email", email)
        if picture:
            put("profile_image_url", picture[:1000])
        if not from_token or not (clean_name(user.first_name) or clean_name(user.last_name)):
            # Typed names always win; the token's only fill in a user who has none (or only blanks).
            put("first_name", first_name)
            put("last_name", last_name)
        if changed:
            user.save(update_fields=[*changed, "updated_at"])
        return user


def user_type_switch(*, user: User, user_type: str) -> User:
    """Switch a client to provider or back. Admins cannot switch (403); other values are 400."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.user_type == UserType.ADMIN:
            raise PermissionDenied("Admins cannot switch user type.")
        if user_type not in SWITCHABLE_TYPES:
            raise InvalidInput(
                "userType must be client or provider.", errors={"userType": ["userType must be client or provider."]}
            )
        if locked.user_type != user_type:
            locked.user_type = user_type
            locked.save(update_fields=["user_type", "updated_at"])
        return locked


def user_make_admin(*, uid: str, email: str, first_name: str, last_name: str) -> User:
    """Create or promote the local account of uid to admin (manage.py create_admin)."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=uid).first()
        if user is None:
            return User.objects.create_user(
                id=uid, email=email, first_name=first_name, last_name=last_name, user_type=UserType.ADMIN
            )
        user.email = User.objects.normalize_email(email)
        user.user_type = UserType.ADMIN
        user.is_active = True
        user.save(update_fields=["email", "user_type", "is_active", "updated_at"])
        return user


# Emergency contacts ------------------------------------------------------------------------

CONTACT_FIELDS = ("name", "relationship", "phone", "email", "is_primary")


def _lock_owner(user: User) -> None:
    """Serialise changes to one user's contacts (the at-most-one-primary rule)."""
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk", flat=True).get()


def _unset_other_primary(user: User, keep_pk: int | None) -> None:
    EmergencyContact.objects.filter(user=user, is_primary=True).exclude(pk=keep_pk).update(is_primary=False)


def emergency_contact_create(
    *, user: User, name: str, phone: str, relationship: str = "", email: str = "", is_primary: bool = False
) -> EmergencyContact:
    """Add a contact; a new primary contact takes over from the old one. The phone needs 10+ digits."""
    phone = check_phone(phone)
    with transaction.atomic():
        _lock_owner(user)
        if is_primary:
            _unset_other_primary(user, None)
        return EmergencyContact.objects.create(
            user=user, name=name, phone=phone, relationship=relationship, email=email, is_primary=is_primary
        )


def emergency_contact_update(*, contact: EmergencyContact, **fields: Any) -> EmergencyContact:
    """Change some of name, relationship, phone, email, is_primary of the caller's own contact."""
    unknown = set(fields) - set(CONTACT_FIELDS)
    if unknown:
        raise InvalidInput(errors={name: ["Unknown field."] for name in sorted(unknown)})
    if "phone" in fields:
        fields["phone"] = check_phone(fields["phone"])
    with transaction.atomic():
        _lock_owner(contact.user)
        locked = EmergencyContact.objects.select_for_update().get(pk=contact.pk)
        if fields.get("is_primary"):
            _unset_other_primary(locked.user, locked.pk)
        changed = [name for name, value in fields.items() if getattr(locked, name) != value]
        for name in changed:
            setattr(locked, name, fields[name])
        if changed:
            locked.save(update_fields=changed)
        return locked


def emergency_contact_delete(*, contact: EmergencyContact) -> None:
    with transaction.atomic():
        EmergencyContact.objects.filter(pk=contact.pk).delete()


# Closing and purging an account (privacy policy: data deleted within 30 days of closure) ---

CLOSE_CONFIRMATION = "CLOSE"
CLOSE_CONFIRMATION_MESSAGE = "Type CLOSE to confirm that you want to close your account."
ADMIN_CLOSE_MESSAGE = (
    "Admin accounts cannot be closed from Settings. Ask another admin to remove your admin rights first."
)
ALREADY_CLOSED_MESSAGE = "This account is already closed."
VISIT_TOO_SOON_MESSAGE = (
    "You have a visit within the next 48 hours, which can no longer be cancelled. You can close your "
    "account once it has taken place; for anything urgent, message Kindly support."
)
ACCOUNT_CLOSED_MESSAGE = (
    "This Kindly account has been closed and can no longer be used to sign in. Contact Kindly support if you need help."
)
CLOSED_BY_CLIENT_REASON = "The client closed their Kindly account."
FORMER_MEMBER_NAME = "Former Kindly member"
DELETED_CONTENT = "[deleted]"
PURGE_AFTER_DAYS = 30


class SignInServiceUnavailable(DomainError):
    """Firebase did not take the change; nothing was changed here (503, try again)."""

    status_code = 503
    default_message = "The sign-in service is not responding right now, so nothing was changed. Please try again."


@dataclass
class AccountClosure:
    cancelled_request_ids: list[int]
    cancelled_booking_ids: list[int]


def placeholder_email(uid: str) -> str:
    """The unique, undeliverable address a purged account keeps (email is unique)."""
    return f"closed-{uid}@invalid"


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
    if confirmation != CLOSE_CONFIRMATION:
        raise InvalidInput(CLOSE_CONFIRMATION_MESSAGE, errors={"confirm": [CLOSE_CONFIRMATION_MESSAGE]})
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.is_admin:
            raise PermissionDenied(ADMIN_CLOSE_MESSAGE)
        if locked.closed_at is not None:
            raise Conflict(ALREADY_CLOSED_MESSAGE)
        # Lock the open requests first: a provider accepting one now waits for us and then
        # finds it cancelled (409), so no booking appears behind our back.
        open_request_ids = list(
            ServiceRequest.objects.select_for_update()
            .filter(client=locked, status=RequestStatus.OPEN)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        now = timezone.now()
        upcoming = [booking for booking in bookings_active_of(user=locked) if booking.visit_start > now]
        if any(booking.visit_start - now < CANCELLATION_WINDOW for booking in upcoming):
            raise Conflict(VISIT_TOO_SOON_MESSAGE)

        # Firebase first: if it cannot disable the account nothing changes here.
        try:
            firebase_user_set_disabled(locked.pk, disabled=True)
        except FirebaseUnavailable:
            raise SignInServiceUnavailable() from None
        try:
            for booking in upcoming:
                if booking.client_id == locked.pk:
                    booking_cancel_by_client(booking_id=booking.pk, actor=locked, reason=CLOSED_BY_CLIENT_REASON)
                else:
                    booking_cancel_on_account_closure(booking_id=booking.pk, actor=locked)
            for request_id in open_request_ids:
                service_request_cancel(service_request_id=request_id, actor=locked)
            Provider.objects.filter(user=locked).update(is_active=False, updated_at=now)
            locked.closed_at = now
            locked.is_active = False
            locked.save(update_fields=["closed_at", "is_active", "updated_at"])
        except BaseException:
            # The local change rolls back (and with it every refund it asked for): let them sign in again.
            try:
                firebase_user_set_disabled(locked.pk, disabled=False)
            except FirebaseUnavailable:
                logger.error("Account %s: closing failed and Firebase could not enable it again", locked.pk)
            raise
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

    Deleted: the Firebase account, emergency contacts, the user's own system notifications,
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
        Message.objects.filter(receiver=user, sender__isnull=True).delete()
        Message.objects.filter(sender=user).update(content=DELETED_CONTENT, updated_at=now)
        Review.objects.filter(reviewer=user).update(comment="")
        ServiceRequest.objects.filter(client=user, bookings__isnull=True).delete()
        ServiceRequest.objects.filter(client=user).update(
            description="", location="", special_requirements="", updated_at=now
        )
        Provider.objects.filter(user=user).update(
            phone="", bio="", experience="", service_area="", availability={}, is_active=False, updated_at=now
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
