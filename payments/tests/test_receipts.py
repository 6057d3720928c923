"""Receipts families can file (payments.receipts): a receipt per paid visit and a monthly statement
per person cared for, as PDF (opened with pypdf here) and CSV, with the amounts the payment records
hold (the gateway's charge, Kindly's fee, refunds, late fees), for the organizers; the payment
receipt email carries the visit's receipt."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.utils import timezone
from pypdf import PdfReader

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus, RefundStatus
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from notifications import channels
from notifications.models import Delivery
from payments.models import Earning, LateFee, LateFeeKind, LateFeeState, Refund
from payments.payouts import earning_split
from payments.services import payment_intent_create, payment_test_confirm
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db

MONTH = dt.date(2026, 10, 1)


def pdf_text(body: bytes) -> str:
    assert body.startswith(b"%PDF")
    return " ".join(" ".join(page.extract_text().split()) for page in PdfReader(io.BytesIO(body)).pages)


def _paid(booking, *, gross: str | None = None) -> Earning:
    """The split the gateway's success records (payments.payouts.earning_open), by hand."""
    amount = Decimal(gross) if gross is not None else booking.total_amount
    fee, net = earning_split(gross=amount)
    booking.payment_status = PaymentStatus.PAID
    booking.save(update_fields=["payment_status"])
    return Earning.objects.create(
        booking=booking, gross=amount, fee=fee, net=net, fee_percent=15, currency="usd", gateway="test"
    )


@pytest.fixture
def month(client_user):
    """October 2026 for Margaret: a visit made, one cancelled and refunded in full, one cancelled
    late (a $30.00 fee kept, $60.00 refunded), one not paid, one of November and another
    family's: only the first three are on the statement."""
    helper = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Lopez")

    def visit(day, *, total="90.00", recipient=None, **fields):
        extra = {"service_request__recipient": recipient} if recipient is not None else {}
        return BookingFactory(
            service_request__client=client_user,
            service_request__preferred_date=day,
            service_request__estimated_duration=180,
            provider=helper,
            total_amount=Decimal(total),
            **extra,
            **fields,
        )

    made = visit(dt.date(2026, 10, 3), total="45.50", status=BookingStatus.COMPLETED)
    _paid(made)
    margaret = made.recipient
    refunded = visit(dt.date(2026, 10, 10), recipient=margaret, status=BookingStatus.CANCELLED)
    _paid(refunded)
    Refund.objects.create(booking=refunded, gateway="test", idempotency_key="k1", refund_id="re_1")
    refunded.payment_status, refunded.refund_status = PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED
    refunded.save(update_fields=["payment_status", "refund_status"])
    late = visit(dt.date(2026, 10, 17), recipient=margaret, status=BookingStatus.CANCELLED)
    _paid(late)
    Refund.objects.create(booking=late, gateway="test", idempotency_key="k2", refund_id="re_2", amount=Decimal("60.00"))
    late.payment_status, late.refund_status = PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED
    late.save(update_fields=["payment_status", "refund_status"])
    LateFee.objects.create(
        booking=late,
        kind=LateFeeKind.LATE_CANCEL,
        amount=Decimal("30.00"),
        currency="usd",
        gateway="test",
        state=LateFeeState.ON_ITS_WAY,
        release_after=timezone.now(),
    )
    visit(dt.date(2026, 10, 24), recipient=margaret, status=BookingStatus.SCHEDULED)  # not paid
    _paid(visit(dt.date(2026, 11, 2), recipient=margaret, status=BookingStatus.CONFIRMED))
    # Another family's visit that month, with the same helper.
    other = BookingFactory(
        service_request__preferred_date=dt.date(2026, 10, 5), provider=helper, status=BookingStatus.COMPLETED
    )
    _paid(other)
    return {"recipient": margaret, "made": made, "refunded": refunded, "late": late, "helper": helper}


