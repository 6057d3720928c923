"""Admin actions: approve/reject pending providers, reassign/cancel confirmed bookings, and their audit log."""

from __future__ import annotations

import pytest

from adminpanel.models import AuditAction, AuditLog
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.api import call
from marketplace.testing.vetting import with_evidence
from messaging.models import Message
from providers.models import VerificationStatus
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.models import RequestStatus


@pytest.fixture
def confirmed(db):
    return BookingFactory(status=BookingStatus.CONFIRMED, payment_status=PaymentStatus.PAID)


@pytest.mark.parametrize("status", ["verified", "rejected"])
def test_admin_approves_or_rejects_a_pending_provider_and_it_is_audited(client, admin_user, provider_user, status):
    provider = with_evidence(provider_user.provider)
    client.force_login(admin_user)

    response = call(client, "PUT", f"/api/admin/providers/{provider.pk}/status", {"status": status})

    assert response.status_code == 200
    assert response.json()["verificationStatus"] == status
    provider.refresh_from_db()
    assert provider.verification_status == status
    log = AuditLog.objects.get()
    assert (log.actor, log.action, log.target_type, log.target_id) == (
        admin_user,
        f"provider.{status}",
        "providers.provider",
        str(provider.pk),
    )
    expected = "was approved" if status == "verified" else "was not approved"
    assert Message.objects.filter(receiver=provider_user, content__contains=expected).count() == 1


def test_only_pending_providers_can_be_reviewed(client, admin_user, verified_provider):
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/providers/{verified_provider.pk}/status", {"status": "rejected"})
    assert response.status_code == 409
    verified_provider.refresh_from_db()
    assert verified_provider.verification_status == VerificationStatus.VERIFIED
    assert not AuditLog.objects.exists()


@pytest.mark.parametrize("body", [{"status": "pending"}, {"status": "approved"}, {}, {"status": 1}])
def test_status_must_be_verified_or_rejected(client, admin_user, provider_user, body):
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/providers/{provider_user.provider.pk}/status", body)
    assert response.status_code == 400
    assert "status" in response.json()["errors"]


def test_admin_reassigns_a_confirmed_booking_to_a_verified_provider(client, admin_user, confirmed):
    old = confirmed.provider
    new = VerifiedProviderFactory()
    client.force_login(admin_user)

    response = call(
        client,
        "PUT",
        f"/api/admin/bookings/{confirmed.pk}/reassign",
        {"newProviderId": new.pk, "reason": "Schedule conflict"},
    )

    assert response.status_code == 200
    assert response.json()["provider"]["id"] == new.pk
    confirmed.refresh_from_db()
    assert confirmed.provider == new
    assert confirmed.status == BookingStatus.CONFIRMED
    log = AuditLog.objects.get()
    assert (log.action, log.reason, log.details) == (
        AuditAction.BOOKING_REASSIGNED,
        "Schedule conflict",
        {"fromProviderId": old.pk, "toProviderId": new.pk},
    )
    for person in (confirmed.client, old.user, new.user):
        assert Message.objects.filter(receiver=person, booking=confirmed).exists()


@pytest.mark.parametrize("target", ["pending", "same", "missing"])
def test_reassign_needs_another_verified_provider(client, admin_user, confirmed, target):
    new_id = {
        "pending": lambda: ProviderFactory().pk,
        "same": lambda: confirmed.provider_id,
        "missing": lambda: 987654,
    }[target]()
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/bookings/{confirmed.pk}/reassign", {"newProviderId": new_id})
    assert response.status_code == 400
    assert "newProviderId" in response.json()["errors"]
    assert not AuditLog.objects.exists()


@pytest.mark.parametrize("status", [BookingStatus.SCHEDULED, BookingStatus.COMPLETED, BookingStatus.CANCELLED])
def test_admin_can_only_reassign_or_cancel_confirmed_bookings(client, admin_user, status):
    booking = BookingFactory(status=status)
    client.force_login(admin_user)
    new = VerifiedProviderFactory()
    reassign = call(client, "PUT", f"/api/admin/bookings/{booking.pk}/reassign", {"newProviderId": new.pk})
    cancel = call(client, "PUT", f"/api/admin/bookings/{booking.pk}/cancel", {"reason": "Duplicate"})
    assert (reassign.status_code, cancel.status_code) == (409, 409)
    booking.refresh_from_db()
    assert booking.status == status


def test_admin_cancels_a_confirmed_booking_with_a_reason(client, admin_user, confirmed):
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/bookings/{confirmed.pk}/cancel", {"reason": "Provider unwell"})
    assert response.status_code == 200
    confirmed.refresh_from_db()
    assert (confirmed.status, confirmed.cancelled_by, confirmed.cancellation_reason) == (
        BookingStatus.CANCELLED,
        admin_user,
        "Provider unwell",
    )
    assert confirmed.service_request.status == RequestStatus.CANCELLED
    assert AuditLog.objects.get().action == AuditAction.BOOKING_CANCELLED
    assert Message.objects.filter(receiver=confirmed.client, content__contains="Provider unwell").exists()


@pytest.mark.parametrize("body", [{"reason": ""}, {"reason": "   "}, {}, {"reason": None}])
def test_admin_cancel_requires_a_reason(client, admin_user, confirmed, body):
    client.force_login(admin_user)
    response = call(client, "PUT", f"/api/admin/bookings/{confirmed.pk}/cancel", body)
    assert response.status_code == 400
    assert "reason" in response.json()["errors"]
    confirmed.refresh_from_db()
    assert confirmed.status == BookingStatus.CONFIRMED


def test_admin_lists_carry_the_fields_the_admin_page_reads(client, admin_user, confirmed, provider_user):
    client.force_login(admin_user)
    providers = call(client, "GET", "/api/admin/providers").json()
    pending = next(p for p in providers if p["id"] == provider_user.provider.pk)
    assert {"firstName", "lastName", "email"} <= set(pending["user"])
    assert {"specialties", "serviceArea", "hourlyRate", "bio", "verificationStatus"} <= set(pending)
    assert [p["id"] for p in call(client, "GET", "/api/admin/providers?status=pending").json()] == [pending["id"]]
    booking = call(client, "GET", "/api/admin/bookings").json()[0]
    assert {"id", "client", "provider", "scheduledDate", "scheduledTime", "status"} <= set(booking)
    assert booking["client"]["email"] == confirmed.client.email
    request = call(client, "GET", "/api/admin/service-requests").json()[0]
    assert {"id", "client", "serviceCategory", "description", "createdAt", "status"} <= set(request)


def test_audit_log_is_read_only_in_the_django_admin(client, admin_user, provider_user):
    with_evidence(provider_user.provider)
    client.force_login(admin_user)
    call(client, "PUT", f"/api/admin/providers/{provider_user.provider.pk}/status", {"status": "verified"})
    log = AuditLog.objects.get()

    listing = client.get("/django-admin/adminpanel/auditlog/")
    detail = client.get(f"/django-admin/adminpanel/auditlog/{log.pk}/change/")
    add = client.get("/django-admin/adminpanel/auditlog/add/")
    delete = client.post(f"/django-admin/adminpanel/auditlog/{log.pk}/delete/", {"post": "yes"})

    assert listing.status_code == 200
    assert "provider.verified" in listing.content.decode() or "Provider approved" in listing.content.decode()
    assert detail.status_code == 200
    assert b'name="_save"' not in detail.content
    assert add.status_code == 403
    assert delete.status_code == 403
    assert AuditLog.objects.filter(pk=log.pk).exists()
