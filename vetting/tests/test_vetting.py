"""Vetting through the live gateways, faked at their HTTP boundary (Stripe Identity by the fake
Stripe, Checkr by the fake Checkr): checks started on Celery outside any transaction, results by
signed webhooks (each event once), approval that follows the evidence, adjudication with its
adverse-action steps, a not-clear re-check that suspends, outages that leave the step pending."""

from __future__ import annotations

import datetime as dt
import json
import logging

import pytest
from celery.exceptions import Retry
from django.utils import timezone

from accounts.tests.factories import AdminUserFactory
from adminpanel.models import AuditAction, AuditLog
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from marketplace.testing.checkr import IDENTITY_URL, checkr_event, checkr_webhook
from marketplace.testing.stripe import signed_webhook, stripe_event
from marketplace.testing.vetting import with_evidence
from messaging.models import Message
from providers.models import Provider, VerificationStatus
from providers.services import provider_evidence_set
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory
from vetting import selectors, services, tasks
from vetting.gateways import checkr_signature
from vetting.models import (
    AdverseActionStep,
    BackgroundCheck,
    CheckStatus,
    IdentityCheck,
    IdentityStatus,
    SeenEvent,
)

pytestmark = pytest.mark.django_db

TASKS = ("create_identity_session", "fetch_identity_outputs", "create_invitation")


@pytest.fixture(autouse=True)
def vetting_tasks_in_process(monkeypatch):
    """The vetting tasks run when enqueued (after the commit), in this process, as a worker would."""
    for name in TASKS:
        task = getattr(tasks, name)
        monkeypatch.setattr(task, "delay", lambda *args, _task=task: _task.apply(args=args))


@pytest.fixture
def applicant(db):
    return ProviderFactory(user__first_name="Maria", user__last_name="Lopez", verification_status="pending")


def identity_webhook(client, event):
    return signed_webhook(client, event, secret="whsec_kindly_identity_test_secret", url=IDENTITY_URL)


def audit_actions(provider) -> list[str]:
    return list(
        AuditLog.objects.filter(target_type="providers.provider", target_id=str(provider.pk))
        .order_by("created_at", "id")
        .values_list("action", flat=True)
    )


@pytest.mark.django_db(transaction=True)
def test_applicant_verifies_and_consents_then_staff_approve(
    client, admin_user, applicant, vetting_live, stripe_backend, caplog
):
    """The whole journey with the live gateways; no outside call inside a transaction (both fakes
    fail the test otherwise); the applicant's name and birth date are never logged."""
    caplog.set_level(logging.DEBUG)
    client.force_login(applicant.user)

    started = call(client, "POST", "/api/vetting/identity")

    assert started.status_code == 202
    body = started.json()
    assert body["identity"]["status"] == "pending"
    assert body["identity"]["url"].startswith("https://verify.stripe.com/start/vs_fake_")
    assert body["backgroundCheck"] is None
    check = IdentityCheck.objects.get(provider=applicant)
    assert len(stripe_backend.posts("/v1/identity/verification_sessions")) == 1
    stripe_backend.identity_sessions[check.session_id]["verified_outputs"] = {
        "first_name": "Maria",
        "last_name": "Lopez",
        "dob": {"day": 9, "month": 4, "year": 1968},
    }

    # The webhook says verified; the verified outputs are fetched from Stripe afterwards.
    session_id = check.session_id
    event = stripe_event("identity.verification_session.verified", {"id": session_id, "status": "verified"})
    answer = identity_webhook(client, event)
    assert answer.json()["outcome"] == "verified", answer.content
    applicant.refresh_from_db()
    assert applicant.identity_verified_at is not None
    check.refresh_from_db()
    assert (check.verified_name, check.date_of_birth) == ("Maria Lopez", dt.date(1968, 4, 9))
    # A replay of the same event changes nothing.
    assert identity_webhook(client, event).json()["outcome"] == "duplicate"
    assert SeenEvent.objects.filter(event_id=event["id"]).count() == 1

    client.force_login(applicant.user)
    consented = call(client, "POST", "/api/vetting/background-check")
    assert consented.status_code == 202
    step = consented.json()["backgroundCheck"]
    assert step["status"] == "invited"
    assert step["url"].startswith("https://apply.checkr.com/invite/kindly/")
    candidate = vetting_live.posts("/v1/candidates")[0]
    assert (candidate.body["first_name"], candidate.body["last_name"]) == ("Maria", "Lopez")
    invitation = vetting_live.posts("/v1/invitations")[0]
    assert invitation.body["package"] == "tasker_standard"
    assert invitation.body["candidate_id"] == candidate_id_of(applicant)

    report = {"id": "rpt000001", "candidate_id": candidate_id_of(applicant), "status": "complete", "result": "clear"}
    done = checkr_webhook(client, checkr_event("report.completed", report))
    assert done.json()["outcome"] == "clear"
    applicant.refresh_from_db()
    assert applicant.background_checked_at is not None

    admin = client
    admin.force_login(admin_user)
    queue = call(admin, "GET", "/api/admin/vetting").json()
    row = next(item for item in queue if item["providerId"] == applicant.pk)
    assert row["identity"]["status"] == "verified"
    assert row["backgroundCheck"]["status"] == "clear"
    approved = call(admin, "PUT", f"/api/admin/providers/{applicant.pk}/status", {"status": "verified"})
    assert approved.status_code == 200, approved.content
    assert audit_actions(applicant) == [
        AuditAction.IDENTITY_STARTED,
        AuditAction.IDENTITY_RESULT,
        AuditAction.CHECK_STARTED,
        AuditAction.CHECK_RESULT,
        AuditAction.PROVIDER_VERIFIED,
    ]
    logged = caplog.text
    assert "Maria" not in logged and "Lopez" not in logged