def _statement_csv(client, recipient, month="2026-10"):
    response = client.get(f"/api/recipients/{recipient.pk}/statement.csv?month={month}")
    assert response.status_code == 200, response.content
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_monthly_statement_csv_lists_the_months_paid_visits_with_fees_and_refunds(client, client_user, month):
    client.force_login(client_user)
    rows = _statement_csv(client, month["recipient"])

    *visits, total = rows
    assert [r["Visit date"] for r in visits] == ["2026-10-03", "2026-10-10", "2026-10-17"]
    made, refunded, late = visits
    assert made["Receipt number"] == f"K-{month['made'].pk:06d}"
    assert (made["Helper"], made["Person cared for"]) == ("Vera Lopez", month["recipient"].full_name)
    assert made["Hours"] == "3.00"
    assert (made["Paid"], made["Kindly fee (included)"], made["Refunded"], made["Net paid"]) == (
        "45.50",
        "6.82",
        "0.00",
        "45.50",
    )
    assert (refunded["Paid"], refunded["Refunded"], refunded["Net paid"]) == ("90.00", "90.00", "0.00")
    assert refunded["Status"] == "Cancelled: refunded"
    assert (late["Late cancellation fee"], late["Refunded"], late["Net paid"]) == ("30.00", "60.00", "30.00")
    assert [r["Tip"] for r in visits] == ["0.00", "0.00", "0.00"]
    assert total["Visit date"] == "Total"
    assert (total["Paid"], total["Late cancellation fee"], total["Refunded"], total["Net paid"]) == (
        "225.50",
        "30.00",
        "150.00",
        "75.50",
    )
    # Another month holds only its own; a month not read is a 400 in plain words.
    assert [r["Visit date"] for r in _statement_csv(client, month["recipient"], "2026-11")] == ["2026-11-02", "Total"]
    bad = client.get(f"/api/recipients/{month['recipient'].pk}/statement.csv?month=October")
    assert bad.status_code == 400
    assert bad.json()["errors"] == {"month": ["Choose a month as YYYY-MM, for example 2026-11."]}


def test_the_statement_pdf_reads_right(client, client_user, month):
    client.force_login(client_user)
    response = client.get(f"/api/recipients/{month['recipient'].pk}/statement.pdf?month=2026-10")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert "attachment" in response["Content-Disposition"]
    assert response["Cache-Control"] == "no-store"
    text = pdf_text(response.content)
    assert "Statement for October 2026" in text
    assert month["recipient"].full_name in text
    assert "Vera Lopez" in text
    for amount in ("$45.50", "$6.82", "$30.00", "$60.00", "$225.50", "$150.00", "$75.50"):
        assert amount in text
    assert "2026-11" not in text and "Nov 2, 2026" not in text


def test_an_empty_month_says_so(client, client_user, month):
    client.force_login(client_user)
    response = client.get(f"/api/recipients/{month['recipient'].pk}/statement.pdf?month=2001-01")
    assert "No visits were paid for January 2001." in pdf_text(response.content)


def test_the_receipt_shows_what_was_charged_not_the_bookings_price_now(client, client_user, month):
    """A booking's total changed after payment (an admin's correction) does not change its receipt."""
    made = month["made"]
    made.total_amount = Decimal("99.99")
    made.save(update_fields=["total_amount"])
    client.force_login(client_user)
    response = client.get(f"/api/bookings/{made.pk}/receipt.pdf")

    assert response.status_code == 200
    assert f'filename="kindly-receipt-K-{made.pk:06d}.pdf"' in response["Content-Disposition"]
    text = pdf_text(response.content)
    assert f"Receipt K-{made.pk:06d}" in text
    assert "$45.50" in text and "$99.99" not in text
    assert "Vera Lopez" in text and month["recipient"].full_name in text
    assert "Total paid $45.50" in text


def test_an_unpaid_visit_has_no_receipt_yet(client, client_user, booking):
    client.force_login(client_user)
    response = client.get(f"/api/bookings/{booking.pk}/receipt.pdf")
    assert response.status_code == 409
    assert response.json()["message"] == "This visit has not been paid, so it has no receipt yet."


def test_a_plain_member_and_the_helper_get_no_money_papers(client, month):
    """Members: 403 (no money news, as the notices); the helper is outside the circle: 404."""
    member = UserFactory()
    CircleMember.objects.create(recipient=month["recipient"], user=member, role=CircleRole.MEMBER)
    urls = [
        f"/api/bookings/{month['made'].pk}/receipt.pdf",
        f"/api/recipients/{month['recipient'].pk}/statement.pdf?month=2026-10",
        f"/api/recipients/{month['recipient'].pk}/statement.csv?month=2026-10",
    ]
    client.force_login(member)
    assert [client.get(url).status_code for url in urls] == [403, 403, 403]
    client.force_login(month["helper"].user)
    assert [client.get(url).status_code for url in urls] == [404, 404, 404]


