"""The books balance to the cent: for a month of generated activity (visits paid by hand or charged
automatically to the organizer's saved card, and completed, some tipped, some tipped and then
refunded in full on Stripe's dashboard (the tip refunded with the visit when it had not reached the
helper yet, flagged for staff when it had), cancelled in time, cancelled late by staff with the fee
kept or waived, nobody home with the fee paid, disputed and waived, or disputed and upheld; some
helpers paid at once with an instant payout), what families paid = what helpers received + Kindly's
fees + refunds, and what helpers received = what reached their cards + Stripe's instant fees + what
stays in their balances. Both sides are counted twice: from what the fake Stripe was asked to move
(charges, transfers less reversals, refunds, payouts) and from Kindly's own records (Earning,
LateFee, Tip, InstantPayout, Refund), and the two must agree.
"""

from __future__ import annotations

import datetime as dt
import random
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import Booking, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.stripe import instant_available, signed_webhook, stripe_event
from payments import cards
from payments.instant import instant_fee
from payments.latefees import late_fees_due
from payments.models import (
    Earning,
    InstantPayout,
    LateFee,
    LateFeeState,
    PayoutState,
    Refund,
    Tip,
    TipState,
    VisitCharge,
    VisitChargeState,
)
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
    "refunded_with_tip",  # the helper's payouts are off at the tip: the tip goes back with the visit
    "refunded_after_tip_out",  # the tip already reached the helper: it stays hers, flagged for staff
]
REFUNDED_ON_STRIPE = ("refunded_with_tip", "refunded_after_tip_out")


def cents(value) -> int:
    return int(Decimal(value).quantize(CENT) * 100)


def refund_on_stripe(fake, api_as, booking) -> None:
    """Staff refund a visit in full on Stripe's dashboard: Stripe records the refund and sends
    charge.refunded (Kindly asked for nothing)."""
    intent = fake.intents[booking.payment_intent_id]
    fake.refunds[f"re_dashboard_{booking.pk}"] = {
        "id": f"re_dashboard_{booking.pk}",
        "object": "refund",
        "payment_intent": intent["id"],
        "amount": intent["amount"],
        "status": "succeeded",
    }
    event = stripe_event(
        "charge.refunded",
        {"id": f"ch_{booking.pk}", "object": "charge", "payment_intent": intent["id"], "refunded": True},
    )
    assert signed_webhook(api_as(None), event).json()["outcome"] == "refunded"


