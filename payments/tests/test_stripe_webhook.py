"""POST /api/payments/stripe/webhook: signature on the raw body, each event once, any order."""

from __future__ import annotations

import json
import time

import pytest
from django.core.management import call_command

from bookings.models import BookingStatus, PaymentStatus, RefundStatus
from marketplace.testing.stripe import WEBHOOK_SECRET, signed_webhook, stripe_event
from messaging.models import Message
from payments.models import PaymentIntent, ProcessedEvent

URL = "/api/payments/stripe/webhook"
pytestmark = pytest.mark.django_db


@pytest.fixture
def started(stripe_backend, booking, api_as):
    """The client opened the payment page: the booking has a Stripe intent on the fake server."""
    response = api_as(booking.client).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")
    assert response.status_code == 200
    booking.refresh_from_db()
    return booking


def succeeded(booking, **kw):
    return stripe_event(
        "payment_intent.succeeded",
        {"id": booking.payment_intent_id, "object": "payment_intent", "amount": 4550, "status": "succeeded"},
        **kw,
    )


def failed(booking, message="Your card has insufficient funds.", **kw):
    return stripe_event(
        "payment_intent.payment_failed",
        {
            "id": booking.payment_intent_id,
            "object": "payment_intent",
            "status": "requires_payment_method",
            "last_payment_error": {"type": "card_error", "message": message},
        },
        **kw,
    )


def refunded(booking, *, full=True, **kw):
    return stripe_event(
        "charge.refunded",
        {
            "id": "ch_fake_1",
            "object": "charge",
            "payment_intent": booking.payment_intent_id,
            "amount": 4550,
            "amount_refunded": 4550 if full else 1000,
            "refunded": full,
        },
        **kw,
    )


def state(booking) -> tuple[str, str]:
    booking.refresh_from_db()
    return booking.status, booking.payment_status


def test_succeeded_marks_paid_and_confirmed_once_even_when_sent_three_times(started, api_as):
    anonymous = api_as(None)
    event = succeeded(started)
    before = Message.objects.filter(booking=started).count()

    responses = [signed_webhook(anonymous, event) for _ in range(3)]

    assert [r.status_code for r in responses] == [200, 200, 200]
    assert [r.json()["outcome"] for r in responses] == ["paid", "duplicate", "duplicate"]
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    assert ProcessedEvent.objects.filter(event_id=event["id"]).count() == 1
    # one system message to each party, not three
    new = Message.objects.filter(booking=started).order_by("id")[before:]
    assert sorted(m.receiver_id for m in new) == sorted([started.client_id, started.provider.user_id])
    assert all(m.sender_id is None for m in new)
    assert "is confirmed" in new[0].content


def test_the_same_change_sent_as_a_new_event_id_changes_nothing_more(started, api_as):
    signed_webhook(api_as(None), succeeded(started))
    messages = Message.objects.count()

    response = signed_webhook(api_as(None), succeeded(started))

    assert response.json()["outcome"] == "ignored"
    assert Message.objects.count() == messages


@pytest.mark.parametrize(
    "how",
    ["wrong secret", "stale timestamp", "tampered body", "no header", "garbage header", "hour-old timestamp"],
)
def test_bad_signatures_are_400_and_change_nothing(started, api_as, how):
    anonymous = api_as(None)
    event = succeeded(started)
    if how == "wrong secret":
        response = signed_webhook(anonymous, event, secret="whsec_someone_else")
    elif how == "stale timestamp":
        response = signed_webhook(anonymous, event, timestamp=int(time.time()) - 301)
    elif how == "tampered body":
        tampered = json.loads(json.dumps(event))
        tampered["data"]["object"]["id"] = started.payment_intent_id  # same intent, other event id
        tampered["id"] = "evt_forged"
        response = signed_webhook(anonymous, event, body=json.dumps(tampered))
    elif how == "no header":
        response = anonymous.generic("POST", URL, json.dumps(event), content_type="application/json")
    elif how == "garbage header":
        response = anonymous.generic(
            "POST", URL, json.dumps(event), content_type="application/json", HTTP_STRIPE_SIGNATURE="t=abc,v1=zz"
        )
    else:
        response = signed_webhook(anonymous, event, timestamp=int(time.time()) - 3600)

    assert response.status_code == 400
    assert response.json()["message"] == "Invalid signature."
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)
    assert not ProcessedEvent.objects.exists()


def test_signed_body_that_is_not_json_is_400(started, api_as):
    import stripe

    payload = "not json"
    header = stripe.WebhookSignature.generate_signature_header(payload, WEBHOOK_SECRET)
    response = api_as(None).generic("POST", URL, payload, content_type="application/json", HTTP_STRIPE_SIGNATURE=header)

    assert response.status_code == 400
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_get_is_405(stripe_backend, api_as):
    assert api_as(None).get(URL).status_code == 405


def test_webhook_does_not_exist_with_the_test_gateway(offline_backend, booking, api_as):
    response = signed_webhook(api_as(None), stripe_event("payment_intent.succeeded", {"id": "pi_x"}))

    assert response.status_code == 404


def test_unknown_intent_is_200_and_changes_nothing(started, api_as):
    event = stripe_event("payment_intent.succeeded", {"id": "pi_not_ours", "object": "payment_intent"})

    response = signed_webhook(api_as(None), event)

    assert response.status_code == 200
    assert response.json()["outcome"] == "unknown"
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


