"""Writes of the admin panel: the admin's actions, each audited.

The state changes themselves live in the owning apps' services (providers.services.provider_set_status,
bookings.services.booking_reassign / booking_cancel_by_admin); the functions here run one of them and
record it in the audit log in the same transaction, so both commit or neither.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext

from accounts.models import User
from accounts.second_factor import second_factor_reset
from adminpanel.models import AuditAction, AuditLog
from bookings.models import Booking, BookingStatus
from bookings.services import (
    booking_cancel_by_admin,
    booking_lock,
    booking_reassign,
    booking_remove_provider,
    check_admin,
    late_fee_amount,
)
from core.errors import Conflict, NotFound, PermissionDenied
from core.events import VettingRecorded
from payments.latefees import late_fee_decide
from providers.models import Provider, VerificationStatus
from providers.services import provider_lock, provider_set_status


def audit_log_record(
    *, actor: User, action: str, target: models.Model, reason: str = "", details: dict[str, Any] | None = None
) -> AuditLog:
    """Record an admin action. Call inside the transaction of the change, so both commit or neither."""
    return AuditLog.objects.create(
        actor=actor,
        action=action,
        target_type=target._meta.label_lower,
        target_id=str(target.pk),
        reason=reason,
        details=details or {},
    )


def on_vetting_recorded(event: VettingRecorded) -> None:
    """A vetting step (vetting.services): in the audit log, inside the transaction that made it."""
    AuditLog.objects.create(
        actor_id=event.actor_id,
        action=event.action,
        target_type=Provider._meta.label_lower,
        target_id=str(event.provider_id),
        reason=event.reason,
        details=event.details,
    )


def admin_provider_set_status(*, provider_id: int, actor: User, status: str, reason: str = "") -> Provider:
    """Approve or reject a provider application (providers.services.provider_set_status), audited
    with the status it came from."""
    check_admin(actor)
    with transaction.atomic():
        previous = provider_lock(provider_id=provider_id).verification_status
        provider = provider_set_status(provider_id=provider_id, actor=actor, status=status, reason=reason)
        audit_log_record(
            actor=actor,
            action=AuditAction.PROVIDER_VERIFIED
            if status == VerificationStatus.VERIFIED
            else AuditAction.PROVIDER_REJECTED,
            target=provider,
            reason=reason,
            details={"from": previous, "to": status, "userId": provider.user_id},
        )
    return provider


def admin_booking_reassign(*, booking_id: int, actor: User, new_provider_id: int, reason: str = "") -> Booking:
    """Move a confirmed booking to another verified provider (bookings.services.booking_reassign), audited."""
    check_admin(actor)
    with transaction.atomic():
        old_provider_id = booking_lock(booking_id=booking_id).provider_id
        booking = booking_reassign(booking_id=booking_id, actor=actor, new_provider_id=new_provider_id, reason=reason)
        audit_log_record(
            actor=actor,
            action=AuditAction.BOOKING_REASSIGNED,
            target=booking,
            reason=(reason or "").strip(),
            details={"fromProviderId": old_provider_id, "toProviderId": booking.provider_id},
        )
    return booking


def admin_booking_remove_provider(*, booking_id: int, actor: User, reason: str) -> Booking:
    """Take the helper off a visit, offered to others at once (bookings.services.booking_remove_provider), audited."""
    check_admin(actor)
    with transaction.atomic():
        old_provider_id = booking_lock(booking_id=booking_id).provider_id
        booking = booking_remove_provider(booking_id=booking_id, actor=actor, reason=reason)
        audit_log_record(
            actor=actor,
            action=AuditAction.BOOKING_HELPER_REMOVED,
            target=booking,
            reason=(reason or "").strip(),
            details={"fromProviderId": old_provider_id},
        )
    return booking


def admin_booking_cancel(
    *,
    booking_id: int,
    actor: User,
    reason: str,
    waive_late_fee: bool = False,
    waive_reason: str = "",
    late_fee_shown: Decimal | None = None,
) -> Booking:
    """Cancel a confirmed booking for a reason (bookings.services.booking_cancel_by_admin), audited
    with the late fee it kept for the helper, or why it was waived.

    A paid booking's refund is sent once this transaction has committed.
    """
    check_admin(actor)
    with transaction.atomic():
        fee = late_fee_amount(booking_lock(booking_id=booking_id))
        booking = booking_cancel_by_admin(
            booking_id=booking_id,
            actor=actor,
            reason=reason,
            waive_late_fee=waive_late_fee,
            waive_reason=waive_reason,
            late_fee_shown=late_fee_shown,
        )
        details = {"from": BookingStatus.CONFIRMED, "paymentStatus": booking.payment_status}
        if fee:
            details |= {"lateFee": str(fee), "lateFeeWaived": waive_late_fee, "waiveReason": waive_reason.strip()}
        audit_log_record(
            actor=actor,
            action=AuditAction.BOOKING_CANCELLED,
            target=booking,
            reason=(reason or "").strip(),
            details=details,
        )
    return booking


def admin_late_fee_decide(*, booking_id: int, actor: User, pay: bool, reason: str) -> None:
    """Decide a disputed late fee (payments.latefees.late_fee_decide), audited."""
    check_admin(actor)
    with transaction.atomic():
        fee = late_fee_decide(booking_id=booking_id, actor=actor, pay=pay, reason=reason)
        audit_log_record(
            actor=actor,
            action=AuditAction.LATE_FEE_DECIDED,
            target=fee.booking,
            reason=(reason or "").strip(),
            details={"decision": "pay" if pay else "waive", "amount": str(fee.amount)},
        )


def second_factor_reset_target(*, email: str) -> User:
    """The staff member whose second step is to be reset (404 unknown email, 409 not staff)."""
    user = User.objects.filter(email__iexact=email.strip()).first()
    if user is None:
        raise NotFound(gettext("No Kindly account has the email %(email)s.") % {"email": email.strip()})
    if not user.is_admin:
        raise Conflict(
            gettext("%(email)s is not a staff account: only staff sign in with a second step.") % {"email": user.email}
        )
    return user


def admin_second_factor_reset(*, email: str, actor: User, reason: str = "") -> dict[str, int]:
    """Remove every second-step factor of the staff member with `email` (they lost their passkey
    and phone): they set one up again at their next sign-in. Audited with who asked for it; the
    log keeps how many factors went, never the factors themselves."""
    if not actor.is_admin:
        raise PermissionDenied(gettext("Only an admin can reset a second step."))
    with transaction.atomic():
        user = second_factor_reset_target(email=email)
        removed = second_factor_reset(user=user)
        audit_log_record(
            actor=actor,
            action=AuditAction.SECOND_FACTOR_RESET,
            target=user,
            reason=(reason or "").strip(),
            details={"removed": removed, "email": user.email},
        )
    return removed
