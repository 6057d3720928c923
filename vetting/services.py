"""Writes of vetting: checks started, results received (webhooks, the offline pages), adjudication
and adverse-action steps, suspension by a re-check. Each is audited (core.events.VettingRecorded ->
the admin audit log) in the transaction of the change.

Outside calls (Stripe Identity, Checkr) run on Celery after the commit (vetting.tasks), never inside
a transaction; an outage leaves the step "starting" with `outage` set (the applicant is told) and
Celery tries again. Nothing here logs the applicant's data, only ids.
"""

from __future__ import annotations

import datetime as dt
import logging
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from circles.notices import notice_send
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.events import ProviderSuspended, VettingRecorded, publish
from core.notifications import NoticeKind
from providers.models import Provider, VerificationStatus
from providers.services import provider_evidence_set, provider_lock
from vetting.gateways import GatewayError, background_gateway, identity_gateway
from vetting.models import (
    ADVERSE_STEPS_IN_ORDER,
    Adjudication,
    AdjudicationOutcome,
    AdverseActionStep,
    BackgroundCheck,
    CheckKind,
    CheckStatus,
    IdentityCheck,
    IdentityStatus,
    SeenEvent,
    WebhookSource,
)

logger = logging.getLogger(__name__)

# The admin audit log's actions (adminpanel.models.AuditAction's values; adminpanel sits above).
IDENTITY_STARTED = "vetting.identity_started"
IDENTITY_RESULT = "vetting.identity_result"
CHECK_STARTED = "vetting.check_started"
CHECK_RESULT = "vetting.check_result"
CHECK_ADJUDICATED = "vetting.adjudicated"
ADVERSE_STEP = "vetting.adverse_step"
PROVIDER_SUSPENDED = "provider.suspended"

NOT_A_PROVIDER = gettext_lazy("Only someone who applied to help can start these checks.")
IDENTITY_DONE = gettext_lazy("Your ID is already verified.")
CHECK_UNDER_WAY = gettext_lazy("Your background check is already under way.")
CHECK_DONE = gettext_lazy("Your background check is already done.")
NO_CONSIDER_REPORT = gettext_lazy("Only a background check that came back “consider” is adjudicated.")
ALREADY_ADJUDICATED = gettext_lazy("This background check has already been decided.")
REASON_REQUIRED = gettext_lazy("Please give the reason for your decision.")
NOT_ADVERSE = gettext_lazy("Adverse-action steps are recorded only after a decision of adverse action.")
STEP_OUT_OF_ORDER = gettext_lazy("Record the steps in order: pre-adverse notice, waiting period, then final notice.")
STEP_ALREADY = gettext_lazy("This step is already recorded.")

# What the applicant sees while a service cannot be reached (the step stays, Celery retries).
OUTAGE_MESSAGE = gettext_lazy(
    "We could not reach our checking service just now. We will keep trying; please come back later."
)

# Report results Checkr sends (report.result; older accounts send it as report.status).
NOT_CLEAR = {CheckStatus.CONSIDER, CheckStatus.SUSPENDED, CheckStatus.DISPUTE}


def _audit(provider_id: int, action: str, *, actor: User | None = None, reason: str = "", **details: Any) -> None:
    publish(
        VettingRecorded(
            provider_id=provider_id, action=action, actor_id=actor.pk if actor else None, reason=reason, details=details
        )
    )


def _own_provider(actor: User) -> Provider:
    provider = Provider.objects.select_for_update(of=("self",)).filter(user_id=actor.pk).first()
    if provider is None:
        raise PermissionDenied(NOT_A_PROVIDER)
    return provider


def _check_admin(actor: User) -> None:
    if not actor.is_admin:
        raise PermissionDenied(gettext("Admin access required"))


# ---------------------------------------------------------------- identity (Stripe Identity)


