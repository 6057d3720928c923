"""The refund rule for tips (payments.tips): when a visit's payment is refunded in full, a tip not
yet transferred goes back to the family's card too (its own intent, key kindly-tip-<id>-refund),
and one that already reached the helper is flagged for staff, never taken back by itself. A
partial refund leaves the tip alone. Stripe is the fake at the HTTP boundary."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.stripe import signed_webhook, stripe_event
from payments import receipts
from payments.models import LateFee, LateFeeKind, LateFeeState, Tip, TipState
from payments.tests.test_payouts import ACCOUNT_ON, complete, connect, pay
from payments.tests.test_tips import intent_succeeded, tip
from payments.tips import tip_refund_send, visit_refunded_in_full

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def done_visit(stripe_backend, client_user, verified_provider, api_as):
    """A $45.50 visit yesterday, paid and completed; the helper's payouts are not on yet."""
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=1),
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )
    pay(stripe_backend, booking, api_as)
    complete(booking, api_as)
    return booking


def tipped(stripe_backend, booking, api_as, amount="10.00") -> Tip:
    assert tip(api_as, booking.client, booking, amount=amount).status_code == 200
    intent_succeeded(api_as, stripe_backend, Tip.objects.get(booking=booking).intent_id)
    return Tip.objects.get(booking=booking)


def refunded_on_stripe(stripe_backend, booking, api_as, *, event_id=None) -> str:
    """Staff refund the visit in full on Stripe's dashboard: Stripe sends charge.refunded."""
    event = stripe_event(
        "charge.refunded",
        {"id": f"ch_{booking.pk}", "object": "charge", "payment_intent": booking.payment_intent_id, "refunded": True},
        event_id=event_id,
    )
    return signed_webhook(api_as(None), event).json()["outcome"]


def tip_refunds(stripe_backend, booking) -> list:
    return [r for r in stripe_backend.posts("/v1/refunds") if r.idempotency_key == f"kindly-tip-{booking.pk}-refund"]


def test_a_tip_not_yet_transferred_is_refunded_with_the_visit_and_never_goes_out(stripe_backend, done_visit, api_as):
    record = tipped(stripe_backend, done_visit, api_as)
    assert record.state == TipState.PENDING  # waits for the helper's payouts

    assert refunded_on_stripe(stripe_backend, done_visit, api_as, event_id="evt_refund_1") == "refunded"

    [refund] = tip_refunds(stripe_backend, done_visit)
    assert refund.params["payment_intent"] == record.intent_id  # the tip's own charge, not the visit's
    assert refund.params["amount"] == "1000"
    assert refund.caller_in_transaction is False
    record.refresh_from_db()
    assert (record.state, record.refund_id.startswith("re_fake_"), record.refunded_at is not None) == (
        TipState.REFUNDED,
        True,
        True,
    )
    assert record.refund_flagged_at is None

    # The helper's payouts turn on later: neither the visit's share nor the tip goes out.
    connect(stripe_backend, api_as, done_visit.provider, **ACCOUNT_ON)
    assert stripe_backend.posts("/v1/transfers") == []
    assert api_as(done_visit.provider.user).get("/api/earnings").json()["tips"] == []

    # The same event again, or the rule run again: nothing more is refunded.
    assert refunded_on_stripe(stripe_backend, done_visit, api_as, event_id="evt_refund_1") == "duplicate"
    assert tip_refund_send(booking_id=done_visit.pk) == "ignored"
    assert len(tip_refunds(stripe_backend, done_visit)) == 1

    # The family's statement: the tip paid, and refunded with the visit.
    line = receipts.receipt_line(receipts.payment_records().get(pk=done_visit.pk))
    assert (line.paid, line.tip, line.refunded, line.net) == (
        Decimal("45.50"),
        Decimal("10.00"),
        Decimal("55.50"),
        Decimal("0.00"),
    )


def test_a_tip_that_already_reached_the_helper_is_flagged_for_staff_not_taken_back(stripe_backend, done_visit, api_as):
    connect(stripe_backend, api_as, done_visit.provider, **ACCOUNT_ON)
    record = tipped(stripe_backend, done_visit, api_as)
    assert record.state == TipState.ON_ITS_WAY

    assert refunded_on_stripe(stripe_backend, done_visit, api_as) == "refunded"

    assert tip_refunds(stripe_backend, done_visit) == []
    record.refresh_from_db()
    assert record.state == TipState.ON_ITS_WAY and record.refund_flagged_at is not None
    flagged_at = record.refund_flagged_at
    # The visit's own share is taken back (payments.payouts); the tip stays the helper's.
    reversals = [r for r in stripe_backend.requests if r.method == "POST" and r.path.endswith("/reversals")]
    assert len(reversals) == 1 and record.transfer_id not in reversals[0].path
    assert tip_refund_send(booking_id=done_visit.pk) == "flagged"
    record.refresh_from_db()
    assert record.refund_flagged_at == flagged_at  # flagged once


def test_a_gateway_error_is_tried_again_with_the_same_key(stripe_backend, done_visit, api_as):
    tipped(stripe_backend, done_visit, api_as)
    done_visit.payment_status = PaymentStatus.REFUNDED
    done_visit.save(update_fields=["payment_status"])
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "Try again later"}}))

    assert tip_refund_send(booking_id=done_visit.pk, last_try=False) == "retry"
    record = Tip.objects.get(booking=done_visit)
    assert record.state == TipState.REFUNDED and record.refunded_at is None  # no transfer may start now
    assert tip_refund_send(booking_id=done_visit.pk) == "refunded"

    keys = [r.idempotency_key for r in stripe_backend.posts("/v1/refunds")]
    assert keys[-2:] == [f"kindly-tip-{done_visit.pk}-refund"] * 2


def test_a_partial_refund_keeps_the_tip_and_a_late_fee_waived_after_a_dispute_completes_the_refund(
    stripe_backend, done_visit, api_as
):
    """The rule's test of "in full": the visit's payment back less a late fee kept is not a full
    refund; once the fee is waived after a dispute and refunded, it is. (A cancelled visit cannot be
    tipped through the API; the tip is set down here to check the rule alone.)"""
    record = tipped(stripe_backend, done_visit, api_as)
    done_visit.status = BookingStatus.CANCELLED
    done_visit.payment_status = PaymentStatus.REFUNDED
    done_visit.save(update_fields=["status", "payment_status"])
    fee = LateFee.objects.create(
        booking=done_visit,
        kind=LateFeeKind.NOBODY_HOME,
        amount=Decimal("30.00"),
        currency="usd",
        gateway="stripe",
        state=LateFeeState.DISPUTED,
        release_after=timezone.now(),
        disputed_at=timezone.now(),
    )

    assert visit_refunded_in_full(done_visit) is False
    assert tip_refund_send(booking_id=done_visit.pk) == "ignored"
    assert tip_refunds(stripe_backend, done_visit) == []

    LateFee.objects.filter(pk=fee.pk).update(state=LateFeeState.WAIVED)
    assert visit_refunded_in_full(done_visit) is False  # waived, its own refund not made yet
    from payments.latefees import late_fee_refund_send

    assert late_fee_refund_send(booking_id=done_visit.pk) == "refunded"

    assert visit_refunded_in_full(done_visit) is True
    [refund] = tip_refunds(stripe_backend, done_visit)
    assert refund.params["payment_intent"] == record.intent_id
    assert Tip.objects.get(pk=record.pk).state == TipState.REFUNDED
