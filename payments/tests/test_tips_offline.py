"""`make run`'s offline test gateway (and its SQLite database) does tips and "Get paid now" too:
the simulated card pays a tip at once, the simulated account's debit card takes instant payouts
of what Kindly sent to it."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus
from payments.models import ConnectedAccount, InstantPayout, Tip, TipState

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.sqlite]


def test_the_test_gateway_tips_and_pays_out_at_once(offline_backend, booking, api_as):
    booking.status, booking.payment_status = BookingStatus.COMPLETED, PaymentStatus.PAID
    booking.checked_out_at = timezone.now() - dt.timedelta(hours=1)
    booking.save()
    ConnectedAccount.objects.create(
        provider=booking.provider,
        gateway="test",
        account_id="acct_test_1",
        charges_enabled=True,
        payouts_enabled=True,
        details_submitted=True,
    )

    response = api_as(booking.client).post(f"/api/bookings/{booking.pk}/tip", {"percent": 20}, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["state"] == "on_its_way" and response.json()["clientSecret"] == ""
    tip = Tip.objects.get(booking=booking)
    assert (tip.amount, tip.state, tip.transfer_id[:8]) == (Decimal("9.10"), TipState.ON_ITS_WAY, "tr_test_")

    helper = api_as(booking.provider.user)
    quote = helper.get("/api/earnings/instant-payout").json()
    assert (quote["eligible"], quote["available"], quote["fee"], quote["receive"]) == (True, 9.1, 0.5, 8.6)
    assert helper.post("/api/earnings/instant-payout", {"amount": "9.10"}, format="json").status_code == 201
    payout = InstantPayout.objects.get()
    assert (payout.state, payout.payout_id[:8]) == ("paid", "po_test_")
    assert helper.get("/api/earnings/instant-payout").json()["eligible"] is False  # nothing left
