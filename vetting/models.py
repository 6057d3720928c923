"""The evidence behind "verified": identity sessions (Stripe Identity), background checks (Checkr),
staff adjudication of a "consider" report with its adverse-action steps, and the webhook events
already seen.

Kindly keeps only what it needs to decide and to show staff: the session id, its outcome, the
verified name and date of birth; the check's ids, status and dates. Document images and the
report's details stay with Stripe and Checkr.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from providers.models import Provider


class IdentityStatus(models.TextChoices):
    STARTING = "starting", "Starting"  # asked for; the session is being created (Celery)
    PENDING = "pending", "Waiting for the applicant"
    VERIFIED = "verified", "Verified"
    REQUIRES_INPUT = "requires_input", "Could not be verified"
    CANCELED = "canceled", "Canceled"


class IdentityCheck(models.Model):
    """One Stripe Identity verification session of an applicant (document and matching selfie)."""

    provider = models.ForeignKey(Provider, on_delete=models.CASCADE, related_name="identity_checks")
    session_id = models.CharField(max_length=255, blank=True, db_index=True)
    url = models.URLField(max_length=1000, blank=True)
    status = models.CharField(max_length=20, choices=IdentityStatus.choices, default=IdentityStatus.STARTING)
    # What Stripe says could not be checked (its last_error code), never the document itself.
    failure_reason = models.CharField(max_length=255, blank=True)
    verified_first_name = models.CharField(max_length=150, blank=True)
    verified_last_name = models.CharField(max_length=150, blank=True)
    date_of_birth = models.DateField(null=True, blank=True)
    # The outside service could not be reached: the applicant is told, Celery tries again.
    outage = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"Identity of provider #{self.provider_id}: {self.status}"

    @property
    def verified_name(self) -> str:
        return f"{self.verified_first_name} {self.verified_last_name}".strip()


class CheckStatus(models.TextChoices):
    STARTING = "starting", "Starting"  # asked for; the candidate and invitation are being created
    INVITED = "invited", "Waiting for consent"  # the applicant consents in Checkr's hosted flow
    PENDING = "pending", "In progress"
    CLEAR = "clear", "Clear"
    CONSIDER = "consider", "Consider"
    SUSPENDED = "suspended", "Suspended"
    DISPUTE = "dispute", "Disputed"
    CANCELED = "canceled", "Canceled"


class CheckKind(models.TextChoices):
    INITIAL = "initial", "First check"
    RENEWAL = "renewal", "Yearly re-check"


class BackgroundCheck(models.Model):
    """One Checkr background check: the candidate, the invitation (with its package) and the report."""

    provider = models.ForeignKey(Provider, on_delete=models.CASCADE, related_name="background_checks")
    kind = models.CharField(max_length=16, choices=CheckKind.choices, default=CheckKind.INITIAL)
    package = models.CharField(max_length=100, blank=True)
    candidate_id = models.CharField(max_length=255, blank=True, db_index=True)
    invitation_id = models.CharField(max_length=255, blank=True)
    invitation_url = models.URLField(max_length=1000, blank=True)
    report_id = models.CharField(max_length=255, blank=True, db_index=True)
    status = models.CharField(max_length=16, choices=CheckStatus.choices, default=CheckStatus.STARTING)
    outage = models.BooleanField(default=False)
    started_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]

    def __str__(self) -> str:
        return f"Background check of provider #{self.provider_id}: {self.status}"


class AdjudicationOutcome(models.TextChoices):
    ENGAGE = "engage", "Engage (the report does not bar her)"
    ADVERSE_ACTION = "adverse_action", "Adverse action (not approved)"


class Adjudication(models.Model):
    """Staff's decision on a "consider" report, with its reason."""

    check_record = models.OneToOneField(BackgroundCheck, on_delete=models.CASCADE, related_name="adjudication")
    outcome = models.CharField(max_length=20, choices=AdjudicationOutcome.choices)
    reason = models.TextField()
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.outcome} on check #{self.check_record_id}"


class AdverseStep(models.TextChoices):
    PRE_ADVERSE_NOTICE = "pre_adverse_notice", "Pre-adverse action notice sent"
    WAITING_PERIOD = "waiting_period", "Waiting period over"
    FINAL_NOTICE = "final_notice", "Final adverse action notice sent"


# The order of the steps (FCRA): the pre-adverse notice, the waiting period, then the final notice.
ADVERSE_STEPS_IN_ORDER = [AdverseStep.PRE_ADVERSE_NOTICE, AdverseStep.WAITING_PERIOD, AdverseStep.FINAL_NOTICE]


class AdverseActionStep(models.Model):
    """One recorded step of an adverse action."""

    adjudication = models.ForeignKey(Adjudication, on_delete=models.CASCADE, related_name="steps")
    step = models.CharField(max_length=24, choices=AdverseStep.choices)
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["recorded_at", "id"]
        constraints = [models.UniqueConstraint(fields=["adjudication", "step"], name="adverse_step_once")]

    def __str__(self) -> str:
        return f"{self.step} of adjudication #{self.adjudication_id}"


class WebhookSource(models.TextChoices):
    STRIPE_IDENTITY = "stripe_identity", "Stripe Identity"
    CHECKR = "checkr", "Checkr"


class SeenEvent(models.Model):
    """A webhook event already handled, recorded in the transaction that handled it: each id once."""

    source = models.CharField(max_length=20, choices=WebhookSource.choices)
    event_id = models.CharField(max_length=255)
    event_type = models.CharField(max_length=100)
    outcome = models.CharField(max_length=32)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-received_at"]
        constraints = [models.UniqueConstraint(fields=["source", "event_id"], name="vetting_event_once")]

    def __str__(self) -> str:
        return f"{self.source} {self.event_id} {self.event_type} -> {self.outcome}"