def identity_start(*, actor: User) -> IdentityCheck:
    """The applicant starts "Verify your ID": a session is created from Celery after the commit
    (vetting.tasks.create_identity_session). A session already waiting for her is given again."""
    from vetting.tasks import create_identity_session

    with transaction.atomic():
        provider = _own_provider(actor)
        latest = IdentityCheck.objects.filter(provider=provider).first()
        if latest is not None and latest.status == IdentityStatus.VERIFIED:
            raise Conflict(IDENTITY_DONE)
        if latest is not None and latest.status in (IdentityStatus.STARTING, IdentityStatus.PENDING):
            return latest
        check = IdentityCheck.objects.create(provider=provider)
        _audit(provider.pk, IDENTITY_STARTED, actor=actor, checkId=check.pk)
        transaction.on_commit(lambda: create_identity_session.delay(check.pk), robust=True)
    return check


def identity_session_create(*, check_id: int) -> str:
    """Create the check's Stripe Identity session (Celery; outside any transaction). Returns
    "created", "done" (nothing to do) or "retry" (the service could not be reached)."""
    check = IdentityCheck.objects.filter(pk=check_id).first()
    if check is None or check.status != IdentityStatus.STARTING:
        return "done"
    return_url = f"{settings.SITE_URL.rstrip('/')}/provider-signup"
    try:
        session = identity_gateway().session_create(
            reference=f"provider-{check.provider_id}", return_url=return_url, idempotency_key=f"identity-{check.pk}"
        )
    except GatewayError as exc:
        logger.warning("Identity session for check %s not created: %s", check.pk, exc.message)
        IdentityCheck.objects.filter(pk=check.pk, status=IdentityStatus.STARTING).update(outage=True)
        return "retry"
    IdentityCheck.objects.filter(pk=check.pk, status=IdentityStatus.STARTING).update(
        session_id=session.session_id, url=session.url, status=IdentityStatus.PENDING, outage=False
    )
    return "created"


def identity_result_record(
    *,
    session_id: str,
    outcome: str,
    failure_reason: str = "",
    first_name: str = "",
    last_name: str = "",
    date_of_birth: dt.date | None = None,
) -> IdentityCheck | None:
    """A session's result (the webhook, or the offline page): verified sets her identity date;
    requires_input leaves her to try again. None when no check has that session."""
    with transaction.atomic():
        check = IdentityCheck.objects.select_for_update().filter(session_id=session_id).first()
        if check is None:
            return None
        if check.status == IdentityStatus.VERIFIED:
            return check  # a late "requires_input" never undoes a verified session
        now = timezone.now()
        check.status = outcome
        check.failure_reason = failure_reason[:255]
        check.completed_at = now if outcome == IdentityStatus.VERIFIED else None
        if first_name or last_name:
            check.verified_first_name, check.verified_last_name = first_name[:150], last_name[:150]
        if date_of_birth is not None:
            check.date_of_birth = date_of_birth
        check.save()
        if outcome == IdentityStatus.VERIFIED:
            provider_evidence_set(provider_id=check.provider_id, identity_verified_at=now)
        _audit(check.provider_id, IDENTITY_RESULT, checkId=check.pk, outcome=outcome, failure=check.failure_reason)
    return check


def identity_outputs_save(*, check_id: int) -> str:
    """Fetch the verified name and date of birth of a verified session (Celery; outside any
    transaction: Stripe sends them only when asked, expanded)."""
    check = IdentityCheck.objects.filter(pk=check_id, status=IdentityStatus.VERIFIED).first()
    if check is None or not check.session_id:
        return "done"
    try:
        outputs = identity_gateway().verified_outputs(check.session_id)
    except GatewayError as exc:
        logger.warning("Verified outputs of identity check %s not fetched: %s", check.pk, exc.message)
        return "retry"
    if outputs is None:
        return "done"
    IdentityCheck.objects.filter(pk=check.pk).update(
        verified_first_name=outputs.first_name[:150],
        verified_last_name=outputs.last_name[:150],
        date_of_birth=outputs.date_of_birth,
    )
    return "saved"


# ---------------------------------------------------------------- background check (Checkr)


