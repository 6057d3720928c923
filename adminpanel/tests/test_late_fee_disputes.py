"""/admin's Disputes list (GET /api/admin/late-fee-disputes): the late fees families disputed and
staff have not decided, the longest waiting first, paged, in a fixed number of queries; deciding
one takes it off the list and a second decision is a 409 with the server's words."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from adminpanel.models import AuditAction, AuditLog
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from payments.latefees import NOT_DISPUTED
from payments.models import LateFee, LateFeeKind, LateFeeState

pytestmark = pytest.mark.django_db

URL = "/api/admin/late-fee-disputes"


@pytest.fixture
def api_as():
    def make(user) -> APIClient:
        client = APIClient()
        client.force_login(user)
        return client

    return make


def fee(
    client_user,
    provider,
    *,
    state=LateFeeState.DISPUTED,
    hours_ago=1,
    amount="30.00",
    reason="Mum was home",
    title="Garden and groceries",
):
    """A cancelled, paid visit of two days ago with a nobody-home late fee in `state`."""
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title=title,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=2),
        provider=provider,
        status=BookingStatus.CANCELLED,
        payment_status=PaymentStatus.PAID,
    )
    return LateFee.objects.create(
        booking=booking,
        kind=LateFeeKind.NOBODY_HOME,
        amount=Decimal(amount),
        currency="usd",
        gateway="test",
        state=state,
        release_after=timezone.now() + dt.timedelta(days=1),
        dispute_reason=reason if state == LateFeeState.DISPUTED else "",
        disputed_at=timezone.now() - dt.timedelta(hours=hours_ago) if state == LateFeeState.DISPUTED else None,
    )


def test_staff_see_only_undecided_disputes_the_longest_waiting_first(
    api_as, admin_user, client_user, verified_provider
):
    newer = fee(client_user, verified_provider, hours_ago=2)
    older = fee(client_user, verified_provider, hours_ago=30, amount="25.50", reason="The bell is broken")
    fee(client_user, verified_provider, state=LateFeeState.HELD)
    fee(client_user, verified_provider, state=LateFeeState.PENDING)

    response = api_as(admin_user).get(URL)

    assert response.status_code == 200, response.content
    assert response["X-Total-Count"] == "2"
    rows = response.json()
    assert [r["bookingId"] for r in rows] == [older.booking_id, newer.booking_id]
    first = rows[0]
    assert first["amount"] == 25.5
    assert first["disputeReason"] == "The bell is broken"
    assert first["helperName"] == verified_provider.user.full_name
    assert first["familyName"] == client_user.full_name
    assert first["title"] == "Garden and groceries"
    assert first["disputedAt"]
    assert "phone" not in str(first).lower()


def test_the_list_is_paged_in_a_fixed_number_of_queries(
    api_as, admin_user, client_user, verified_provider, django_assert_max_num_queries
):
    for hours in range(1, 6):
        fee(client_user, verified_provider, hours_ago=hours)
    staff = api_as(admin_user)
    staff.get(URL)  # the session's own queries, once

    with django_assert_max_num_queries(6):
        page = staff.get(f"{URL}?limit=2&offset=2")

    assert page.status_code == 200
    assert page["X-Total-Count"] == "5"
    assert len(page.json()) == 2


def test_a_decided_dispute_leaves_the_list_and_a_second_decision_is_a_409(
    api_as, admin_user, client_user, verified_provider
):
    disputed = fee(client_user, verified_provider)
    staff = api_as(admin_user)
    url = f"/api/admin/bookings/{disputed.booking_id}/late-fee"

    decided = staff.post(url, {"decision": "pay", "reason": "The check-in was at the door"}, format="json")
    again = staff.post(url, {"decision": "waive", "reason": "Second thoughts"}, format="json")

    assert decided.status_code == 200, decided.content
    assert again.status_code == 409
    assert again.json()["message"] == NOT_DISPUTED
    assert staff.get(URL).json() == []
    log = AuditLog.objects.get(action=AuditAction.LATE_FEE_DECIDED, target_id=str(disputed.booking_id))
    assert (log.actor, log.reason, log.details) == (
        admin_user,
        "The check-in was at the door",
        {"decision": "pay", "amount": "30.00"},
    )


def test_families_and_helpers_cannot_read_the_disputes(api_as, client_user, verified_provider):
    fee(client_user, verified_provider)
    assert api_as(client_user).get(URL).status_code == 403
    assert api_as(verified_provider.user).get(URL).status_code == 403
