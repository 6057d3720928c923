"""Writes of provider profiles: application and verification (ARCHITECTURE.md "State machines")."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction

from accounts.models import UserType
from adminpanel.models import AuditAction
from adminpanel.services import audit_log_record
from marketplace.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from marketplace.validators import check_phone
from messaging.events import send_on_commit
from messaging.services import system_notify
from providers.models import Provider, VerificationStatus

if TYPE_CHECKING:
    from accounts.models import User

ALREADY_APPLIED = "You already have a provider profile."


def _check_admin(actor: User) -> None:
    if not actor.is_admin:
        raise PermissionDenied("Admin access required")


# The admin's review: a pending application is approved or rejected; a rejected one can still be
# approved later (a second look, new information). A verified provider stays verified here.
REVIEW_TRANSITIONS: dict[str, set[str]] = {
    VerificationStatus.PENDING: {VerificationStatus.VERIFIED, VerificationStatus.REJECTED},
    VerificationStatus.REJECTED: {VerificationStatus.VERIFIED},
}


def _check_review_transition(provider: Provider, status: str) -> None:
    current = provider.verification_status
    if status not in REVIEW_TRANSITIONS.get(current, set()):
        if current == VerificationStatus.REJECTED:
            raise Conflict("This application is already rejected; a rejected application can only be approved.")
        raise Conflict(f"This provider is already {current}; only pending or rejected applications can be reviewed.")


def provider_lock(*, provider_id: int) -> Provider:
    """Re-read a provider under a row lock (caller is inside transaction.atomic)."""
    try:
        return Provider.objects.select_for_update(of=("self",)).select_related("user").get(pk=provider_id)
    except Provider.DoesNotExist:
        raise NotFound("Provider not found.") from None


def provider_apply(
    *,
    user: User,
    phone: str,
    specialties: Sequence[str],
    hourly_rate: Decimal,
    service_area: str,
    bio: str,
    experience: str,
) -> Provider:
    """Create the user's provider profile (pending). A second application is a 409; a phone
    number without 10 to 15 digits (or with letters) is a 400.

    A client who applies becomes a provider account, so the dashboard shows the provider view.
    """
    if user.is_admin:
        raise PermissionDenied("Admin accounts cannot apply to be providers.")
    phone = check_phone(phone)
    if Provider.objects.filter(user=user).exists():
        raise Conflict(ALREADY_APPLIED)
    try:
        with transaction.atomic():
            provider = Provider.objects.create(
                user=user,
                phone=phone,
                specialties=list(dict.fromkeys(specialties)),
                hourly_rate=hourly_rate,
                service_area=service_area,
                bio=bio,
                experience=experience,
            )
            if user.user_type == UserType.CLIENT:
                user.user_type = UserType.PROVIDER
                user.save(update_fields=["user_type", "updated_at"])
            system_notify(
                receivers=[user],
                content=(
                    "Thank you for applying to be a Kindly provider. We review applications in 2-3 business "
                    "days and will let you know once you are verified."
                ),
            )
    except IntegrityError:
        # Two applications at once: the one-to-one on user lets only one in.
        raise Conflict(ALREADY_APPLIED) from None
    return provider


def provider_set_status(*, provider_id: int, actor: User, status: str, reason: str = "") -> Provider:
    """Admin approves (verified) or rejects (rejected) a pending application, or approves a
    rejected one (REVIEW_TRANSITIONS); audited with the status it came from."""
    _check_admin(actor)
    if status not in (VerificationStatus.VERIFIED, VerificationStatus.REJECTED):
        raise InvalidInput("Status must be verified or rejected.", errors={"status": ["Must be verified or rejected."]})
    with transaction.atomic():
        provider = provider_lock(provider_id=provider_id)
        _check_review_transition(provider, status)
        previous = provider.verification_status
        provider.verification_status = status
        provider.save(update_fields=["verification_status", "updated_at"])
        audit_log_record(
            actor=actor,
            action=AuditAction.PROVIDER_VERIFIED
            if status == VerificationStatus.VERIFIED
            else AuditAction.PROVIDER_REJECTED,
            target=provider,
            reason=reason,
            details={"from": previous, "to": status, "userId": provider.user_id},
        )
        if status == VerificationStatus.VERIFIED:
            content = "Your provider application was approved. You are now verified and can accept service requests."
        else:
            content = "Your provider application was not approved. Please contact support if you have questions."
        system_notify(receivers=[provider.user], content=content)
        send_on_commit(
            [provider.user_id],
            "provider.updated",
            {"id": provider.pk, "verificationStatus": provider.verification_status},
        )
    return provider
