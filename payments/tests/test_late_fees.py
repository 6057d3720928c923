"""The cancellation policy's late fee (payments.latefees, bookings.lifecycle.late_fee_amount): staff
cancelling inside 48 hours keep one hour of the visit (capped) from the refund for the helper,
told before they confirm, or waive it with a reason; a helper who checked in and found nobody home
is paid the same fee, which the family may dispute to staff. Stripe is the fake at the HTTP
boundary; the refunds and transfers run on commit, as in production (transactional tests).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from types import SimpleNamespace

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from adminpanel.models import AuditAction, AuditLog
from bookings.lifecycle import late_fee_policy_amount
from bookings.models import BookingStatus, PaymentStatus, RefundStatus
from bookings.tests.factories import BookingFactory
from core import listcache
from marketplace.testing.stripe import pay_with_stripe, signed_webhook, stripe_event
from messaging.models import Message
from payments.latefees import late_fees_due
from payments.models import Earning, LateFee, LateFeeState, PayoutState, ProcessedEvent, Refund
from payments.tests.test_payouts import ACCOUNT_ON, connect
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db(transaction=True)


def booking_in(client_user, provider, *, hours: int, total: str = "90.00", duration: int = 180):
    """A booking whose visit starts `hours` from now (the Morning window of that day or so)."""
    start = timezone.now() + dt.timedelta(hours=hours)
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Garden and groceries",
        service_request__preferred_date=timezone.localdate(start),
        service_request__estimated_duration=duration,
        provider=provider,
        total_amount=Decimal(total),
    )
    return booking


def paid(fake, booking, api_as):
    pay_with_stripe(booking, api_as)
    fake.succeed(booking.payment_intent_id)
    booking.refresh_from_db()
    return booking


def read(api_as, user, booking) -> dict:
    response = api_as(user).get(f"/api/bookings/{booking.pk}")
    assert response.status_code == 200, response.content
    return response.json()


def staff_cancel(api_as, admin, booking, **body):
    return api_as(admin).put(
        f"/api/admin/bookings/{booking.pk}/cancel", {"reason": "The family asked by phone", **body}, format="json"
    )


# ---------------------------------------------------------------- the policy's amount


@pytest.mark.parametrize(
    ("total", "duration", "fee"),
    [
        ("90.00", 180, "30.00"),  # one hour of a 3-hour visit
        ("25.00", 60, "25.00"),  # an hour-long visit: all of it
        ("20.00", 30, "20.00"),  # shorter than an hour: all of it
        ("45.50", 90, "30.33"),  # 30.333... rounded down to the cent
        ("150.00", 120, "40.00"),  # one hour is $75: capped at LATE_FEE_CAP
    ],
)
def test_the_fee_is_one_hour_of_the_visit_capped_and_rounded_down(total, duration, fee):
    booking = SimpleNamespace(total_amount=Decimal(total), duration=duration)  # the two fields it reads
    assert late_fee_policy_amount(booking) == Decimal(fee)


# ---------------------------------------------------------------- staff cancel inside 48 hours


def test_staff_see_the_fee_then_cancel_and_the_helper_is_paid_it_by_its_own_transfer(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    account = connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)

    shown = read(api_as, admin_user, booking)
    assert (shown["lateFee"], shown["cancelRefund"]) == (30.0, 90.0)  # the dialog says both before confirming
    assert read(api_as, client_user, booking)["canCancel"] is False  # inside 48 hours: not self-service

    response = staff_cancel(api_as, admin_user, booking, lateFee="30.00")

    assert response.status_code == 200, response.content
    [refund] = stripe_backend.posts("/v1/refunds")
    assert refund.params["amount"] == "6000"  # the total less the fee
    assert refund.idempotency_key == f"kindly-booking-{booking.pk}-refund"
    assert Refund.objects.get(booking=booking).amount == Decimal("60.00")
    [transfer] = stripe_backend.posts("/v1/transfers")
    assert transfer.params["amount"] == "3000"
    assert transfer.params["destination"] == account.account_id
    assert transfer.idempotency_key == f"kindly-booking-{booking.pk}-late-fee-transfer"
    assert all(r.caller_in_transaction is False for r in (refund, transfer))
    fee = LateFee.objects.get(booking=booking)
    assert (fee.kind, fee.amount, fee.state) == ("late_cancel", Decimal("30.00"), LateFeeState.ON_ITS_WAY)
    assert Earning.objects.get(booking=booking).state == PayoutState.REVERSED  # the visit's own share is not paid
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status, booking.refund_status) == (
        BookingStatus.CANCELLED,
        PaymentStatus.REFUNDED,
        RefundStatus.SUCCEEDED,
    )
    told = Message.objects.filter(receiver=client_user, content__contains="late-cancellation fee of $30.00")
    assert told.count() == 1
    assert Message.objects.filter(receiver=verified_provider.user, content__contains="late fee of $30.00").exists()
    log = AuditLog.objects.get(action=AuditAction.BOOKING_CANCELLED, target_id=str(booking.pk))
    assert log.details["lateFee"] == "30.00" and log.details["lateFeeWaived"] is False

    # Transferring again (a retried task) moves nothing more: the same key, and the fee is on its way.
    from payments.latefees import late_fee_release

    assert late_fee_release(booking_id=booking.pk) == "ignored"
    assert len(stripe_backend.posts("/v1/transfers")) == 1


def test_a_fee_other_than_the_one_shown_is_a_409_and_nothing_changes(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)

    response = staff_cancel(api_as, admin_user, booking, lateFee="0.00")  # the dialog was opened 3 days ago

    assert response.status_code == 409
    assert "$30.00" in response.json()["message"]
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED
    assert not LateFee.objects.exists() and not stripe_backend.posts("/v1/refunds")


def test_staff_waive_the_fee_with_a_reason_and_the_family_gets_everything_back(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)

    no_reason = staff_cancel(api_as, admin_user, booking, waiveLateFee=True)
    assert no_reason.status_code == 400
    assert no_reason.json()["errors"] == {"waiveReason": ["Say why the late fee is waived."]}

    response = staff_cancel(api_as, admin_user, booking, waiveLateFee=True, waiveReason="A hospital stay")

    assert response.status_code == 200, response.content
    [refund] = stripe_backend.posts("/v1/refunds")
    assert "amount" not in refund.params  # all of it
    assert not stripe_backend.posts("/v1/transfers")
    fee = LateFee.objects.get(booking=booking)
    assert (fee.state, fee.waive_reason) == (LateFeeState.WAIVED, "A hospital stay")
    assert Refund.objects.get(booking=booking).amount is None
    assert not Message.objects.filter(receiver=client_user, content__contains="late-cancellation fee").exists()


def test_staff_cancel_48_hours_or_more_ahead_keeps_no_fee(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=24 * 5), api_as)
    assert read(api_as, admin_user, booking)["lateFee"] == 0.0

    assert staff_cancel(api_as, admin_user, booking, lateFee="0").status_code == 200

    assert not LateFee.objects.exists()
    [refund] = stripe_backend.posts("/v1/refunds")
    assert "amount" not in refund.params


def test_the_partial_refund_webhook_confirms_the_refund_once(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)
    stripe_backend.fail_next.append((200, {"id": "re_fake_slow", "object": "refund", "status": "pending"}))
    assert staff_cancel(api_as, admin_user, booking).status_code == 200
    booking.refresh_from_db()
    assert booking.refund_status == RefundStatus.PENDING

    other = stripe_event(
        "charge.refunded",
        {"id": "ch_1", "object": "charge", "payment_intent": booking.payment_intent_id, "amount_refunded": 100},
    )
    assert signed_webhook(api_as(None), other).json()["outcome"] == "partial"  # not the refund Kindly asked for
    event = stripe_event(
        "charge.refunded",
        {"id": "ch_1", "object": "charge", "payment_intent": booking.payment_intent_id, "amount_refunded": 6000},
    )
    assert signed_webhook(api_as(None), event).json()["outcome"] == "refunded"
    assert signed_webhook(api_as(None), event).json()["outcome"] == "duplicate"
    unsigned = api_as(None).post("/api/payments/stripe/webhook", event, format="json")
    assert unsigned.status_code == 400
    booking.refresh_from_db()
    assert (booking.payment_status, booking.refund_status) == (PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)
    assert ProcessedEvent.objects.filter(event_id=event["id"]).count() == 1


# ---------------------------------------------------------------- nobody home


def checked_in(fake, client_user, provider, api_as):
    booking = paid(fake, booking_in(client_user, provider, hours=0), api_as)
    booking.checked_in_at = timezone.now()
    booking.save(update_fields=["checked_in_at"])
    return booking


def test_a_helper_who_found_nobody_home_reports_it_and_the_fee_is_held_for_a_dispute(
    stripe_backend, client_user, verified_provider, api_as
):
    connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    booking = checked_in(stripe_backend, client_user, verified_provider, api_as)

    # What her browser sends when she shares where she is (VisitControls' currentPosition): the
    # accuracy too, which nobody-home does not keep (it was a 500 until the view left it out).
    where = {"latitude": 40.712776, "longitude": -74.005974, "accuracy": 12.5}
    response = api_as(verified_provider.user).post(f"/api/bookings/{booking.pk}/nobody-home", where, format="json")

    assert response.status_code == 200, response.content
    assert response.json()["status"] == "cancelled"
    fee = LateFee.objects.get(booking=booking)
    assert (fee.kind, fee.amount, fee.state) == ("nobody_home", Decimal("30.00"), LateFeeState.HELD)
    booking.refresh_from_db()
    assert (booking.check_out_latitude, booking.check_out_longitude) == (Decimal("40.713"), Decimal("-74.006"))
    assert booking.cancellation_reason.startswith("Nobody was home when the helper arrived (")
    assert not stripe_backend.posts("/v1/transfers")  # held for the family's dispute
    [refund] = stripe_backend.posts("/v1/refunds")
    assert refund.params["amount"] == "6000"
    told = Message.objects.filter(receiver=client_user, content__contains="found nobody home")
    assert told.filter(content__endswith="follow the link in our email, or contact support.").exists()
    seen = api_as(client_user).get(f"/api/bookings/{booking.pk}/late-fee").json()
    assert (seen["amount"], seen["state"], seen["canDispute"]) == (30.0, "held", True)

    # Nobody disputed in time: beat pays the helper.
    assert late_fees_due(now=timezone.now()) == []
    due = late_fees_due(now=fee.release_after + dt.timedelta(seconds=1))
    assert due == [booking.pk]
    from payments.tasks import release_late_fees

    release_late_fees.delay()  # eager in tests, like the beat run
    [transfer] = stripe_backend.posts("/v1/transfers")
    assert transfer.params["amount"] == "3000"
    fee.refresh_from_db()
    assert fee.state == LateFeeState.ON_ITS_WAY


def test_nobody_home_needs_a_check_in_and_is_the_helper_s_to_report(
    stripe_backend, client_user, verified_provider, api_as
):
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=0), api_as)
    url = f"/api/bookings/{booking.pk}/nobody-home"

    assert api_as(client_user).post(url).status_code == 403
    not_yet = api_as(verified_provider.user).post(url)
    assert not_yet.status_code == 409
    assert not_yet.json()["message"].startswith("Check in first")
    assert not LateFee.objects.exists()


def test_the_family_disputes_and_staff_waive_it_back_to_the_card(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    booking = checked_in(stripe_backend, client_user, verified_provider, api_as)
    assert api_as(verified_provider.user).post(f"/api/bookings/{booking.pk}/nobody-home").status_code == 200
    url = f"/api/bookings/{booking.pk}/late-fee/dispute"

    assert api_as(client_user).post(url, {"reason": ""}, format="json").status_code == 400
    disputed = api_as(client_user).post(url, {"reason": "Mum was home, the bell is broken"}, format="json")

    assert disputed.status_code == 200, disputed.content
    assert disputed.json()["state"] == "disputed"
    assert Message.objects.filter(receiver=admin_user, content__contains="disputes the nobody-home late fee").exists()
    assert api_as(client_user).post(url, {"reason": "again"}, format="json").status_code == 409
    assert late_fees_due(now=timezone.now() + dt.timedelta(days=30)) == []  # a disputed fee waits for staff

    decided = api_as(admin_user).post(
        f"/api/admin/bookings/{booking.pk}/late-fee", {"decision": "waive", "reason": "Doorbell broken"}, format="json"
    )

    assert decided.status_code == 200, decided.content
    assert decided.json()["state"] == "waived"
    refunds = stripe_backend.posts("/v1/refunds")
    assert [r.params.get("amount") for r in refunds] == ["6000", "3000"]
    assert refunds[1].idempotency_key == f"kindly-booking-{booking.pk}-late-fee-refund"
    assert not stripe_backend.posts("/v1/transfers")
    assert LateFee.objects.get(booking=booking).refund_id.startswith("re_fake_")
    assert Message.objects.filter(receiver=client_user, content__contains="it is waived").exists()
    assert AuditLog.objects.filter(action=AuditAction.LATE_FEE_DECIDED, target_id=str(booking.pk)).count() == 1
    again = api_as(admin_user).post(
        f"/api/admin/bookings/{booking.pk}/late-fee", {"decision": "pay", "reason": "changed my mind"}, format="json"
    )
    assert again.status_code == 409


def test_staff_uphold_a_disputed_fee_and_the_helper_is_paid(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    booking = checked_in(stripe_backend, client_user, verified_provider, api_as)
    assert api_as(verified_provider.user).post(f"/api/bookings/{booking.pk}/nobody-home").status_code == 200
    dispute = {"reason": "We were out"}
    disputed = api_as(client_user).post(f"/api/bookings/{booking.pk}/late-fee/dispute", dispute, format="json")
    assert disputed.status_code == 200

    decision = {"decision": "pay", "reason": "Check-in at the door"}
    decided = api_as(admin_user).post(f"/api/admin/bookings/{booking.pk}/late-fee", decision, format="json")

    assert decided.status_code == 200, decided.content
    [transfer] = stripe_backend.posts("/v1/transfers")
    assert transfer.params["amount"] == "3000"
    assert LateFee.objects.get(booking=booking).state == LateFeeState.ON_ITS_WAY


def test_the_helper_s_earnings_show_the_late_fee_as_its_own_line(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)
    assert staff_cancel(api_as, admin_user, booking, lateFee="30.00").status_code == 200
    helper = api_as(verified_provider.user)

    page = helper.get("/earnings").content.decode()
    data = helper.get("/api/earnings").json()
    csv_text = helper.get("/earnings.csv").content.decode()

    assert 'data-testid="late-fee-line"' in page and "Late fee: cancelled late" in page
    assert "the client got $60.00 back and the late fee of $30.00 is yours" in page
    assert "$30.00" in page
    [line] = data["lateFees"]
    assert (line["bookingId"], line["amount"], line["state"]) == (booking.pk, 30.0, "on_its_way")
    assert [e["earned"] for e in data["earnings"] if e["bookingId"] == booking.pk] == [0.0]  # the visit itself: nothing
    assert "Late fee: cancelled late (Garden and groceries),0.00" not in csv_text
    assert (
        f"{booking.pk},{booking.scheduled_date.isoformat()},Late fee: cancelled late (Garden and groceries)" in csv_text
    )
    assert csv_text.strip().endswith("30.00,0.00,30.00,0.00,On its way,30.00")


def test_a_fee_that_is_the_whole_price_reads_as_nothing_refunded_on_earnings(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    """An hour-long visit cancelled late: the fee is all of it, so the client got $0.00 back (a zero
    that the page once read as "no amount" and replaced with the whole price)."""
    connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    booking = paid(
        stripe_backend, booking_in(client_user, verified_provider, hours=30, total="30.00", duration=60), api_as
    )
    assert staff_cancel(api_as, admin_user, booking, lateFee="30.00").status_code == 200

    page = api_as(verified_provider.user).get("/earnings").content.decode()

    visit = page[page.index(f'data-booking-id="{booking.pk}"') :]
    visit = visit[: visit.index("</li>")]
    assert 'Refunded to the client</dt><dd data-testid="earning-gross">$0.00</dd>' in visit
    assert "the client got $0.00 back and the late fee of $30.00 is yours" in visit


def test_the_family_reads_and_disputes_the_fee_on_its_page(stripe_backend, client_user, verified_provider, api_as):
    booking = checked_in(stripe_backend, client_user, verified_provider, api_as)
    assert api_as(verified_provider.user).post(f"/api/bookings/{booking.pk}/nobody-home").status_code == 200
    family = api_as(client_user)
    url = f"/late-fees/{booking.pk}"

    page = family.get(url)
    assert page.status_code == 200
    assert "$30.00" in page.content.decode() and "Dispute the fee" in page.content.decode()
    empty = family.post(url, {"reason": "  "})
    assert empty.status_code == 400 and "Say what happened" in empty.content.decode()
    sent = family.post(url, {"reason": "The bell is broken"})
    assert sent.status_code == 302
    assert LateFee.objects.get(booking=booking).state == LateFeeState.DISPUTED
    after = family.get(url).content.decode()
    assert "Kindly support will decide" in after and "Dispute the fee" not in after
    assert api_as(verified_provider.user).get(url).status_code == 200  # the helper reads it too
    assert api_as(VerifiedProviderFactory().user).get(url).status_code == 404


# ---------------------------------------------------------------- the family's dashboard card


def card_fee(api_as, user, booking):
    response = api_as(user).get("/api/bookings")
    assert response.status_code == 200, response.content
    [row] = [b for b in response.json() if b["id"] == booking.pk]
    return row["lateFeeCharged"]


def test_the_family_card_says_the_fee_and_links_to_dispute_it_while_it_can(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    from accounts.tests.factories import UserFactory
    from circles.models import CircleMember, CircleRole

    verified_provider.user.first_name = "Vera"
    verified_provider.user.save(update_fields=["first_name"])
    booking = checked_in(stripe_backend, client_user, verified_provider, api_as)
    assert card_fee(api_as, client_user, booking) is None  # nothing before a fee
    assert api_as(verified_provider.user).post(f"/api/bookings/{booking.pk}/nobody-home").status_code == 200

    held = card_fee(api_as, client_user, booking)
    assert (held["amount"], held["state"], held["disputeUrl"]) == (30.0, "held", f"/late-fees/{booking.pk}")
    assert held["text"].startswith("Late fee (nobody home): $30.00, to be paid to Vera unless you dispute it by ")

    # Money news: a plain member of the circle and the helper read no fee on the booking.
    member = UserFactory()
    CircleMember.objects.create(recipient=booking.recipient, user=member, role=CircleRole.MEMBER)
    assert card_fee(api_as, member, booking) is None
    assert card_fee(api_as, verified_provider.user, booking) is None

    family = api_as(client_user)
    disputing = family.post(f"/api/bookings/{booking.pk}/late-fee/dispute", {"reason": "Home"}, format="json")
    assert disputing.status_code == 200
    disputed = card_fee(api_as, client_user, booking)
    assert (disputed["state"], disputed["disputeUrl"]) == ("disputed", None)
    assert (
        disputed["text"] == "Late fee (nobody home): $30.00. You disputed it; Kindly support will decide and tell you."
    )

    decision = {"decision": "pay", "reason": "The check-in was at the door"}
    decided = api_as(admin_user).post(f"/api/admin/bookings/{booking.pk}/late-fee", decision, format="json")
    assert decided.status_code == 200
    paid_fee = card_fee(api_as, client_user, booking)
    assert paid_fee["text"] == "Late fee (nobody home): $30.00, paid to Vera."
    assert paid_fee["disputeUrl"] is None


def test_a_staff_cancel_fee_reads_as_a_late_cancellation_fee_in_a_fixed_number_of_queries(
    stripe_backend, client_user, verified_provider, admin_user, api_as
):
    verified_provider.user.first_name = "Vera"
    verified_provider.user.save(update_fields=["first_name"])
    for _ in range(2):
        booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)
        assert staff_cancel(api_as, admin_user, booking, lateFee="30.00").status_code == 200
    family = api_as(client_user)
    counts = []
    for _ in range(2):
        listcache.forget()  # read from the database, not from the cache
        with CaptureQueriesContext(connection) as queries:
            rows = family.get("/api/bookings").json()
        counts.append(len(queries))
        assert {b["lateFeeCharged"]["text"] for b in rows} == {"Late cancellation fee: $30.00, paid to Vera."}
        booking = paid(stripe_backend, booking_in(client_user, verified_provider, hours=30), api_as)
        assert staff_cancel(api_as, admin_user, booking, lateFee="30.00").status_code == 200
    assert len(rows) == 3
    assert counts[0] == counts[1]  # 2 then 3 cancelled visits with a fee: the same queries