def candidate_id_of(provider) -> str:
    return BackgroundCheck.objects.get(provider=provider).candidate_id


def test_stripe_identity_is_asked_for_a_document_with_a_matching_selfie(
    client, applicant, vetting_live, stripe_backend
):
    client.force_login(applicant.user)
    with_commit = call(client, "POST", "/api/vetting/identity")
    assert with_commit.status_code == 202
    # In a test wrapped in a transaction on_commit never fires: create the session as the task would.
    check = IdentityCheck.objects.get(provider=applicant)
    assert services.identity_session_create(check_id=check.pk) == "created"
    sent = stripe_backend.posts("/v1/identity/verification_sessions")[0]
    assert sent.params["type"] == "document"
    assert sent.params["options[document][require_matching_selfie]"] == "true"
    assert sent.params["client_reference_id"] == f"provider-{applicant.pk}"
    assert sent.idempotency_key == f"identity-{check.pk}"


def test_the_verified_name_and_birth_date_are_kept_and_a_mismatch_is_shown(applicant, vetting_live, stripe_backend):
    check = IdentityCheck.objects.create(provider=applicant, status=IdentityStatus.PENDING, session_id="vs_fake_x")
    stripe_backend.identity_sessions["vs_fake_x"] = {
        "id": "vs_fake_x",
        "object": "identity.verification_session",
        "status": "verified",
        "verified_outputs": {"first_name": "Mary", "last_name": "Lopez", "dob": {"day": 2, "month": 3, "year": 1970}},
    }
    services.identity_result_record(session_id="vs_fake_x", outcome=IdentityStatus.VERIFIED)

    assert services.identity_outputs_save(check_id=check.pk) == "saved"

    check.refresh_from_db()
    assert (check.verified_name, check.date_of_birth) == ("Mary Lopez", dt.date(1970, 3, 2))
    sent = [r for r in stripe_backend.requests if r.path == "/v1/identity/verification_sessions/vs_fake_x"][0]
    assert sent.params.get("expand[0]") == "verified_outputs"
    assert selectors.vetting_of(applicant).name_mismatch is True