def background_check_start(*, actor: User) -> BackgroundCheck:
    """The applicant gives consent for the check: the candidate and invitation are created from
    Celery after the commit (vetting.tasks.create_invitation); she finishes in Checkr's hosted flow."""
    with transaction.atomic():
        provider = _own_provider(actor)
        latest = BackgroundCheck.objects.filter(provider=provider).first()
        if latest is not None and latest.status in (CheckStatus.STARTING, CheckStatus.INVITED):
            return latest
        if latest is not None and latest.status == CheckStatus.PENDING:
            raise Conflict(CHECK_UNDER_WAY)
        if latest is not None and latest.status == CheckStatus.CLEAR and latest.kind == CheckKind.INITIAL:
            raise Conflict(CHECK_DONE)
        return _background_check_new(provider, kind=CheckKind.INITIAL, actor=actor, previous=latest)


def _background_check_new(
    provider: Provider, *, kind: str, actor: User | None, previous: BackgroundCheck | None
) -> BackgroundCheck:
    from vetting.tasks import create_invitation

    check = BackgroundCheck.objects.create(
        provider=provider,
        kind=kind,
        package=settings.CHECKR_PACKAGE,
        candidate_id=previous.candidate_id if previous else "",
    )
    _audit(provider.pk, CHECK_STARTED, actor=actor, checkId=check.pk, kind=kind, package=check.package)
    transaction.on_commit(lambda: create_invitation.delay(check.pk), robust=True)
    return check


def background_invitation_create(*, check_id: int) -> str:
    """Create the candidate and the invitation (Celery; outside any transaction)."""
    check = BackgroundCheck.objects.select_related("provider__user").filter(pk=check_id).first()
    if check is None or check.status != CheckStatus.STARTING:
        return "done"
    user = check.provider.user
    try:
        invitation = background_gateway().invite(
            first_name=user.first_name,
            last_name=user.last_name,
            email=user.email,
            candidate_id=check.candidate_id,
            package=check.package,
            idempotency_key=f"background-{check.pk}",
        )
    except GatewayError as exc:
        logger.warning("Background check %s invitation not created: %s", check.pk, exc.message)
        BackgroundCheck.objects.filter(pk=check.pk, status=CheckStatus.STARTING).update(outage=True)
        return "retry"
    BackgroundCheck.objects.filter(pk=check.pk, status=CheckStatus.STARTING).update(
        candidate_id=invitation.candidate_id,
        invitation_id=invitation.invitation_id,
        invitation_url=invitation.invitation_url,
        status=CheckStatus.INVITED,
        outage=False,
    )
    return "invited"


def _status_of_report(report: dict[str, Any]) -> str:
    """clear / consider from the report's result; suspended, dispute, canceled, pending from its status."""
    result = str(report.get("result") or "")
    status = str(report.get("status") or "")
    for value in (result, status):
        if value in (CheckStatus.CLEAR, CheckStatus.CONSIDER):
            return value
    if status in (CheckStatus.SUSPENDED, CheckStatus.DISPUTE, CheckStatus.CANCELED):
        return status
    return CheckStatus.PENDING


def background_report_record(*, report: dict[str, Any], event_type: str = "report.completed") -> BackgroundCheck | None:
    """A report's result (Checkr's report.completed / report.updated, or the offline page). A clear
    report sets her background date; a not-clear result for an approved provider suspends her."""
    report_id = str(report.get("id") or "")
    candidate_id = str(report.get("candidate_id") or "")
    status = _status_of_report(report)
    with transaction.atomic():
        checks = BackgroundCheck.objects.select_for_update()
        check = checks.filter(report_id=report_id).first() if report_id else None
        if check is None and candidate_id:
            check = checks.filter(candidate_id=candidate_id).first()
        if check is None:
            return None
        previous = check.status
        now = timezone.now()
        check.report_id = report_id or check.report_id
        check.status = status
        if status not in (CheckStatus.PENDING,):
            check.completed_at = now
        check.save()
        if status == CheckStatus.CLEAR:
            provider_evidence_set(provider_id=check.provider_id, background_checked_at=now)
        _audit(check.provider_id, CHECK_RESULT, checkId=check.pk, status=status, previous=previous, event=event_type)
        provider = provider_lock(provider_id=check.provider_id)
        if status in NOT_CLEAR and provider.verification_status == VerificationStatus.VERIFIED:
            provider_suspend(provider=provider, reason=f"A re-check came back {check.get_status_display().lower()}.")
    return check