def test_a_month_of_activity_reconciles_to_the_cent(stripe_backend, client_user, admin_user, api_as):
    rng = random.Random(32)  # the same month every run
    now = timezone.now()
    today = timezone.localdate()
    saved = False
    refunded_on_stripe: dict[str, list[int]] = {name: [] for name in REFUNDED_ON_STRIPE}
    for day in range(30):
        outcome = OUTCOMES[day % len(OUTCOMES)]
        provider = VerifiedProviderFactory()
        if outcome != "refunded_with_tip":
            connect(stripe_backend, api_as, provider, **ACCOUNT_ON)
        hours = {"cancelled_in_time": 24 * (5 + day)}.get(outcome, 30)
        if outcome == "completed" or outcome in REFUNDED_ON_STRIPE:
            hours = -24 * (day + 1)
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
            if day % 2 == 0:  # a tip: a suggested percentage (rounded down) or an amount with odd cents
                body = (
                    {"percent": rng.choice([10, 15, 20])}
                    if day % 4 == 0
                    else {"amount": f"{rng.randint(100, 5000) / 100:.2f}"}
                )
                response = family.post(f"/api/bookings/{booking.pk}/tip", body, format="json")
                assert response.status_code == 200, response.content
                intent_id = Tip.objects.get(booking=booking).intent_id
                stripe_backend.succeed(intent_id)
                event = stripe_event("payment_intent.succeeded", {"id": intent_id, "object": "payment_intent"})
                assert signed_webhook(api_as(None), event).json()["outcome"] == "tip_paid"
            if day % 3 == 0:  # "Get paid now": the fee shown first, the amount shown confirmed
                quote = helper.get("/api/earnings/instant-payout").json()
                assert quote["eligible"], quote
                confirmed = helper.post("/api/earnings/instant-payout", {"amount": quote["available"]}, format="json")
                assert confirmed.status_code == 201, confirmed.content
        elif outcome in REFUNDED_ON_STRIPE:
            assert helper.post(f"/api/bookings/{booking.pk}/complete").status_code == 200
            body = {"amount": f"{rng.randint(100, 5000) / 100:.2f}"}
            assert family.post(f"/api/bookings/{booking.pk}/tip", body, format="json").status_code == 200
            intent_id = Tip.objects.get(booking=booking).intent_id
            stripe_backend.succeed(intent_id)
            event = stripe_event("payment_intent.succeeded", {"id": intent_id, "object": "payment_intent"})
            assert signed_webhook(api_as(None), event).json()["outcome"] == "tip_paid"
            refund_on_stripe(stripe_backend, api_as, booking)
            refunded_on_stripe[outcome].append(booking.pk)
            if outcome == "refunded_with_tip":  # her payouts turn on afterwards: nothing of this visit goes out
                connect(stripe_backend, api_as, provider, **ACCOUNT_ON)
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
    tips = Tip.objects.select_related("booking")
    # Every tip went out, all of it, except those refunded with their visit (the refund rule).
    assert {t.state for t in tips} == {TipState.ON_ITS_WAY, TipState.REFUNDED}
    tips_refunded = [t for t in tips if t.state == TipState.REFUNDED]
    assert all(t.refunded_at and t.refund_id for t in tips_refunded)
    assert {t.booking_id for t in tips_refunded} == set(refunded_on_stripe["refunded_with_tip"])
    flagged = [t for t in tips if t.refund_flagged_at is not None]
    assert {t.booking_id for t in flagged} == set(refunded_on_stripe["refunded_after_tip_out"])
    assert all(t.state == TipState.ON_ITS_WAY for t in flagged)  # kept by the helper, for staff to decide
    refunded_elsewhere = Booking.objects.filter(payment_status=PaymentStatus.REFUNDED, refund__isnull=True)
    refunds = (
        sum(
            cents(r.amount if r.amount is not None else r.booking.total_amount)
            for r in Refund.objects.select_related("booking")
        )
        + sum(cents(f.amount) for f in late_fees if f.state == LateFeeState.WAIVED and f.refund_id)
        + sum(cents(b.total_amount) for b in refunded_elsewhere)
        + sum(cents(t.amount) for t in tips_refunded)
    )
    tips_paid = sum(cents(t.amount) for t in tips)
    tips_out = sum(cents(t.amount) for t in tips if t.state == TipState.ON_ITS_WAY)
    paid_total = sum(cents(e.gross) for e in earnings) + tips_paid

    assert charged == paid_total
    assert transferred == shares + fees_paid + tips_out
    assert refunded == refunds
    assert charged == transferred + fees + refunded, (charged, transferred, fees, refunded)

    # The helpers' side: what Stripe paid out at once, less its fee (the one rule), reached their
    # cards; the rest stays in their balances for the free standard payout.
    payouts = list(InstantPayout.objects.all())
    instant_out = sum(p["amount"] for p in stripe_backend.payouts.values() if p["method"] == "instant")
    assert instant_out == sum(cents(p.amount) for p in payouts)
    assert all(p.fee == instant_fee(p.amount) for p in payouts)
    instant_fees = sum(cents(p.fee) for p in payouts)
    to_cards = sum(cents(p.received) for p in payouts)
    left = sum(instant_available(stripe_backend, a["id"]) for a in stripe_backend.accounts.values())
    assert transferred == to_cards + instant_fees + left, (transferred, to_cards, instant_fees, left)
    # Something of every kind moved (the month is not trivially balanced), saved-card charges too.
    assert VisitCharge.objects.filter(state=VisitChargeState.SUCCEEDED).count() == 10
    assert fees > 0 and fees_paid > 0 and refunded > 0 and shares > 0
    assert tips_out > 0 and tips_refunded and flagged and instant_fees > 0 and to_cards > 0 and left > 0