def test_an_outage_leaves_the_step_pending_with_a_clear_message_and_a_retry(
    client, applicant, vetting_live, stripe_backend
):
    stripe_backend.fail_next.append((500, {"error": {"type": "api_error", "message": "down"}}))
    stripe_backend.fail_next.append((500, {"error": {"type": "api_error", "message": "down"}}))
    stripe_backend.fail_next.append((500, {"error": {"type": "api_error", "message": "down"}}))
    client.force_login(applicant.user)
    call(client, "POST", "/api/vetting/identity")
    check = IdentityCheck.objects.get(provider=applicant)

    with pytest.raises(Retry):
        tasks.create_identity_session.apply(args=(check.pk,), throw=True)

    check.refresh_from_db()
    assert (check.status, check.outage) == (IdentityStatus.STARTING, True)
    mine = call(client, "GET", "/api/vetting/me").json()
    assert mine["identity"]["status"] == "starting"
    assert mine["identity"]["message"] == services.OUTAGE_MESSAGE
    # Checkr down too: the same.
    vetting_live.fail_next.append((503, {"error": "unavailable"}))
    call(client, "POST", "/api/vetting/background-check")
    background = BackgroundCheck.objects.get(provider=applicant)
    assert services.background_invitation_create(check_id=background.pk) == "retry"
    background.refresh_from_db()
    assert (background.status, background.outage) == (CheckStatus.STARTING, True)
    # Back up: the next try completes it.
    assert services.background_invitation_create(check_id=background.pk) == "invited"
    assert call(client, "GET", "/api/vetting/me").json()["backgroundCheck"]["message"] == ""


def test_unsigned_or_tampered_webhooks_change_nothing(client, applicant, vetting_live, stripe_backend):
    check = IdentityCheck.objects.create(provider=applicant, status=IdentityStatus.PENDING, session_id="vs_fake_y")
    event = stripe_event("identity.verification_session.verified", {"id": "vs_fake_y"})
    unsigned = client.generic("POST", IDENTITY_URL, "{}", content_type="application/json")
    wrong_secret = signed_webhook(client, event, secret="whsec_wrong", url=IDENTITY_URL)
    assert (unsigned.status_code, wrong_secret.status_code) == (400, 400)
    assert set(wrong_secret.json()) == {"message", "errors"}

    BackgroundCheck.objects.create(provider=applicant, candidate_id="cand1", status=CheckStatus.PENDING)
    report = checkr_event("report.completed", {"id": "r1", "candidate_id": "cand1", "result": "clear"})
    forged = checkr_webhook(client, report, key="not-the-key")

    tampered = client.generic(
        "POST",
        "/api/vetting/checkr/webhook",
        json.dumps({**report, "id": "other"}),
        content_type="application/json",
        HTTP_X_CHECKR_SIGNATURE=checkr_signature(json.dumps(report).encode(), "checkr_test_key_kindly"),
    )
    assert (forged.status_code, tampered.status_code) == (400, 400)

    check.refresh_from_db()
    applicant.refresh_from_db()
    assert check.status == IdentityStatus.PENDING
    assert (applicant.identity_verified_at, applicant.background_checked_at) == (None, None)
    assert not SeenEvent.objects.exists()


def test_approve_without_evidence_is_refused_in_plain_words(client, admin_user, applicant):
    client.force_login(admin_user)

    refused = call(client, "PUT", f"/api/admin/providers/{applicant.pk}/status", {"status": "verified"})

    assert refused.status_code == 409
    assert refused.json()["message"] == selectors.NO_IDENTITY
    IdentityCheck.objects.create(provider=applicant, status=IdentityStatus.VERIFIED, session_id="vs_ok")
    refused = call(client, "PUT", f"/api/admin/providers/{applicant.pk}/status", {"status": "verified"})
    assert refused.json()["message"] == selectors.NO_CHECK
    applicant.refresh_from_db()
    assert applicant.verification_status == VerificationStatus.PENDING
    assert not AuditLog.objects.filter(action=AuditAction.PROVIDER_VERIFIED).exists()


def test_the_django_admin_action_obeys_the_same_rule(client, admin_user, applicant):
    ready = with_evidence(ProviderFactory(verification_status="pending"))
    client.force_login(admin_user)

    response = client.post(
        "/django-admin/providers/provider/",
        {"action": "approve_selected", "_selected_action": [applicant.pk, ready.pk]},
        follow=True,
    )

    assert response.status_code == 200
    applicant.refresh_from_db()
    ready.refresh_from_db()
    assert (applicant.verification_status, ready.verification_status) == ("pending", "verified")
    assert str(selectors.NO_IDENTITY) in response.content.decode()
    assert AuditLog.objects.filter(action=AuditAction.PROVIDER_VERIFIED, target_id=str(ready.pk)).exists()


