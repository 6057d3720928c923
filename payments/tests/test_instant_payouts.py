"""Faster pay (payments.instant): "Get paid now" pays the helper's instantly available balance to
her debit card with a Stripe Instant Payout, Stripe's fee shown first; standard payouts stay
free. Stripe is the fake at the HTTP boundary (its connected-account calls carry Stripe-Account)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.tests.factories import BookingFactory
from marketplace.testing.stripe import BANK_ACCOUNT, connect_webhook, stripe_event
from payments.instant import instant_fee
from payments.models import InstantPayout, InstantPayoutState
from payments.selectors import standard_arrival
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


URL = "/api/earnings/instant-payout"


@pytest.mark.parametrize(
    ("amount", "fee"),
    [
        ("38.68", "0.50"),  # 1 % is 0.3868: the $0.50 minimum
        ("50.00", "0.50"),
        ("50.99", "0.50"),  # 0.5099, rounded down
        ("123.45", "1.23"),  # 1.2345, rounded down
        ("1000.00", "10.00"),
    ],
)
def test_the_instant_fee_is_one_percent_rounded_down_and_at_least_50_cents(amount, fee):
    assert instant_fee(Decimal(amount)) == Decimal(fee)


def test_a_standard_payout_arrives_two_business_days_after_the_transfer():
    friday = timezone.make_aware(dt.datetime(2026, 11, 27, 12, 0))
    assert standard_arrival(friday) == dt.date(2026, 12, 1)  # Monday and Tuesday
    assert standard_arrival(friday - dt.timedelta(days=2)) == dt.date(2026, 11, 27)  # Wednesday -> Friday


@pytest.fixture
def earned(stripe_backend, past_booking, api_as):
    """The helper's visit ($45.50, $38.68 hers) was paid, completed and transferred; returns her account."""
    account = connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    return account


def test_the_fee_is_shown_first_then_the_payout_goes_to_the_debit_card(stripe_backend, earned, past_booking, api_as):
    helper = api_as(past_booking.provider.user)

    quote = helper.get(URL)

    assert quote.status_code == 200, quote.content
    assert quote.json() == {
        "eligible": True,
        "reason": "",
        "available": 38.68,
        "fee": 0.5,
        "receive": 38.18,
        "currency": "usd",
        "standardDays": 2,
    }
    [cards] = [r for r in stripe_backend.requests if r.path.endswith("/external_accounts")]
    assert cards.path == f"/v1/accounts/{earned.account_id}/external_accounts"
    [balance] = [r for r in stripe_backend.requests if r.path == "/v1/balance"]
    assert balance.stripe_account == earned.account_id
    assert stripe_backend.posts("/v1/payouts") == []  # nothing moves before she confirms

    response = helper.post(URL, {"amount": "38.68"}, format="json")

    assert response.status_code == 201, response.content
    assert response.json()["received"] == 38.18
    [payout_call] = stripe_backend.posts("/v1/payouts")
    assert payout_call.stripe_account == earned.account_id
    assert (payout_call.params["amount"], payout_call.params["method"]) == ("3868", "instant")
    payout = InstantPayout.objects.get()
    assert payout_call.idempotency_key == f"kindly-provider-{past_booking.provider_id}-instant-{payout.pk}"
    assert (payout.amount, payout.fee, payout.state) == (Decimal("38.68"), Decimal("0.50"), "in_transit")

    # Nothing is left to pay out at once.
    assert helper.get(URL).json()["reason"].startswith("Nothing is available to pay out now.")


def test_payout_paid_confirms_it_once(stripe_backend, earned, past_booking, api_as):
    helper = api_as(past_booking.provider.user)
    assert helper.post(URL, {"amount": "38.68"}, format="json").status_code == 201
    payout = InstantPayout.objects.get()
    event = stripe_event("payout.paid", {"id": payout.payout_id, "object": "payout", "status": "paid"})

    first = connect_webhook(api_as(None), event, account=earned.account_id)
    replay = connect_webhook(api_as(None), event, account=earned.account_id)

    assert first.json()["outcome"].startswith("instant_paid")
    assert replay.json()["outcome"] == "duplicate"
    payout.refresh_from_db()
    assert payout.state == InstantPayoutState.PAID

    failed = stripe_event("payout.failed", {"id": payout.payout_id, "object": "payout", "status": "failed"})
    assert (
        connect_webhook(api_as(None), failed, account=earned.account_id).json()["outcome"].startswith("instant_failed")
    )
    payout.refresh_from_db()
    assert payout.state == InstantPayoutState.FAILED


