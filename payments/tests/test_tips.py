"""Tips (payments.tips): an organizer thanks the helper within 72 hours of the check-out; the tip is
charged as its own PaymentIntent and transferred, all of it, to the helper by a transfer of its
own. Stripe is the fake at the HTTP boundary; transfers run on commit (transactional tests)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from marketplace.testing.stripe import signed_webhook, stripe_event
from messaging.models import Message
from payments.models import ProcessedEvent, Tip, TipState
from payments.tests.test_payouts import ACCOUNT_ON, complete, connect, pay

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def past_booking(client_user, verified_provider):
    """A $45.50 visit yesterday morning, payment pending (as payments.tests.test_payouts')."""
    return BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=1),
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )


@pytest.fixture
def visited(stripe_backend, past_booking, api_as):
    """past_booking ($45.50) paid and completed (checked out now); the helper's payouts on."""
    connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    return past_booking


def tip(api_as, user, booking, **body):
    return api_as(user).post(f"/api/bookings/{booking.pk}/tip", body, format="json")


def intent_succeeded(api_as, fake, intent_id, *, event_id=None):
    fake.succeed(intent_id)
    event = stripe_event("payment_intent.succeeded", {"id": intent_id, "object": "payment_intent"}, event_id=event_id)
    return signed_webhook(api_as(None), event)


def test_the_offer_suggests_10_15_and_20_percent_rounded_down_until_72_hours_after_the_check_out(visited, api_as):
    response = api_as(visited.client).get(f"/api/bookings/{visited.pk}/tip")

    assert response.status_code == 200, response.content
    body = response.json()
    assert body["canAdd"] is True
    assert body["suggestions"] == [
        {"percent": 10, "amount": 4.55},
        {"percent": 15, "amount": 6.82},  # 6.825, rounded down
        {"percent": 20, "amount": 9.10},
    ]
    assert (body["min"], body["max"], body["tip"], body["helperName"]) == (1.0, 200.0, None, "Vera")
    until = dt.datetime.fromisoformat(body["until"])
    assert until == visited.checked_out_at + dt.timedelta(hours=72)


def test_a_tip_is_its_own_intent_and_goes_to_the_helper_in_full_by_its_own_transfer(stripe_backend, visited, api_as):
    transfers_before = len(stripe_backend.posts("/v1/transfers"))  # the visit's own share

    response = tip(api_as, visited.client, visited, percent=15)

    assert response.status_code == 200, response.content
    assert response.json()["state"] == "awaiting_payment" and response.json()["clientSecret"]
    [intent_call] = [r for r in stripe_backend.posts("/v1/payment_intents") if r.params.get("metadata[kind]") == "tip"]
    assert intent_call.params["amount"] == "682"
    assert intent_call.idempotency_key == f"kindly-tip-{visited.pk}-intent-682usd"
    record = Tip.objects.get(booking=visited)
    assert record.intent_id != visited.payment_intent_id
    assert len(stripe_backend.posts("/v1/transfers")) == transfers_before  # nothing moves before the card is charged

    charge = stripe_backend.succeed(record.intent_id)
    first = intent_succeeded(api_as, stripe_backend, record.intent_id, event_id="evt_tip_1")

    assert first.json()["outcome"] == "tip_paid"
    transfer = stripe_backend.posts("/v1/transfers")[-1]
    assert transfer.params["amount"] == "682"  # all of it: no platform fee
    assert transfer.params["source_transaction"] == charge
    assert transfer.params["metadata[kind]"] == "tip"
    assert transfer.idempotency_key == f"kindly-tip-{visited.pk}-transfer"
    record.refresh_from_db()
    assert record.state == TipState.ON_ITS_WAY and record.transfer_id
    notice = Message.objects.get(receiver=visited.provider.user, content__contains="tip")
    assert notice.content == "Clara added a $6.82 tip. Thank you for your visit."
    # The booking itself is untouched: still paid, its own earning unchanged.
    visited.refresh_from_db()
    assert (visited.status, visited.payment_status) == (BookingStatus.COMPLETED, "paid")

    replay = intent_succeeded(api_as, stripe_backend, record.intent_id, event_id="evt_tip_1")

    assert replay.json()["outcome"] == "duplicate"
    assert len([t for t in stripe_backend.posts("/v1/transfers") if t.params.get("metadata[kind]") == "tip"]) == 1
    assert Message.objects.filter(receiver=visited.provider.user, content__contains="tip").count() == 1
    # A second delivery under another event id changes nothing either.
    again = intent_succeeded(api_as, stripe_backend, record.intent_id, event_id="evt_tip_2")
    assert again.json()["outcome"] == "duplicate"
    assert ProcessedEvent.objects.filter(event_id__in=["evt_tip_1", "evt_tip_2"]).count() == 2