@pytest.mark.parametrize("event_type", ["customer.created", "payment_intent.created", "charge.succeeded"])
def test_unhandled_types_are_200_and_change_nothing(started, api_as, event_type):
    event = stripe_event(event_type, {"id": started.payment_intent_id, "payment_intent": started.payment_intent_id})

    response = signed_webhook(api_as(None), event)

    assert response.status_code == 200
    assert response.json()["outcome"] == "unhandled"
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)


def test_payment_failed_records_the_failure_and_the_client_may_retry(started, api_as):
    response = signed_webhook(api_as(None), failed(started))

    assert response.json()["outcome"] == "failed"
    assert state(started) == (BookingStatus.SCHEDULED, PaymentStatus.FAILED)
    assert PaymentIntent.objects.get(booking=started).last_error == "Your card has insufficient funds."
    note = Message.objects.filter(receiver=started.client, booking=started).latest("id")
    assert "did not go through: Your card has insufficient funds." in note.content

    signed_webhook(api_as(None), succeeded(started))

    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_a_late_failure_after_success_leaves_it_paid(started, api_as):
    signed_webhook(api_as(None), succeeded(started))

    response = signed_webhook(api_as(None), failed(started))

    assert response.json()["outcome"] == "ignored"
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_charge_refunded_marks_refunded(started, api_as):
    signed_webhook(api_as(None), succeeded(started))

    response = signed_webhook(api_as(None), refunded(started))

    assert response.json()["outcome"] == "refunded"
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.REFUNDED)
    assert started.refund_status == RefundStatus.SUCCEEDED  # made in Stripe's dashboard: recorded too
    assert Message.objects.filter(booking=started, content__contains="was refunded in full").count() == 2


def test_a_partial_refund_leaves_it_paid(started, api_as):
    signed_webhook(api_as(None), succeeded(started))

    response = signed_webhook(api_as(None), refunded(started, full=False))

    assert response.json()["outcome"] == "partial"
    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_out_of_order_refunded_then_late_succeeded_stays_refunded(started, api_as):
    anonymous = api_as(None)
    success, refund = succeeded(started), refunded(started)

    signed_webhook(anonymous, refund)
    late = signed_webhook(anonymous, success)

    assert late.status_code == 200
    assert late.json()["outcome"] == "ignored"
    assert state(started)[1] == PaymentStatus.REFUNDED


def test_out_of_order_failed_arriving_after_succeeded_keeps_paid(started, api_as):
    # Stripe may deliver the first attempt's failure after the second attempt's success.
    anonymous = api_as(None)
    first_failure = failed(started)
    success = succeeded(started)

    signed_webhook(anonymous, success)
    signed_webhook(anonymous, first_failure)

    assert state(started) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


@pytest.mark.parametrize(
    "order",
    [
        ("failed", "succeeded", "refunded"),
        ("succeeded", "failed", "refunded"),
        ("refunded", "failed", "succeeded"),
        ("succeeded", "refunded", "failed"),
        ("refunded", "succeeded", "failed"),
    ],
)
def test_any_delivery_order_ends_refunded(started, api_as, order):
    events = {"failed": failed(started), "succeeded": succeeded(started), "refunded": refunded(started)}

    for name in order:
        assert signed_webhook(api_as(None), events[name]).status_code == 200

    assert state(started)[1] == PaymentStatus.REFUNDED


def test_succeeded_for_a_booking_cancelled_meanwhile_is_refunded_after_commit(
    started, stripe_backend, api_as, django_capture_on_commit_callbacks
):
    started.status = BookingStatus.CANCELLED
    started.save()

    with django_capture_on_commit_callbacks(execute=True) as after_commit:
        response = signed_webhook(api_as(None), succeeded(started))
        assert stripe_backend.posts("/v1/refunds") == []  # not inside the event's transaction

    assert response.json()["outcome"] == "refunding"
    assert len(after_commit) >= 1
    assert state(started) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)
    assert started.refund_status == RefundStatus.SUCCEEDED
    [refund] = stripe_backend.posts("/v1/refunds")
    assert refund.params["payment_intent"] == started.payment_intent_id
    assert refund.idempotency_key == f"kindly-booking-{started.pk}-refund"


def test_when_that_refund_fails_the_event_stays_handled_and_the_refund_waits_for_an_admin(
    started, stripe_backend, api_as, django_capture_on_commit_callbacks
):
    started.status = BookingStatus.CANCELLED
    started.save()
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "nope"}}))
    event = succeeded(started)

    with django_capture_on_commit_callbacks(execute=True):
        first = signed_webhook(api_as(None), event)

    # The money arrived (recorded once, Stripe need not retry); its refund failed and is marked so.
    assert first.status_code == 200
    assert ProcessedEvent.objects.get(event_id=event["id"]).outcome == "refunding"
    assert state(started) == (BookingStatus.CANCELLED, PaymentStatus.PAID)
    assert started.refund_status == RefundStatus.FAILED

    with django_capture_on_commit_callbacks(execute=True):
        assert signed_webhook(api_as(None), event).json()["outcome"] == "duplicate"
        call_command("retry_refunds")

    assert state(started) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)
    assert started.refund_status == RefundStatus.SUCCEEDED
