"""Reads of vetting: a provider's latest checks, her steps as she sees them, the staff queue."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Prefetch
from django.utils.translation import gettext_lazy

from providers.models import Provider
from vetting.models import AdjudicationOutcome, BackgroundCheck, CheckStatus, IdentityCheck, IdentityStatus


def latest_identity(provider: Provider) -> IdentityCheck | None:
    return IdentityCheck.objects.filter(provider=provider).order_by("-started_at", "-id").first()


def latest_background(provider: Provider) -> BackgroundCheck | None:
    return (
        BackgroundCheck.objects.filter(provider=provider)
        .select_related("adjudication")
        .prefetch_related("adjudication__steps")
        .order_by("-started_at", "-id")
        .first()
    )


def _folded(name: str) -> str:
    return " ".join(name.casefold().split())


def name_mismatch(provider: Provider, identity: IdentityCheck | None) -> bool:
    """The name on her verified document differs from her profile's (shown to staff)."""
    if identity is None or not identity.verified_name:
        return False
    profile = f"{provider.user.first_name} {provider.user.last_name}"
    return _folded(identity.verified_name) != _folded(profile)


@dataclass(frozen=True)
class Vetting:
    provider: Provider
    identity: IdentityCheck | None
    background: BackgroundCheck | None

    @property
    def name_mismatch(self) -> bool:
        return name_mismatch(self.provider, self.identity)


def vetting_of(provider: Provider) -> Vetting:
    return Vetting(provider=provider, identity=latest_identity(provider), background=latest_background(provider))


def vetting_queue_list() -> list[Vetting]:
    ids = set(IdentityCheck.objects.values_list("provider_id", flat=True)) | set(
        BackgroundCheck.objects.values_list("provider_id", flat=True)
    )
    providers = (
        Provider.objects.filter(pk__in=ids)
        .select_related("user")
        .prefetch_related(
            Prefetch("identity_checks", queryset=IdentityCheck.objects.order_by("-started_at", "-id")),
            Prefetch(
                "background_checks",
                queryset=BackgroundCheck.objects.select_related("adjudication")
                .prefetch_related("adjudication__steps")
                .order_by("-started_at", "-id"),
            ),
        )
        .order_by("-created_at", "-id")
    )
    return [
        Vetting(
            provider=p,
            identity=next(iter(p.identity_checks.all()), None),
            background=next(iter(p.background_checks.all()), None),
        )
        for p in providers
    ]


# ---------------------------------------------------------------- the approval rule
# A provider becomes verified only with the evidence: a verified identity (Stripe Identity) and a
# background check that came back clear, or came back "consider" and was adjudicated "engage" by
# staff with a reason. Asked by every approval path through providers.services.provider_set_status
# (the providers.ports.approval_problem port, plugged in marketplace/ports.py): the admin API's
# verify action, the Django admin's action, manage.py.

NO_IDENTITY = gettext_lazy(
    "She cannot be approved yet: her ID has not been verified. Ask her to finish “Verify your ID”."
)
NO_CHECK = gettext_lazy(
    "She cannot be approved yet: her background check has not come back clear. "
    "Ask her to give consent for the check, then wait for the report."
)
CHECK_NEEDS_ADJUDICATION = gettext_lazy(
    "She cannot be approved yet: her background check needs a decision. "
    "Review the report in the vetting queue and record your decision with a reason."
)
CHECK_ADVERSE = gettext_lazy("She cannot be approved: her background check was adjudicated with adverse action.")
CHECK_NOT_CLEAR = gettext_lazy("She cannot be approved: her latest background check is {status}, not clear.")


def approval_problem(provider: Provider) -> str:
    """Why she cannot be approved yet, in plain words; "" when her evidence allows it."""
    identity = latest_identity(provider)
    if identity is None or identity.status != IdentityStatus.VERIFIED:
        return NO_IDENTITY
    check = latest_background(provider)
    if check is None or check.status in (CheckStatus.STARTING, CheckStatus.INVITED, CheckStatus.PENDING):
        return NO_CHECK
    if check.status == CheckStatus.CLEAR:
        return ""
    if check.status == CheckStatus.CONSIDER:
        adjudication = getattr(check, "adjudication", None)
        if adjudication is None:
            return CHECK_NEEDS_ADJUDICATION
        return "" if adjudication.outcome == AdjudicationOutcome.ENGAGE else CHECK_ADVERSE
    return CHECK_NOT_CLEAR.format(status=check.get_status_display().lower())