def test_a_consider_report_is_adjudicated_with_its_adverse_action_steps(client, admin_user, applicant):
    with_evidence(applicant, report=CheckStatus.CONSIDER)
    client.force_login(admin_user)
    approve = f"/api/admin/providers/{applicant.pk}/status"
    assert call(client, "PUT", approve, {"status": "verified"}).json()["message"] == selectors.CHECK_NEEDS_ADJUDICATION

    no_reason = call(client, "POST", f"/api/admin/vetting/{applicant.pk}/adjudication", {"outcome": "engage"})
    assert no_reason.status_code == 400
    adverse = call(
        client,
        "POST",
        f"/api/admin/vetting/{applicant.pk}/adjudication",
        {"outcome": "adverse_action", "reason": "A recent conviction for theft from a vulnerable adult."},
    )
    assert adverse.status_code == 201
    steps = f"/api/admin/vetting/{applicant.pk}/adverse-steps"
    assert call(client, "POST", steps, {"step": "final_notice"}).status_code == 409  # out of order
    for step in ("pre_adverse_notice", "waiting_period", "final_notice"):
        assert call(client, "POST", steps, {"step": step, "note": "Sent by email."}).status_code == 201
    assert call(client, "POST", steps, {"step": "final_notice"}).status_code == 409
    row = next(r for r in call(client, "GET", "/api/admin/vetting").json() if r["providerId"] == applicant.pk)
    assert [s["step"] for s in row["backgroundCheck"]["adjudication"]["steps"]] == [
        "pre_adverse_notice",
        "waiting_period",
        "final_notice",
    ]
    assert call(client, "PUT", approve, {"status": "verified"}).json()["message"] == selectors.CHECK_ADVERSE
    assert AdverseActionStep.objects.count() == 3
    assert audit_actions(applicant).count(AuditAction.ADVERSE_STEP) == 3


def test_a_consider_report_adjudicated_engage_may_be_approved(client, admin_user, applicant):
    with_evidence(applicant, report=CheckStatus.CONSIDER)
    client.force_login(admin_user)
    engaged = call(
        client,
        "POST",
        f"/api/admin/vetting/{applicant.pk}/adjudication",
        {"outcome": "engage", "reason": "A 20-year-old traffic offence, unrelated to the work."},
    )
    assert engaged.status_code == 201
    approved = call(client, "PUT", f"/api/admin/providers/{applicant.pk}/status", {"status": "verified"})
    assert approved.status_code == 200
    log = AuditLog.objects.get(action=AuditAction.CHECK_ADJUDICATED)
    assert (log.actor, log.reason) == (admin_user, "A 20-year-old traffic offence, unrelated to the work.")


def test_a_re_check_that_is_not_clear_suspends_her_with_its_reason(client, vetting_live):
    provider = with_evidence(VerifiedProviderFactory())
    candidate = BackgroundCheck.objects.get(provider=provider).candidate_id
    report = {"id": "rpt_recheck", "candidate_id": candidate, "status": "complete", "result": "consider"}

    answer = checkr_webhook(client, checkr_event("report.updated", report))

    assert answer.json()["outcome"] == "consider"
    provider.refresh_from_db()
    assert provider.is_active is False
    log = AuditLog.objects.get(action=AuditAction.PROVIDER_SUSPENDED)
    assert (log.actor, log.target_id) == (None, str(provider.pk))
    assert "consider" in log.reason
    assert provider.pk not in [p["id"] for p in call(client, "GET", "/api/providers?verified=true").json()]


