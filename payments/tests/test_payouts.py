"""Providers get paid (payments.payouts): onboarding, the split, transfers after the visit, payouts,
refunds that reverse the share, each Connect event once. Stripe is the fake at the HTTP boundary,
behind the official SDK; the transfers run on commit, as in production (transactional tests).
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from marketplace.testing.stripe import (
    WEBHOOK_SECRET,
    connect_webhook,
    pay_with_stripe,
    signed_webhook,
    stripe_event,
)
from messaging.models import Message
from payments.models import ConnectedAccount, Earning, PayoutSetup, PayoutState, ProcessedEvent

pytestmark = pytest.mark.django_db(transaction=True)

DETAILS_NEEDED = PayoutSetup.DETAILS_NEEDED
ACCOUNT_ON = {"charges_enabled": True, "payouts_enabled": True, "details_submitted": True}


def account_event(account_id: str, **state) -> dict:
    obj = {
        "id": account_id,
        "object": "account",
        "charges_enabled": False,
        "payouts_enabled": False,
        "details_submitted": False,
        "requirements": {"currently_due": [], "past_due": [], "disabled_reason": None},
        **state,
    }
    return stripe_event("account.updated", obj)


def setup_payouts(api_as, provider_user):
    """The provider presses "Set up payouts" on the dashboard."""
    return api_as(provider_user).post("/payouts/setup")


def connect(fake, api_as, provider, **state):
    """The provider sets up payouts and Stripe says how it went (account.updated)."""
    assert setup_payouts(api_as, provider.user).status_code == 303
    account = ConnectedAccount.objects.get(provider=provider)
    response = connect_webhook(api_as(None), account_event(account.account_id, **state), account=account.account_id)
    assert response.status_code == 200, response.content
    account.refresh_from_db()
    return account


@pytest.fixture
def past_booking(client_user, verified_provider):
    """A $45.50 booking whose visit was yesterday morning, payment pending."""
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    return BookingFactory(
        service_request__client=client_user,
        service_request__title="Set up video calls",
        service_request__preferred_date=yesterday,
        provider=verified_provider,
        total_amount=Decimal("45.50"),
    )


def pay(fake, booking, api_as):
    """The client pays with Stripe: the intent succeeds with a charge, the webhook says so."""
    pay_with_stripe(booking, api_as)
    return fake.succeed(booking.payment_intent_id)


def complete(booking, api_as):
    response = api_as(booking.provider.user).post(f"/api/bookings/{booking.pk}/complete")
    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert booking.status == BookingStatus.COMPLETED


def earning_of(booking) -> Earning:
    return Earning.objects.get(booking=booking)


# ---------------------------------------------------------------- onboarding


def test_setup_creates_one_express_account_and_a_link_back_to_kindly(stripe_backend, verified_provider, api_as):
    # A GET (a link from anywhere) never creates an account.
    assert api_as(verified_provider.user).get("/payouts/refresh")["Location"] == "/dashboard"
    assert stripe_backend.posts("/v1/accounts") == []

    response = setup_payouts(api_as, verified_provider.user)

    assert response.status_code == 303
    [created] = stripe_backend.posts("/v1/accounts")
    assert created.params["type"] == "express"
    assert created.params["email"] == "vera@example.com"
    assert created.params["capabilities[transfers][requested]"] == "true"
    assert created.idempotency_key == f"kindly-provider-{verified_provider.pk}-account"
    [link] = stripe_backend.posts("/v1/account_links")
    account = ConnectedAccount.objects.get(provider=verified_provider)
    assert link.params["account"] == account.account_id
    assert link.params["type"] == "account_onboarding"
    assert link.params["return_url"] == "http://testserver/payouts/return"
    assert link.params["refresh_url"] == "http://testserver/payouts/refresh"
    assert response["Location"].startswith(f"https://connect.stripe.com/setup/e/{account.account_id}/")
    assert account.setup == PayoutSetup.NOT_SET_UP

    # Again (an expired link, a second tab): a fresh link for the same account.
    assert api_as(verified_provider.user).get("/payouts/refresh").status_code == 303
    assert len(stripe_backend.posts("/v1/accounts")) == 1
    assert len(stripe_backend.posts("/v1/account_links")) == 2


def test_when_stripe_refuses_the_setup_the_provider_is_told_and_nothing_is_kept(
    stripe_backend, verified_provider, api_as
):
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "Connect is off"}}))

    provider = api_as(verified_provider.user)

    response = provider.post("/payouts/setup")

    assert response.status_code == 302 and response["Location"] == "/dashboard"
    assert not ConnectedAccount.objects.exists()
    page = provider.get("/dashboard")
    assert "We could not reach our payment partner just now." in page.content.decode()


@pytest.mark.parametrize(
    "state, expected",
    [
        ({}, PayoutSetup.NOT_SET_UP),
        ({"details_submitted": True, "requirements": {"currently_due": ["external_account"]}}, DETAILS_NEEDED),
        (ACCOUNT_ON, PayoutSetup.ON),
        ({**ACCOUNT_ON, "requirements": {"past_due": ["individual.verification.document"]}}, DETAILS_NEEDED),
        ({**ACCOUNT_ON, "payouts_enabled": False}, DETAILS_NEEDED),
        ({**ACCOUNT_ON, "charges_enabled": False}, DETAILS_NEEDED),
    ],
)
def test_account_updated_sets_the_dashboard_state(stripe_backend, verified_provider, api_as, state, expected):
    account = connect(stripe_backend, api_as, verified_provider, **state)

    assert account.setup == expected
    page = api_as(verified_provider.user).get("/dashboard").content.decode()
    assert f'data-status="{expected.value}"' in page
    assert f'data-testid="payouts-label">{expected.label}<' in page
    assert ("Set up payouts" in page or "Finish setting up payouts" in page) == (expected != PayoutSetup.ON)


def test_a_replayed_account_event_changes_nothing(stripe_backend, verified_provider, api_as):
    account = connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    later = account_event(account.account_id, details_submitted=True, requirements={"past_due": ["external_account"]})
    anonymous = api_as(None)
    assert connect_webhook(anonymous, later, account=account.account_id).json()["outcome"] == "updated"
    account.refresh_from_db()
    assert account.setup == PayoutSetup.DETAILS_NEEDED
    updated_at = account.updated_at

    replay = connect_webhook(anonymous, later, account=account.account_id)

    assert replay.json()["outcome"] == "duplicate"
    account.refresh_from_db()
    assert account.updated_at == updated_at
    assert ProcessedEvent.objects.filter(event_id=later["id"]).count() == 1


def test_an_older_account_event_arriving_late_changes_nothing(stripe_backend, verified_provider, api_as):
    account = connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    older = account_event(account.account_id, details_submitted=True, requirements={"currently_due": ["tos"]})
    older["created"] -= 3600  # sent an hour before the one that turned payouts on

    response = connect_webhook(api_as(None), older, account=account.account_id)

    assert response.json()["outcome"] == "stale"
    account.refresh_from_db()
    assert account.setup == PayoutSetup.ON


def test_connect_events_need_the_connect_endpoints_own_secret(stripe_backend, verified_provider, api_as):
    setup_payouts(api_as, verified_provider.user)
    account = ConnectedAccount.objects.get(provider=verified_provider)
    event = {**account_event(account.account_id, **ACCOUNT_ON), "account": account.account_id}

    signed_with_the_platform_secret = signed_webhook(
        api_as(None), event, secret=WEBHOOK_SECRET, url="/api/payments/stripe/connect-webhook"
    )

    assert signed_with_the_platform_secret.status_code == 400
    account.refresh_from_db()
    assert account.setup == PayoutSetup.NOT_SET_UP


def test_an_unknown_account_is_recorded_and_ignored(stripe_backend, api_as):
    response = connect_webhook(api_as(None), account_event("acct_someone_else", **ACCOUNT_ON), account="acct_x")
    assert response.json()["outcome"] == "unknown"
    assert not ConnectedAccount.objects.exists()


def test_coming_back_from_stripe_reads_the_account_state(stripe_backend, verified_provider, api_as):
    setup_payouts(api_as, verified_provider.user)
    account = ConnectedAccount.objects.get(provider=verified_provider)
    stripe_backend.accounts[account.account_id].update(ACCOUNT_ON, requirements={"currently_due": []})

    response = api_as(verified_provider.user).get("/payouts/return")

    assert response.status_code == 302 and response["Location"] == "/dashboard"
    account.refresh_from_db()
    assert account.setup == PayoutSetup.ON


@pytest.mark.parametrize("who", ["client", "pending provider"])
def test_only_verified_providers_set_up_payouts(stripe_backend, client_user, provider_user, api_as, who):
    user = client_user if who == "client" else provider_user

    response = setup_payouts(api_as, user)

    assert response.status_code == 302 and response["Location"] == "/dashboard"
    assert stripe_backend.posts("/v1/accounts") == []
    assert not ConnectedAccount.objects.exists()
    assert "payouts-card" not in api_as(user).get("/dashboard").content.decode()


# ---------------------------------------------------------------- split, transfer, payout


def test_a_paid_completed_visit_sends_the_net_to_the_providers_account(stripe_backend, past_booking, api_as):
    account = connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    charge = pay(stripe_backend, past_booking, api_as)

    earning = earning_of(past_booking)
    assert (earning.gross, earning.fee, earning.net, earning.fee_percent) == (
        Decimal("45.50"),
        Decimal("6.82"),  # 15 % is 6.825: rounded down, in the provider's favour
        Decimal("38.68"),
        Decimal("15.00"),
    )
    assert earning.state == PayoutState.PENDING
    assert stripe_backend.posts("/v1/transfers") == []  # nothing moves before the visit is completed

    complete(past_booking, api_as)

    [transfer] = stripe_backend.posts("/v1/transfers")
    assert transfer.params["amount"] == "3868"
    assert transfer.params["currency"] == "usd"
    assert transfer.params["destination"] == account.account_id
    assert transfer.params["source_transaction"] == charge
    assert transfer.params["transfer_group"] == f"booking-{past_booking.pk}"
    assert transfer.idempotency_key == f"kindly-booking-{past_booking.pk}-transfer"
    earning.refresh_from_db()
    assert earning.state == PayoutState.ON_ITS_WAY
    assert earning.transfer_id == next(iter(stripe_backend.transfers))


def test_without_payouts_the_earning_waits_and_the_provider_is_reminded(stripe_backend, past_booking, api_as):
    provider = past_booking.provider
    pay(stripe_backend, past_booking, api_as)

    complete(past_booking, api_as)

    assert stripe_backend.posts("/v1/transfers") == []
    assert earning_of(past_booking).state == PayoutState.PENDING
    reminder = Message.objects.get(receiver=provider.user, content__contains="set up payouts")
    assert "$38.68" in reminder.content
    card = api_as(provider.user).get("/dashboard").content.decode()
    assert 'data-status="not_set_up"' in card and "$38.68" in card

    # The provider finishes onboarding: what waited goes out at once.
    connect(stripe_backend, api_as, provider, **ACCOUNT_ON)

    [transfer] = stripe_backend.posts("/v1/transfers")
    assert transfer.params["amount"] == "3868"
    assert earning_of(past_booking).state == PayoutState.ON_ITS_WAY


def test_payout_paid_marks_the_earnings_it_carried_paid_once(stripe_backend, past_booking, api_as):
    account = connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    earning = earning_of(past_booking)
    stripe_backend.payout_transactions["po_fake_1"] = [
        {"id": "txn_1", "object": "balance_transaction", "type": "payment", "source": earning.destination_payment_id},
        {"id": "txn_2", "object": "balance_transaction", "type": "payout", "source": "po_fake_1"},
    ]
    event = stripe_event("payout.paid", {"id": "po_fake_1", "object": "payout", "status": "paid"})

    first = connect_webhook(api_as(None), event, account=account.account_id)

    assert first.json()["outcome"] == "paid"
    [listing] = [r for r in stripe_backend.requests if r.path == "/v1/balance_transactions"]
    assert listing.params["payout"] == "po_fake_1"
    assert listing.authorization == "Bearer sk_test_kindly_fake"
    earning.refresh_from_db()
    assert (earning.state, earning.payout_id) == (PayoutState.PAID, "po_fake_1")
    paid_at = earning.paid_at

    replay = connect_webhook(api_as(None), event, account=account.account_id)

    assert replay.json()["outcome"] == "duplicate"
    assert len([r for r in stripe_backend.requests if r.path == "/v1/balance_transactions"]) == 1
    earning.refresh_from_db()
    assert earning.paid_at == paid_at


def test_a_payout_the_bank_sent_back_puts_the_money_back_on_its_way(stripe_backend, past_booking, api_as):
    account = connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    earning = earning_of(past_booking)
    stripe_backend.payout_transactions["po_fake_2"] = [{"id": "txn_3", "source": earning.destination_payment_id}]
    paid = stripe_event("payout.paid", {"id": "po_fake_2", "object": "payout", "status": "paid"})
    assert connect_webhook(api_as(None), paid, account=account.account_id).json()["outcome"] == "paid"

    failed = stripe_event("payout.failed", {"id": "po_fake_2", "object": "payout", "status": "failed"})
    assert connect_webhook(api_as(None), failed, account=account.account_id).json()["outcome"] == "payout failed"

    earning.refresh_from_db()
    assert (earning.state, earning.payout_id, earning.paid_at) == (PayoutState.ON_ITS_WAY, "", None)


# ---------------------------------------------------------------- refunds


def test_a_refund_after_the_payout_reverses_the_share_and_the_fee(stripe_backend, past_booking, api_as):
    account = connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    earning = earning_of(past_booking)
    stripe_backend.payout_transactions["po_fake_3"] = [{"id": "txn_4", "source": earning.destination_payment_id}]
    paid = stripe_event("payout.paid", {"id": "po_fake_3", "object": "payout"})
    connect_webhook(api_as(None), paid, account=account.account_id)
    # Staff refund the client in full in Stripe's dashboard: the whole $45.50, Kindly's fee included.
    refunded = stripe_event(
        "charge.refunded",
        {
            "id": "ch_x",
            "object": "charge",
            "payment_intent": past_booking.payment_intent_id,
            "amount": 4550,
            "amount_refunded": 4550,
            "refunded": True,
        },
    )

    assert signed_webhook(api_as(None), refunded).json()["outcome"] == "refunded"

    past_booking.refresh_from_db()
    assert past_booking.payment_status == PaymentStatus.REFUNDED
    [reversal] = stripe_backend.requests[-1:]
    assert (reversal.method, reversal.path) == ("POST", f"/v1/transfers/{earning.transfer_id}/reversals")
    assert "amount" not in reversal.params  # the whole transfer: the provider's share
    assert reversal.params["metadata[booking_id]"] == str(past_booking.pk)
    assert reversal.idempotency_key == f"kindly-booking-{past_booking.pk}-transfer-reversal"
    assert stripe_backend.transfers[earning.transfer_id]["reversed"] is True
    earning.refresh_from_db()
    assert earning.state == PayoutState.REVERSED
    assert earning.reversed_after_payout is True
    assert earning.reversal_id.startswith("trr_fake_")
    shown = api_as(past_booking.provider.user).get(f"/api/earnings/{past_booking.pk}").json()
    assert shown["state"] == "reversed"
    assert "refunded after this was paid out" in shown["note"]

    # Replays (and Stripe's transfer.reversed that follows) move nothing more.
    requests_before = len(stripe_backend.requests)
    assert signed_webhook(api_as(None), refunded).json()["outcome"] == "duplicate"
    transfer = {**stripe_backend.transfers[earning.transfer_id], "reversals": {"data": [{"id": earning.reversal_id}]}}
    assert signed_webhook(api_as(None), stripe_event("transfer.reversed", transfer)).json()["outcome"] == "ignored"
    assert len(stripe_backend.requests) == requests_before
    assert earning_of(past_booking).state == PayoutState.REVERSED


def test_a_cancel_before_the_visit_refunds_everything_and_moves_no_share(stripe_backend, client_user, api_as):
    booking = BookingFactory(service_request__client=client_user, total_amount=Decimal("45.50"))
    connect(stripe_backend, api_as, booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, booking, api_as)

    response = api_as(client_user).post(
        f"/api/bookings/{booking.pk}/cancel", {"reason": "Plans changed"}, format="json"
    )

    assert response.status_code == 200, response.content
    [refund] = stripe_backend.posts("/v1/refunds")
    assert refund.params["payment_intent"] == booking.payment_intent_id
    assert "amount" not in refund.params  # the whole charge: the provider's share and Kindly's fee
    assert stripe_backend.posts("/v1/transfers") == []
    earning = earning_of(booking)
    assert (earning.state, earning.transfer_id, earning.reversed_after_payout) == (PayoutState.REVERSED, "", False)


def test_a_transfer_reversed_in_stripes_dashboard_is_shown_reversed(stripe_backend, past_booking, api_as):
    connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    complete(past_booking, api_as)
    earning = earning_of(past_booking)
    transfer = {**stripe_backend.transfers[earning.transfer_id], "reversed": True, "amount_reversed": 3868}
    event = stripe_event("transfer.reversed", {**transfer, "reversals": {"data": [{"id": "trr_staff"}]}})

    assert signed_webhook(api_as(None), event).json()["outcome"] == "reversed"
    assert signed_webhook(api_as(None), event).json()["outcome"] == "duplicate"

    earning.refresh_from_db()
    assert (earning.state, earning.reversal_id) == (PayoutState.REVERSED, "trr_staff")


def test_a_failed_transfer_stays_pending_and_is_released_again(stripe_backend, past_booking, api_as):
    from django.core.management import call_command

    connect(stripe_backend, api_as, past_booking.provider, **ACCOUNT_ON)
    pay(stripe_backend, past_booking, api_as)
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "insufficient"}}))

    complete(past_booking, api_as)

    earning = earning_of(past_booking)
    assert earning.state == PayoutState.PENDING
    assert "insufficient" in earning.last_error

    call_command("release_earnings")

    earning.refresh_from_db()
    assert (earning.state, earning.last_error) == (PayoutState.ON_ITS_WAY, "")
    keys = {r.idempotency_key for r in stripe_backend.posts("/v1/transfers")}
    assert keys == {f"kindly-booking-{past_booking.pk}-transfer"}


def test_the_dashboards_payouts_card_changes_as_soon_as_its_earnings_or_its_account_do(
    stripe_backend, verified_provider, api_as
):
    """The card is cached with the dashboard's lists (core.listcache): saving an earning or
    the connected account replaces it."""
    booking = BookingFactory(
        provider=verified_provider, status=BookingStatus.COMPLETED, payment_status=PaymentStatus.PAID
    )

    def page() -> str:
        return api_as(verified_provider.user).get("/dashboard").content.decode()

    assert "is waiting for you" not in page()
    Earning.objects.create(
        booking=booking,
        gross=Decimal("45.50"),
        fee=Decimal("6.82"),
        net=Decimal("38.68"),
        fee_percent=Decimal("15"),
        currency="usd",
        gateway="test",
        state=PayoutState.PENDING,
    )
    assert "<strong>$38.68</strong> is waiting for you" in page()
    connect(stripe_backend, api_as, verified_provider, **ACCOUNT_ON)
    assert f'data-status="{PayoutSetup.ON.value}"' in page()
