"""Vetting in Chromium with the offline gateways (as `make run`): an applicant verifies her ID and
consents to the check from /provider-signup, staff (past the second step) see both results and
approve; a "consider" report is adjudicated; approval without evidence is refused in the server's
words. Tasks run on a real Celery worker."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.vetting import with_evidence
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory
from vetting.models import Adjudication
from vetting.selectors import NO_IDENTITY

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_an_applicant_verifies_and_consents_and_staff_approve(live_server, page: Page, admin_user, celery_worker):
    maria = ProviderFactory(user__first_name="Maria", user__last_name="Lopez")
    base = live_server.url
    sign_in_browser(page, base, maria.user)
    page.goto(f"{base}/provider-signup")
    checks = page.get_by_test_id("vetting-checks")
    expect(checks.get_by_test_id("vetting-verify-your-id-status")).to_have_text("Not started")

    checks.get_by_role("button", name="Start: verify your ID").click()
    checks.get_by_role("link", name="Continue: Verify your ID").click()  # ready once the worker made it
    expect(page.get_by_role("heading", name="Verify your ID")).to_be_visible()
    assert_no_axe_violations(page)
    page.get_by_role("button", name="Finish: my ID matches").click()
    page.wait_for_url(f"{base}/provider-signup")
    expect(checks.get_by_test_id("vetting-verify-your-id-status")).to_have_text("Done: your ID is verified")

    checks.get_by_role("button", name="Start: give consent").click()
    checks.get_by_role("link", name="Continue: Background check consent").click()
    page.get_by_role("button", name="I consent (report comes back clear)").click()
    page.wait_for_url(f"{base}/provider-signup")
    status = checks.get_by_test_id("vetting-background-check-consent-status")
    expect(status).to_have_text("Done: your check came back clear")
    assert_no_axe_violations(page, context="/provider-signup with both checks done")

    sign_in_browser(page, base, admin_user)
    page.goto(f"{base}/admin")
    page.get_by_role("tab", name="Vetting").click()
    row = page.get_by_test_id(f"vetting-{maria.pk}")
    expect(row).to_contain_text("verified name: Maria Lopez")
    expect(page.get_by_test_id(f"vetting-{maria.pk}-report")).to_have_text("clear")
    page.get_by_role("tab", name="Providers").click()
    page.get_by_role("button", name="Approve Maria Lopez").click()
    page.get_by_role("dialog", name="Approve Maria Lopez?").get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_test_id("toast")).to_contain_text("Provider status updated successfully")
    maria.refresh_from_db()
    assert maria.verification_status == VerificationStatus.VERIFIED
    assert maria.identity_verified_at is not None and maria.background_checked_at is not None


def test_staff_adjudicate_a_consider_report_and_approval_without_evidence_is_refused(
    live_server, page: Page, admin_user
):
    walter = with_evidence(ProviderFactory(user__first_name="Walter", user__last_name="Briggs"), report="consider")
    ProviderFactory(user__first_name="Nora", user__last_name="Nothing")
    base = live_server.url
    sign_in_browser(page, base, admin_user)
    page.goto(f"{base}/admin")

    page.get_by_role("button", name="Approve Nora Nothing").click()
    page.get_by_role("dialog", name="Approve Nora Nothing?").get_by_role("button", name="Approve", exact=True).click()
    expect(page.get_by_test_id("toast")).to_contain_text(str(NO_IDENTITY))
    page.get_by_role("dialog", name="Approve Nora Nothing?").get_by_role("button", name="Keep Reviewing").click()

    page.get_by_role("tab", name="Vetting").click()
    row = page.get_by_test_id(f"vetting-{walter.pk}")
    expect(page.get_by_test_id(f"vetting-{walter.pk}-report")).to_have_text("consider")
    row.get_by_label("Decision", exact=True).select_option("engage")
    row.get_by_label("Reason").fill("A 20-year-old traffic offence, unrelated to the work.")
    row.get_by_role("button", name="Record the decision").click()
    expect(row).to_contain_text("Decision: Engage")
    assert_no_axe_violations(page, context="/admin Vetting tab")
    assert Adjudication.objects.get().reason == "A 20-year-old traffic offence, unrelated to the work."