def test_a_suspension_flags_her_upcoming_visits_to_staff_and_tells_the_families(client, admin_user, vetting_live):
    provider = with_evidence(VerifiedProviderFactory(user__first_name="Vera", user__last_name="Vance"))
    upcoming = BookingFactory(
        provider=provider,
        service_request=ServiceRequestFactory(
            title="Grocery run", preferred_date=timezone.localdate() + dt.timedelta(days=5)
        ),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    past = BookingFactory(
        provider=provider,
        service_request=ServiceRequestFactory(
            title="Last week", preferred_date=timezone.localdate() - dt.timedelta(days=5)
        ),
        status=BookingStatus.COMPLETED,
        payment_status=PaymentStatus.PAID,
    )
    candidate = BackgroundCheck.objects.get(provider=provider).candidate_id
    report = {"id": "rpt_monitor", "candidate_id": candidate, "status": "suspended"}

    assert checkr_webhook(client, checkr_event("report.suspended", report)).json()["outcome"] == "suspended"

    family = Message.objects.filter(receiver=upcoming.client, content__contains="Kindly is finding a replacement")
    assert family.count() == 1
    upcoming.refresh_from_db()
    assert upcoming.status == BookingStatus.REPLACING  # offered to other helpers at once (bookings.services)
    assert "Grocery run" in family.get().content
    flagged = Message.objects.get(receiver=admin_user, content__contains="Needs a new helper")
    assert f"booking #{upcoming.pk}" in flagged.content and "Vera Vance is suspended" in flagged.content
    assert not Message.objects.filter(content__contains="Last week").exists()
    assert past.client_id  # the completed visit is nobody's concern


def test_checks_expire_after_a_year_and_she_is_asked_to_renew_ahead(client, vetting_live):
    provider = with_evidence(VerifiedProviderFactory(user__first_name="Rosa"))
    checked = timezone.now() - dt.timedelta(days=350)
    provider_evidence_set(provider_id=provider.pk, background_checked_at=checked)
    provider.refresh_from_db()
    assert provider.checks_due_by == checked + dt.timedelta(days=365)

    assert services.checks_renewals_start() == 1
    assert services.checks_renewals_start() == 0  # asked once
    renewal = BackgroundCheck.objects.filter(provider=provider).first()
    assert (renewal.kind, renewal.status) == ("renewal", CheckStatus.STARTING)
    assert Message.objects.filter(receiver=provider.user, content__contains="yearly background check is due").exists()
    listed = [p["id"] for p in call(client, "GET", "/api/providers?verified=true").json()]
    assert provider.pk in listed

    # Past the date she is hidden until a renewed check comes back clear.
    Provider.objects.filter(pk=provider.pk).update(checks_due_by=timezone.now() - dt.timedelta(minutes=1))
    assert provider.pk not in [p["id"] for p in call(client, "GET", "/api/providers?verified=true").json()]
    vetting_live.candidates[renewal.candidate_id] = {"id": renewal.candidate_id}  # hers since the first check
    assert services.background_invitation_create(check_id=renewal.pk) == "invited"
    assert vetting_live.posts("/v1/candidates") == []  # the candidate is reused
    renewal.refresh_from_db()
    report = {"id": "rpt_renewal", "candidate_id": renewal.candidate_id, "result": "clear"}
    assert checkr_webhook(client, checkr_event("report.completed", report)).json()["outcome"] == "clear"
    provider.refresh_from_db()
    assert provider.checks_due_by > timezone.now() + dt.timedelta(days=360)
    assert provider.pk in [p["id"] for p in call(client, "GET", "/api/providers?verified=true").json()]


def test_staff_without_the_second_step_reach_no_vetting_endpoint(client, applicant):
    client.force_login(AdminUserFactory())
    for method, url, body in [
        ("GET", "/api/admin/vetting", None),
        ("POST", f"/api/admin/vetting/{applicant.pk}/adjudication", {"outcome": "engage", "reason": "x"}),
        ("POST", f"/api/admin/vetting/{applicant.pk}/adverse-steps", {"step": "pre_adverse_notice"}),
    ]:
        response = call(client, method, url, body)
        assert response.status_code == 403, url


def test_another_provider_sees_only_her_own_steps(client, applicant):
    other = VerifiedProviderFactory()
    IdentityCheck.objects.create(provider=applicant, status=IdentityStatus.PENDING, session_id="vs_mine")
    client.force_login(other.user)
    assert call(client, "GET", "/api/vetting/me").json() == {"identity": None, "backgroundCheck": None}