def provider_suspend(*, provider: Provider, reason: str) -> None:
    """A re-check that is not clear: she is taken off the public lists and new visits at once
    (is_active off), recorded with its reason; her upcoming visits are flagged to staff and their
    families told a replacement is being found (bookings.services.on_provider_suspended). The
    caller holds her row lock."""
    provider.is_active = False
    provider.save(update_fields=["is_active", "updated_at"])
    _audit(provider.pk, PROVIDER_SUSPENDED, reason=reason)
    publish(ProviderSuspended(provider_id=provider.pk, reason=reason))


# ---------------------------------------------------------------- yearly renewal

# She is asked to renew this many days before her checks expire.
RENEWAL_NOTICE_DAYS = 30


def checks_renewals_start(*, now: dt.datetime | None = None) -> int:
    """Beat (vetting.tasks.check_renewals): each verified provider whose checks expire within
    RENEWAL_NOTICE_DAYS and who has no renewal under way gets a renewal check (an invitation to
    consent again, created on Celery) and a notice. Returns how many were asked."""
    now = now or timezone.now()
    due = Provider.objects.filter(
        verification_status=VerificationStatus.VERIFIED,
        checks_due_by__isnull=False,
        checks_due_by__lte=now + dt.timedelta(days=RENEWAL_NOTICE_DAYS),
    ).values_list("pk", flat=True)
    asked = 0
    for provider_id in due:
        with transaction.atomic():
            provider = provider_lock(provider_id=provider_id)
            window_start = provider.checks_due_by - dt.timedelta(days=RENEWAL_NOTICE_DAYS + 1)
            renewing = BackgroundCheck.objects.filter(
                provider=provider, kind=CheckKind.RENEWAL, started_at__gte=window_start
            ).exists()
            if renewing:
                continue
            previous = BackgroundCheck.objects.filter(provider=provider).first()
            _background_check_new(provider, kind=CheckKind.RENEWAL, actor=None, previous=previous)
            due_on = timezone.localtime(provider.checks_due_by).date().isoformat()
            notice_send(NoticeKind.CHECKS_RENEWAL_DUE, helpers=[provider.user], facts={"due_on": due_on})
            asked += 1
    return asked


# ---------------------------------------------------------------- adjudication (staff)


def adjudicate(*, actor: User, provider_id: int, outcome: str, reason: str) -> Adjudication:
    """Staff decide on a "consider" report, with a reason: engage (she may be approved) or adverse
    action (the steps follow)."""
    _check_admin(actor)
    reason = (reason or "").strip()
    if outcome not in AdjudicationOutcome.values:
        raise InvalidInput(
            gettext("Please choose engage or adverse action."), errors={"outcome": [gettext("Choose a decision.")]}
        )
    if not reason:
        raise InvalidInput(REASON_REQUIRED, errors={"reason": [REASON_REQUIRED]})
    with transaction.atomic():
        provider = provider_lock(provider_id=provider_id)
        check = BackgroundCheck.objects.select_for_update().filter(provider=provider).first()
        if check is None or check.status != CheckStatus.CONSIDER:
            raise Conflict(NO_CONSIDER_REPORT)
        if Adjudication.objects.filter(check_record=check).exists():
            raise Conflict(ALREADY_ADJUDICATED)
        adjudication = Adjudication.objects.create(check_record=check, outcome=outcome, reason=reason, decided_by=actor)
        if outcome == AdjudicationOutcome.ENGAGE:
            provider_evidence_set(provider_id=provider.pk, background_checked_at=timezone.now())
        _audit(provider.pk, CHECK_ADJUDICATED, actor=actor, reason=reason, checkId=check.pk, outcome=outcome)
    return adjudication


