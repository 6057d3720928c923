"""Staff vetting: the applicant's phone and experience reach admins only, a
rejected applicant can be approved later (audited, from -> to), and an admin lands on /admin."""

from __future__ import annotations

import pytest
from django.utils import timezone

from adminpanel.models import AuditAction, AuditLog
from marketplace.testing.api import call
from marketplace.testing.pages import island_props
from marketplace.testing.vetting import with_evidence
from messaging.models import Message
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory

pytestmark = pytest.mark.django_db

PHONE = "555-867-5309"
EXPERIENCE = "Twelve years as a home-care aide; first-aid certified; fluent in Spanish."


@pytest.fixture
def applicant(db):
    return ProviderFactory(
        phone=PHONE,
        experience=EXPERIENCE,
        verification_status=VerificationStatus.VERIFIED,  # so the public listing would show it
    )


def test_admin_list_carries_each_applicants_phone_and_experience(client, admin_user, applicant):
    pending = ProviderFactory(phone="555-000-1111", experience="Volunteer driver for the library.")
    client.force_login(admin_user)
    rows = {p["id"]: p for p in call(client, "GET", "/api/admin/providers").json()}
    assert (rows[applicant.pk]["phone"], rows[applicant.pk]["experience"]) == (PHONE, EXPERIENCE)
    assert (rows[pending.pk]["phone"], rows[pending.pk]["experience"]) == (
        "555-000-1111",
        "Volunteer driver for the library.",
    )


@pytest.mark.parametrize("who", ["client_user", "provider_user", None])
def test_nobody_else_reads_the_admin_list_of_applicants(client, request, who, applicant):
    if who:
        client.force_login(request.getfixturevalue(who))
    response = call(client, "GET", "/api/admin/providers")
    assert response.status_code in (401, 403)
    assert PHONE not in response.content.decode()


def test_the_public_listing_never_shows_a_phone_number(client, client_user, applicant):
    client.force_login(client_user)
    response = call(client, "GET", "/api/providers")
    assert response.status_code == 200
    listed = [p for p in response.json() if p["id"] == applicant.pk]
    assert listed and "phone" not in listed[0]
    assert PHONE not in response.content.decode()


def test_a_pending_applicants_experience_is_not_public(client, client_user):
    pending = ProviderFactory(experience=EXPERIENCE)
    client.force_login(client_user)
    response = call(client, "GET", "/api/providers")
    assert pending.pk not in [p["id"] for p in response.json()]
    assert EXPERIENCE not in response.content.decode()


def test_admin_approves_a_rejected_applicant_later_and_it_is_audited(client, admin_user):
    rejected = with_evidence(ProviderFactory(verification_status=VerificationStatus.REJECTED))
    client.force_login(admin_user)

    response = call(
        client,
        "PUT",
        f"/api/admin/providers/{rejected.pk}/status",
        {"status": "verified", "reason": "References checked again."},
    )

    assert response.status_code == 200
    assert response.json()["verificationStatus"] == "verified"
    rejected.refresh_from_db()
    assert rejected.verification_status == VerificationStatus.VERIFIED
    log = AuditLog.objects.get()
    assert (log.actor, log.action, log.target_id, log.reason) == (
        admin_user,
        AuditAction.PROVIDER_VERIFIED,
        str(rejected.pk),
        "References checked again.",
    )
    assert log.details == {"from": "rejected", "to": "verified", "userId": str(rejected.user_id)}
    assert Message.objects.filter(receiver=rejected.user, content__contains="was approved").count() == 1


def test_a_pending_approval_records_that_it_came_from_pending(client, admin_user):
    pending = ProviderFactory()
    client.force_login(admin_user)
    assert call(client, "PUT", f"/api/admin/providers/{pending.pk}/status", {"status": "rejected"}).status_code == 200
    assert AuditLog.objects.get().details["from"] == "pending"


def test_a_rejected_applicant_cannot_be_rejected_again(client, admin_user):
    rejected = ProviderFactory(verification_status=VerificationStatus.REJECTED)
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/providers/{rejected.pk}/status", {"status": "rejected"})
    assert response.status_code == 409
    assert "only be approved" in response.json()["message"]
    assert not AuditLog.objects.exists()
    assert not Message.objects.filter(receiver=rejected.user).exists()


def test_a_verified_provider_is_not_reviewed_again(client, admin_user):
    verified = VerifiedProviderFactory()
    client.force_login(admin_user)
    for status in ("verified", "rejected"):
        response = call(client, "PUT", f"/api/admin/providers/{verified.pk}/status", {"status": status})
        assert response.status_code == 409
    verified.refresh_from_db()
    assert verified.verification_status == VerificationStatus.VERIFIED
    assert not AuditLog.objects.exists()


@pytest.mark.parametrize("who", ["client_user", "provider_user"])
def test_only_admins_can_approve_a_rejected_applicant(client, request, who):
    rejected = ProviderFactory(verification_status=VerificationStatus.REJECTED)
    client.force_login(request.getfixturevalue(who))
    response = call(client, "PUT", f"/api/admin/providers/{rejected.pk}/status", {"status": "verified"})
    assert response.status_code == 403
    rejected.refresh_from_db()
    assert rejected.verification_status == VerificationStatus.REJECTED


@pytest.mark.parametrize("path", ["/", "/dashboard"])
def test_an_admin_lands_on_the_admin_dashboard(client, admin_user, path):
    client.force_login(admin_user)
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == "/admin"


@pytest.mark.parametrize("who", ["client_user", "provider_user"])
def test_everyone_else_keeps_their_dashboard_at_home(client, request, who):
    client.force_login(request.getfixturevalue(who))
    response = client.get("/")
    assert response.status_code == 200
    assert 'id="dashboard-root"' in response.content.decode()


def test_the_admin_page_knows_the_sites_today_for_the_summary(client, admin_user, settings):
    settings.TIME_ZONE = "Pacific/Kiritimati"  # UTC+14: the site's date, not the server's UTC date
    client.force_login(admin_user)
    html = client.get("/admin").content.decode()
    assert island_props(html, "admin-props")["today"] == timezone.localdate().isoformat()