def test_a_name_a_spreadsheet_would_run_is_written_as_text(client, client_user, month):
    helper = month["helper"].user
    helper.first_name, helper.last_name = "=HYPERLINK(1)", "X"
    helper.save(update_fields=["first_name", "last_name"])
    client.force_login(client_user)
    rows = _statement_csv(client, month["recipient"])
    assert rows[0]["Helper"] == "'=HYPERLINK(1) X"


def test_the_payment_receipt_email_carries_the_receipt_pdf(client_user, verified_provider):
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__title="Tablet",
        provider=verified_provider,
        total_amount=Decimal("30.00"),
    )
    member = UserFactory()
    CircleMember.objects.create(recipient=booking.recipient, user=member, role=CircleRole.MEMBER)
    payment_intent_create(actor=client_user, booking_id=booking.pk)
    payment_test_confirm(actor=client_user, booking_id=booking.pk, card_number="4242 4242 4242 4242")

    delivery = Delivery.objects.get(recipient=client_user, event__kind="payment_received", channel="email")
    email = channels.email_message(delivery)
    [(name, body, kind)] = email.attachments
    assert (name, kind) == (f"kindly-receipt-K-{booking.pk:06d}.pdf", "application/pdf")
    assert "$30.00" in pdf_text(body)
    assert "The receipt is attached as a PDF" in email.body
    # A plain member is never sent money news, so never a receipt.
    assert not Delivery.objects.filter(recipient=member, event__kind="payment_received").exists()


def test_the_receipt_email_goes_without_its_pdf_when_printing_fails(
    client_user, verified_provider, monkeypatch, caplog
):
    from payments import receipts

    booking = BookingFactory(service_request__client=client_user, provider=verified_provider)
    payment_intent_create(actor=client_user, booking_id=booking.pk)
    payment_test_confirm(actor=client_user, booking_id=booking.pk, card_number="4242 4242 4242 4242")

    def broken(line):
        raise OSError("no fonts")

    monkeypatch.setattr(receipts, "receipt_pdf", broken)
    delivery = Delivery.objects.get(recipient=client_user, event__kind="payment_received", channel="email")
    email = channels.email_message(delivery)
    assert email.attachments == []
    assert email.subject == "Your payment was received"
    assert "could not be printed for its email" in caplog.text


def test_a_refund_not_yet_confirmed_is_not_counted_and_the_receipt_says_it_is_coming(client, client_user):
    booking = BookingFactory(
        service_request__client=client_user, status=BookingStatus.CANCELLED, total_amount=Decimal("60.00")
    )
    _paid(booking)
    Refund.objects.create(booking=booking, gateway="test", idempotency_key="k3")
    booking.refund_status = RefundStatus.PENDING
    booking.save(update_fields=["refund_status"])
    client.force_login(client_user)

    text = pdf_text(client.get(f"/api/bookings/{booking.pk}/receipt.pdf").content)
    assert "Refunded to the card $0.00" in text
    assert "Total paid $60.00" in text
    assert "A refund for this visit is on its way to the card." in text


def test_a_paid_tip_is_its_own_column_and_part_of_what_the_family_paid(client, client_user, month):
    from payments.models import Tip, TipState

    def tip(state, amount):
        return Tip(booking=month["made"], payer=client_user, amount=Decimal(amount), currency="usd", state=state)

    client.force_login(client_user)
    unpaid = tip(TipState.AWAITING_PAYMENT, "9.00")
    unpaid.save()
    made, *_ = _statement_csv(client, month["recipient"])
    assert (made["Tip"], made["Net paid"]) == ("0.00", "45.50")  # a card not charged yet is no money paid

    Tip.objects.filter(pk=unpaid.pk).update(state=TipState.ON_ITS_WAY, amount=Decimal("6.83"))
    *visits, total = _statement_csv(client, month["recipient"])
    assert (visits[0]["Tip"], visits[0]["Net paid"]) == ("6.83", "52.33")
    assert (total["Tip"], total["Net paid"]) == ("6.83", "82.33")