def test_an_amount_other_than_the_one_shown_is_a_409_and_nothing_moves(stripe_backend, earned, past_booking, api_as):
    response = api_as(past_booking.provider.user).post(URL, {"amount": "50.00"}, format="json")

    assert response.status_code == 409
    assert response.json()["message"] == (
        "The amount available changed. Please look at the new amount before you confirm."
    )
    assert stripe_backend.posts("/v1/payouts") == [] and not InstantPayout.objects.exists()


def test_a_bank_account_without_instant_payouts_is_told_how_and_a_post_is_a_409(
    stripe_backend, earned, past_booking, api_as
):
    stripe_backend.external_accounts[earned.account_id] = [BANK_ACCOUNT]
    helper = api_as(past_booking.provider.user)

    quote = helper.get(URL).json()

    assert quote["eligible"] is False
    assert quote["reason"].startswith("Your payout account does not take instant payouts.")
    response = helper.post(URL, {"amount": "38.68"}, format="json")
    assert response.status_code == 409
    assert stripe_backend.posts("/v1/payouts") == []


def test_too_little_for_the_fee_is_not_offered(stripe_backend, earned, past_booking, api_as):
    stripe_backend.instant_balance[earned.account_id] = 50  # $0.50: the fee would take all of it

    quote = api_as(past_booking.provider.user).get(URL).json()

    assert (quote["eligible"], quote["reason"]) == (
        False,
        "Not enough is available yet: the instant fee would take all of it.",
    )


def test_stripe_refusing_keeps_the_money_in_the_balance(stripe_backend, earned, past_booking, api_as):
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "No"}}))

    response = api_as(past_booking.provider.user).post(URL, {"amount": "38.68"}, format="json")

    assert response.status_code == 502, response.content
    assert "Your money stays in your balance" in response.json()["message"]
    assert InstantPayout.objects.get().state == InstantPayoutState.FAILED
    assert api_as(past_booking.provider.user).get(URL).json()["available"] == 38.68


@pytest.mark.parametrize(
    ("body", "field"), [({}, "amount"), ({"amount": "x"}, "amount"), ({"amount": "1", "y": 1}, "y")]
)
def test_a_bad_confirmation_is_a_400(stripe_backend, earned, past_booking, api_as, body, field):
    response = api_as(past_booking.provider.user).post(URL, body, format="json")

    assert response.status_code == 400
    assert field in response.json()["errors"]


def test_without_payouts_set_up_it_is_not_offered(stripe_backend, verified_provider, api_as):
    quote = api_as(verified_provider.user).get(URL)

    assert quote.status_code == 200
    assert quote.json()["reason"] == "Set up payouts first. Then you can choose to be paid at once."
    assert stripe_backend.requests == []


def test_not_a_provider_is_a_403(stripe_backend, client_user, api_as):
    for response in (api_as(client_user).get(URL), api_as(client_user).post(URL, {"amount": "1"}, format="json")):
        assert response.status_code == 403
        assert set(response.json()) == {"message", "errors"}


def test_the_page_shows_the_fee_before_the_confirmation(stripe_backend, earned, past_booking, api_as):
    helper = api_as(past_booking.provider.user)

    page = helper.get("/earnings/get-paid-now").content.decode()

    assert "Stripe's instant fee" in page and "$0.50" in page and "$38.18" in page
    assert stripe_backend.posts("/v1/payouts") == []

    done = helper.post("/earnings/get-paid-now", {"amount": "38.68"})

    assert done.status_code == 302 and done["Location"] == "/earnings"
    assert len(stripe_backend.posts("/v1/payouts")) == 1