def test_an_unsigned_tip_event_changes_nothing(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    record = Tip.objects.get(booking=visited)
    event = stripe_event("payment_intent.succeeded", {"id": record.intent_id, "object": "payment_intent"})

    response = signed_webhook(api_as(None), event, secret="whsec_someone_else")

    assert response.status_code == 400
    record.refresh_from_db()
    assert record.state == TipState.AWAITING_PAYMENT


def test_a_declined_card_can_be_tried_again_and_a_new_amount_is_a_new_intent(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    first = Tip.objects.get(booking=visited)
    failed = stripe_event(
        "payment_intent.payment_failed",
        {
            "id": first.intent_id,
            "object": "payment_intent",
            "last_payment_error": {"message": "Your card was declined."},
        },
    )
    assert signed_webhook(api_as(None), failed).json()["outcome"] == "tip_failed"
    offer = api_as(visited.client).get(f"/api/bookings/{visited.pk}/tip").json()
    assert offer["canAdd"] is True and offer["tip"]["error"] == "Your card was declined."

    again = tip(api_as, visited.client, visited, amount="12.50")

    assert again.status_code == 200
    second = Tip.objects.get(booking=visited)
    assert (second.amount, second.state) == (Decimal("12.50"), TipState.AWAITING_PAYMENT)
    assert second.intent_id != first.intent_id
    assert second.idempotency_key == f"kindly-tip-{visited.pk}-intent-1250usd"


def test_the_same_amount_again_reuses_the_intent(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    assert tip(api_as, visited.client, visited, percent=None, amount="10").status_code == 200

    assert len([r for r in stripe_backend.posts("/v1/payment_intents") if r.params.get("metadata[kind]") == "tip"]) == 1


@pytest.mark.parametrize(
    ("body", "field", "message"),
    [
        ({}, "amount", "Choose a suggested tip or type an amount."),
        ({"percent": 15, "amount": "5.00"}, "amount", "Choose a suggested tip or type an amount."),
        ({"percent": 50}, "percent", "Choose one of the suggested tips (10%, 15%, 20%) or type an amount."),
        ({"amount": "0.50"}, "amount", "A tip must be at least $1.00."),
        ({"amount": "-5"}, "amount", "A tip must be at least $1.00."),
        (
            {"amount": "200.01"},
            "amount",
            "A tip can be at most $200.00. For a larger thank-you, please contact support.",
        ),
        ({"amount": "ten"}, "amount", "Type the tip in dollars and cents, for example 10.00."),
        ({"amount": "10", "note": "hi"}, "note", "Unknown field."),
    ],
)
def test_a_bad_tip_is_a_400_in_plain_words(stripe_backend, visited, api_as, body, field, message):
    response = tip(api_as, visited.client, visited, **body)

    assert response.status_code == 400, response.content
    assert response.json()["errors"][field] == [message]
    assert not Tip.objects.exists()


def test_after_72_hours_or_before_the_visit_is_done_a_tip_is_a_409(stripe_backend, visited, api_as, past_booking):
    visited.checked_out_at = timezone.now() - dt.timedelta(hours=72, minutes=1)
    visited.save(update_fields=["checked_out_at"])

    late = tip(api_as, visited.client, visited, amount="10.00")

    assert late.status_code == 409
    assert late.json()["message"] == (
        "Tips can be added for 72 hours after the visit. That time is over for this visit."
    )
    assert api_as(visited.client).get(f"/api/bookings/{visited.pk}/tip").json()["canAdd"] is False


def test_a_visit_not_completed_cannot_be_tipped(stripe_backend, client_user, verified_provider, api_as):
    from bookings.tests.factories import BookingFactory

    ahead = BookingFactory(
        service_request__client=client_user, provider=verified_provider, total_amount=Decimal("40.00")
    )
    response = tip(api_as, client_user, ahead, amount="5.00")

    assert response.status_code == 409
    assert response.json()["message"] == "A tip can be added once the visit is completed."


def test_one_tip_per_visit(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    intent_succeeded(api_as, stripe_backend, Tip.objects.get(booking=visited).intent_id)

    second = tip(api_as, visited.client, visited, amount="5.00")

    assert second.status_code == 409
    assert second.json()["message"] == "You already added a tip for this visit. Thank you."
    offer = api_as(visited.client).get(f"/api/bookings/{visited.pk}/tip").json()
    assert offer["canAdd"] is False
    assert (offer["tip"]["amount"], offer["tip"]["state"], offer["tip"]["clientSecret"]) == (10.0, "on_its_way", "")


def test_only_organizers_tip_and_see_tips(stripe_backend, visited, api_as):
    member = UserFactory()
    CircleMember.objects.create(recipient=visited.recipient, user=member, role=CircleRole.MEMBER)
    stranger = UserFactory()

    for user, expected in [(member, 403), (visited.provider.user, 403), (stranger, 404)]:
        assert tip(api_as, user, visited, amount="10.00").status_code == expected
        response = api_as(user).get(f"/api/bookings/{visited.pk}/tip")
        assert response.status_code == expected
        assert set(response.json()) == {"message", "errors"}
    assert not Tip.objects.exists()


def test_a_tip_waits_for_the_helpers_payouts_and_goes_out_when_they_turn_on(stripe_backend, past_booking, api_as):
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    assert tip(api_as, past_booking.client, past_booking, amount="10.00").status_code == 200
    intent_succeeded(api_as, stripe_backend, Tip.objects.get(booking=past_booking).intent_id)
    assert Tip.objects.get(booking=past_booking).state == TipState.PENDING
    assert stripe_backend.posts("/v1/transfers") == []

    connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)

    kinds = sorted(t.params.get("metadata[kind]", "share") for t in stripe_backend.posts("/v1/transfers"))
    assert kinds == ["share", "tip"]
    assert Tip.objects.get(booking=past_booking).state == TipState.ON_ITS_WAY


def test_the_helper_sees_the_tip_as_its_own_line(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    intent_succeeded(api_as, stripe_backend, Tip.objects.get(booking=visited).intent_id)
    helper = api_as(visited.provider.user)

    body = helper.get("/api/earnings").json()

    [line] = body["tips"]
    assert (line["bookingId"], line["amount"], line["fromName"], line["state"]) == (
        visited.pk,
        10.0,
        "Clara",
        "on_its_way",
    )
    assert line["availableOn"]
    assert body["totals"]["net"] == 38.68  # the visit's own share; the tip is its own line
    page = helper.get("/earnings").content.decode()
    assert 'data-testid="tip-line"' in page and "Tip from Clara" in page and "$10.00" in page
    csv = helper.get("/earnings.csv").content.decode()
    assert "Tip from Clara (Set up video calls),10.00,0.00,10.00,0.00,On its way,10.00" in csv


def _checkout_props(client, booking) -> dict:
    import json
    import re

    page = client.get(f"/checkout/{booking.pk}").content.decode()
    found = re.search(r'<script id="checkout-props" type="application/json">(.*?)</script>', page, re.S)
    assert found, page[:500]
    return json.loads(found.group(1))


def test_the_receipt_card_shows_the_tip_to_organizers_only(stripe_backend, visited, api_as):
    member = UserFactory()
    CircleMember.objects.create(recipient=visited.recipient, user=member, role=CircleRole.MEMBER)
    assert _checkout_props(api_as(visited.client), visited)["booking"]["tip"] is None
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    assert _checkout_props(api_as(visited.client), visited)["booking"]["tip"] is None  # not paid yet

    intent_succeeded(api_as, stripe_backend, Tip.objects.get(booking=visited).intent_id)

    assert _checkout_props(api_as(visited.client), visited)["booking"]["tip"] == {"amount": "10.00"}
    assert _checkout_props(api_as(member), visited)["booking"]["tip"] is None


def test_a_refund_of_the_tips_charge_never_touches_the_visit(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    intent_id = Tip.objects.get(booking=visited).intent_id
    intent_succeeded(api_as, stripe_backend, intent_id)
    event = stripe_event(
        "charge.refunded",
        {"id": "ch_tip", "object": "charge", "payment_intent": intent_id, "refunded": True, "amount_refunded": 1000},
    )

    assert signed_webhook(api_as(None), event).json()["outcome"] == "unknown"

    visited.refresh_from_db()
    assert (visited.payment_status, visited.refund_status) == ("paid", "none")
    assert Tip.objects.get(booking=visited).state == TipState.ON_ITS_WAY


def test_an_older_intent_paid_from_a_stale_page_is_the_tip_the_family_paid(stripe_backend, visited, api_as):
    assert tip(api_as, visited.client, visited, amount="10.00").status_code == 200
    old = Tip.objects.get(booking=visited).intent_id
    assert tip(api_as, visited.client, visited, amount="12.00").status_code == 200  # changed, not paid
    stripe_backend.succeed(old)
    obj = {
        "id": old,
        "object": "payment_intent",
        "amount": 1000,
        "metadata": {"kind": "tip", "booking_id": str(visited.pk)},
    }

    first = signed_webhook(api_as(None), stripe_event("payment_intent.succeeded", obj))

    assert first.json()["outcome"] == "tip_paid"
    record = Tip.objects.get(booking=visited)
    assert (record.intent_id, record.amount, record.state) == (old, Decimal("10.00"), TipState.ON_ITS_WAY)
    assert stripe_backend.posts("/v1/transfers")[-1].params["amount"] == "1000"
    # The newer intent paid as well: a second charge, never a second tip (logged for a refund).
    newer = {**obj, "id": "pi_fake_newer", "amount": 1200}
    assert signed_webhook(api_as(None), stripe_event("payment_intent.succeeded", newer)).json()["outcome"] == (
        "tip_superseded"
    )
    assert Tip.objects.get(booking=visited).amount == Decimal("10.00")