def adverse_step_record(*, actor: User, provider_id: int, step: str, note: str = "") -> AdverseActionStep:
    """Record the next adverse-action step (pre-adverse notice, waiting period, final notice), in order."""
    _check_admin(actor)
    with transaction.atomic():
        provider = provider_lock(provider_id=provider_id)
        check = BackgroundCheck.objects.filter(provider=provider).select_related("adjudication").first()
        adjudication = getattr(check, "adjudication", None) if check else None
        if adjudication is None or adjudication.outcome != AdjudicationOutcome.ADVERSE_ACTION:
            raise Conflict(NOT_ADVERSE)
        if step not in ADVERSE_STEPS_IN_ORDER:
            raise InvalidInput(gettext("Please choose a step."), errors={"step": [gettext("Choose a step.")]})
        done = list(adjudication.steps.values_list("step", flat=True))
        if step in done:
            raise Conflict(STEP_ALREADY)
        if ADVERSE_STEPS_IN_ORDER.index(step) != len(done):
            raise Conflict(STEP_OUT_OF_ORDER)
        recorded = AdverseActionStep.objects.create(
            adjudication=adjudication, step=step, note=(note or "").strip(), recorded_by=actor
        )
        _audit(provider.pk, ADVERSE_STEP, actor=actor, reason=recorded.note, checkId=check.pk, step=step)
    return recorded


# ---------------------------------------------------------------- webhooks


def event_seen(*, source: str, event_id: str, event_type: str, outcome: str) -> bool:
    """Record the event as handled (inside the handling transaction); False when it was already."""
    try:
        with transaction.atomic():
            SeenEvent.objects.create(source=source, event_id=event_id, event_type=event_type, outcome=outcome)
    except IntegrityError:
        return False
    return True


IDENTITY_EVENTS = {
    "identity.verification_session.verified": IdentityStatus.VERIFIED,
    "identity.verification_session.requires_input": IdentityStatus.REQUIRES_INPUT,
    "identity.verification_session.canceled": IdentityStatus.CANCELED,
}


def identity_event_process(*, event: dict[str, Any]) -> str:
    """A signed Stripe Identity event, applied once (its id is recorded with the change)."""
    from vetting.tasks import fetch_identity_outputs

    event_id, event_type = str(event.get("id") or ""), str(event.get("type") or "")
    if not event_id:
        raise InvalidInput(gettext("The event has no id."))
    with transaction.atomic():
        if SeenEvent.objects.filter(source=WebhookSource.STRIPE_IDENTITY, event_id=event_id).exists():
            return "duplicate"
        outcome = IDENTITY_EVENTS.get(event_type)
        session = (event.get("data") or {}).get("object") or {}
        check = None
        if outcome:
            last_error = session.get("last_error") or {}
            check = identity_result_record(
                session_id=str(session.get("id") or ""),
                outcome=outcome,
                failure_reason=str(last_error.get("code") or ""),
            )
        result = "ignored" if check is None else outcome
        if not event_seen(
            source=WebhookSource.STRIPE_IDENTITY, event_id=event_id, event_type=event_type, outcome=result
        ):
            transaction.set_rollback(True)
            return "duplicate"
        if check is not None and outcome == IdentityStatus.VERIFIED:
            transaction.on_commit(lambda: fetch_identity_outputs.delay(check.pk), robust=True)
    return result


CHECKR_REPORT_EVENTS = {"report.completed", "report.updated", "report.suspended", "report.disputed", "report.canceled"}


def checkr_event_process(*, event: dict[str, Any]) -> str:
    """A signed Checkr event, applied once."""
    event_id, event_type = str(event.get("id") or ""), str(event.get("type") or "")
    if not event_id:
        raise InvalidInput(gettext("The event has no id."))
    with transaction.atomic():
        if SeenEvent.objects.filter(source=WebhookSource.CHECKR, event_id=event_id).exists():
            return "duplicate"
        check = None
        if event_type in CHECKR_REPORT_EVENTS:
            report = (event.get("data") or {}).get("object") or {}
            check = background_report_record(report=report, event_type=event_type)
        result = "ignored" if check is None else check.status
        if not event_seen(source=WebhookSource.CHECKR, event_id=event_id, event_type=event_type, outcome=result):
            transaction.set_rollback(True)
            return "duplicate"
    return result


def check_of(*, provider_id: int) -> Provider:
    provider = Provider.objects.filter(pk=provider_id).select_related("user").first()
    if provider is None:
        raise NotFound(gettext("Provider not found."))
    return provider
