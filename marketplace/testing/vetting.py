"""Evidence for tests that approve a provider without being about vetting: a verified identity and a
clear background check (vetting.selectors.approval_problem's rule), as the webhooks would record."""

from __future__ import annotations

from django.utils import timezone


def with_evidence(provider, *, report: str = "clear"):
    """`provider` with a verified identity session and a background check that came back `report`."""
    from vetting.models import BackgroundCheck, IdentityCheck, IdentityStatus

    now = timezone.now()
    IdentityCheck.objects.create(
        provider=provider,
        session_id=f"vs_test_{provider.pk}",
        status=IdentityStatus.VERIFIED,
        verified_first_name=provider.user.first_name,
        verified_last_name=provider.user.last_name,
        completed_at=now,
    )
    BackgroundCheck.objects.create(
        provider=provider,
        candidate_id=f"cand_test_{provider.pk}",
        report_id=f"rpt_test_{provider.pk}",
        status=report,
        completed_at=now,
    )
    return provider
