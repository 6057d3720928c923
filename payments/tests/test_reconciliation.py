"""The books balance to the cent: for a month of generated activity (visits paid by hand or charged
automatically to the organizer's saved card, and completed,
cancelled in time, cancelled late by staff with the fee kept or waived, nobody home with the fee
paid, disputed and waived, or disputed and upheld), what families paid = what helpers received +
Kindly's fees + refunds. Both sides are counted twice: from what the fake Stripe was asked to move
(charges, transfers less reversals, refunds) and from Kindly's own records (Earning, LateFee,
Refund), and the two must agree.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.tests.factories import BookingFactory
from marketplace.testing.stripe import signed_webhook, stripe_event
from payments import cards
from payments.latefees import late_fees_due
from payments.models import Earning, LateFee, LateFeeState, PayoutState, Refund, VisitCharge, VisitChargeState
from payments.tasks import release_late_fees
from payments.tests.test_late_fees import paid
from payments.tests.test_payouts import ACCOUNT_ON, connect
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db(transaction=True)

CENT = Decimal("0.01")
OUTCOMES = [
    "completed",
    "completed",
    "completed",
    "cancelled_in_time",
    "late_cancel",
    "late_cancel_waived",
    "nobody_home",
    "nobody_home_disputed_waived",
    "nobody_home_disputed_upheld",
]


def cents(value) -> int:
    return int(Decimal(value).quantize(CENT) * 100)


def test_a_month_of_activity_reconciles_to_the_cent(stripe_backend, client_user, admin_user, api_as):
    rng = random.Random(32)  # the same month every run
    now = timezone.now()
    today = timezone.localdate()
    saved = False
    for day in range(30):
        outcome = OUTCOMES[day % len(OUTCOMES)]
        provider = VerifiedProviderFactory()
        connect(stripe_backend, api_as, provider, **ACCOUNT_ON)
        hours = {"completed": -24 * (day + 1), "cancelled_in_time": 24 * (5 + day)}.get(outcome, 30)
        if outcome.startswith("nobody_home"):
            hours = 0
        start = now + dt.timedelta(hours=hours)
        booking = BookingFactory(
            service_request__client=client_user,
            service_request__preferred_date=timezone.localdate(start) if hours else today,
            service_request__estimated_duration=rng.choice([30, 60, 90, 120, 150, 180, 240]),
            provider=provider,
            total_amount=Decimal(rng.randint(1500, 24999)) / 100,  # $15.00 to $249.99, odd cents
        )
        if day % 3 == 1:  # every third visit is charged to her saved card, off-session
            if not saved:
                setup = api_as(client_user).post("/api/payment-method/setup").json()["setupIntentId"]
                stripe_backend.setup_succeed(setup)
                body = {"setupIntentId": setup}
                assert (
                    api_as(client_user).post("/api/payment-method/setup/finish", body, format="json").status_code == 200
                )
                saved = True
            cards.booking_auto_charge(actor=client_user, booking_id=booking.pk)
            booking.refresh_from_db()
            event = stripe_event("payment_intent.succeeded", {"id": booking.payment_intent_id})
            assert signed_webhook(api_as(None), event).json()["outcome"] == "paid"
            booking.refresh_from_db()
        else:
            paid(stripe_backend, booking, api_as)
        helper, family, staff = api_as(provider.user), api_as(client_user), api_as(admin_user)
        if outcome == "completed":
            assert helper.post(f"/api/bookings/{booking.pk}/complete").status_code == 200
        elif outcome == "cancelled_in_time":
            assert family.post(f"/api/bookings/{booking.pk}/cancel", {}, format="json").status_code == 200
        elif outcome.startswith("late_cancel"):
            body = {"reason": "The family asked"}
            if outcome.endswith("waived"):
                body |= {"waiveLateFee": True, "waiveReason": "A hospital stay"}
            assert staff.put(f"/api/admin/bookings/{booking.pk}/cancel", body, format="json").status_code == 200
        else:
            booking.checked_in_at = now
            booking.save(update_fields=["checked_in_at"])
            assert helper.post(f"/api/bookings/{booking.pk}/nobody-home", {}, format="json").status_code == 200
            if "disputed" in outcome:
                dispute = {"reason": "Someone was home"}
                url = f"/api/bookings/{booking.pk}/late-fee/dispute"
                assert family.post(url, dispute, format="json").status_code == 200
                decision = {"decision": "waive" if outcome.endswith("waived") else "pay", "reason": "Looked into it"}
                url = f"/api/admin/bookings/{booking.pk}/late-fee"
                assert staff.post(url, decision, format="json").status_code == 200
    # The time for disputes is over: beat pays the held nobody-home fees.
    assert late_fees_due(now=now + dt.timedelta(days=4))
    release_late_fees.delay()

    # What Stripe was asked to move.
    charged = sum(i["amount"] for i in stripe_backend.intents.values() if i["status"] == "succeeded")
    transferred = sum(t["amount"] - t["amount_reversed"] for t in stripe_backend.transfers.values())
    refunded = sum(r["amount"] for r in stripe_backend.refunds.values())

    # What Kindly's records say.
    earnings = Earning.objects.all()
    kept = [e for e in earnings if e.state != PayoutState.REVERSED]
    assert all(e.state == PayoutState.ON_ITS_WAY for e in kept)  # every completed visit's share went out
    fees = sum(cents(e.fee) for e in kept)
    shares = sum(cents(e.net) for e in kept)
    late_fees = LateFee.objects.select_related("booking")
    fees_paid = sum(cents(f.amount) for f in late_fees if f.state == LateFeeState.ON_ITS_WAY)
    assert not late_fees.filter(state__in=[LateFeeState.HELD, LateFeeState.PENDING, LateFeeState.DISPUTED])
    refunds = sum(
        cents(r.amount if r.amount is not None else r.booking.total_amount)
        for r in Refund.objects.select_related("booking")
    ) + sum(cents(f.amount) for f in late_fees if f.state == LateFeeState.WAIVED and f.refund_id)
    paid_total = sum(cents(e.gross) for e in earnings)

    assert charged == paid_total
    assert transferred == shares + fees_paid
    assert refunded == refunds
    assert charged == transferred + fees + refunded, (charged, transferred, fees, refunded)
    # Something of every kind moved (the month is not trivially balanced), saved-card charges too.
    assert VisitCharge.objects.filter(state=VisitChargeState.SUCCEEDED).count() == 10
    assert fees > 0 and fees_paid > 0 and refunded > 0 and shares > 0
