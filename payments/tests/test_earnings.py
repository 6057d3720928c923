"""The split (fee rounded down, in the provider's favour) and who sees earnings: GET /api/earnings,
/api/earnings/{bookingId}, the /earnings page and its CSV; the offline test gateway's payouts."""

from __future__ import annotations

import csv
import datetime as dt
import io
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from payments.models import ConnectedAccount, Earning, PayoutSetup, PayoutState
from payments.payouts import earning_split
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "gross, percent, fee, net",
    [
        ("45.50", "15", "6.82", "38.68"),  # 6.825: the half cent stays with the provider
        ("30.00", "15", "4.50", "25.50"),
        ("33.33", "15", "4.99", "28.34"),  # 4.9995
        ("99.99", "15", "14.99", "85.00"),  # 14.9985
        ("17.17", "15", "2.57", "14.60"),  # 2.5755
        ("0.50", "15", "0.07", "0.43"),  # Stripe's smallest charge
        ("0.06", "15", "0.00", "0.06"),  # 0.009
        ("0.07", "15", "0.01", "0.06"),  # 0.0105
        ("123456.78", "15", "18518.51", "104938.27"),  # 18518.517
        ("10.01", "12.5", "1.25", "8.76"),  # 1.25125
        ("10.00", "0", "0.00", "10.00"),
        ("10.00", "100", "10.00", "0.00"),
    ],
)
def test_the_fee_is_rounded_down_to_the_cent(gross, percent, fee, net):
    assert earning_split(gross=Decimal(gross), percent=Decimal(percent)) == (Decimal(fee), Decimal(net))


def test_every_amount_up_to_100_dollars_splits_into_whole_cents_that_add_up():
    for total_cents in range(1, 10001):
        gross = Decimal(total_cents) / 100
        fee, net = earning_split(gross=gross, percent=Decimal("15"))
        exact = gross * Decimal("0.15")
        assert fee + net == gross
        assert fee == fee.quantize(Decimal("0.01")) and net == net.quantize(Decimal("0.01"))
        assert fee <= exact < fee + Decimal("0.01"), gross


def paid_booking(provider, *, total="45.50", days_ago=3, status=BookingStatus.COMPLETED, state=PayoutState.PENDING):
    """A paid booking of `provider` with its recorded split at 15 %."""
    booking = BookingFactory(
        provider=provider,
        service_request__preferred_date=timezone.localdate() - dt.timedelta(days=days_ago),
        total_amount=Decimal(total),
        status=status,
        payment_status=PaymentStatus.PAID,
    )
    fee, net = earning_split(gross=booking.total_amount, percent=Decimal("15"))
    Earning.objects.create(
        booking=booking,
        gross=booking.total_amount,
        fee=fee,
        net=net,
        fee_percent=Decimal("15"),
        currency="usd",
        gateway="test",
        state=state,
    )
    return booking


@pytest.mark.sqlite  # make run's database too
def test_the_split_follows_the_platform_fee_setting(settings, offline_backend, booking, api_as):
    settings.PLATFORM_FEE_PERCENT = Decimal("20")
    client = api_as(booking.client)
    assert client.post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json").status_code == 200

    card = {"bookingId": booking.pk, "cardNumber": "4242424242424242"}
    paid = client.post("/api/payments/test/confirm", card, format="json")

    assert paid.status_code == 200, paid.content
    earning = Earning.objects.get(booking=booking)
    assert (earning.gross, earning.fee, earning.net, earning.fee_percent) == (
        Decimal("45.50"),
        Decimal("9.10"),
        Decimal("36.40"),
        Decimal("20.00"),
    )
    # What the provider sees comes from the stored split, not from today's setting.
    settings.PLATFORM_FEE_PERCENT = Decimal("15")
    shown = api_as(booking.provider.user).get(f"/api/earnings/{booking.pk}").json()
    assert (shown["gross"], shown["fee"], shown["net"], shown["feePercent"]) == (45.5, 9.1, 36.4, 20.0)
    assert (shown["state"], shown["stateLabel"]) == ("pending", "Pending")
    assert shown["note"] == "Sent to you once you mark the visit completed."


@pytest.mark.sqlite  # make run's database too
def test_the_provider_sees_own_earnings_totals_and_months(verified_provider, api_as, django_assert_max_num_queries):
    this_month = paid_booking(verified_provider, total="45.50", days_ago=0)
    paid_booking(verified_provider, total="30.00", days_ago=0, state=PayoutState.PAID)
    paid_booking(verified_provider, total="99.99", days_ago=0, state=PayoutState.REVERSED)
    earlier = paid_booking(verified_provider, total="17.17", days_ago=70, state=PayoutState.ON_ITS_WAY)
    paid_booking(VerifiedProviderFactory(), total="500.00", days_ago=0)  # someone else's

    provider = api_as(verified_provider.user)

    # session, user, provider, account, months, list, tips (and a save)
    with django_assert_max_num_queries(8):
        response = provider.get("/api/earnings")

    assert response.status_code == 200
    data = response.json()
    assert data["payouts"] == {"status": "not_set_up", "label": "Payouts not set up"}
    assert data["feePercent"] == 15.0
    assert len(data["earnings"]) == 4
    assert data["earnings"][0]["scheduledDate"] >= data["earnings"][-1]["scheduledDate"]
    assert {e["bookingId"] for e in data["earnings"]} >= {this_month.pk, earlier.pk}
    # Totals leave the reversed visit out: 45.50 + 30.00 + 17.17.
    assert data["totals"] == {"gross": 92.67, "fee": 13.89, "net": 78.78}
    [latest, older] = data["months"]
    assert latest["month"] == timezone.localdate().replace(day=1).isoformat()
    assert (latest["count"], latest["gross"], latest["fee"], latest["net"]) == (2, 75.5, 11.32, 64.18)
    assert (older["count"], older["gross"], older["net"]) == (1, 17.17, 14.6)
    waiting = next(e for e in data["earnings"] if e["bookingId"] == this_month.pk)
    assert waiting["note"] == "Waiting for you to set up payouts."


def test_another_providers_booking_earnings_are_a_404(verified_provider, api_as):
    theirs = paid_booking(VerifiedProviderFactory())

    response = api_as(verified_provider.user).get(f"/api/earnings/{theirs.pk}")

    assert response.status_code == 404
    assert response.json()["message"] == "No earnings for this booking."
    assert api_as(verified_provider.user).get("/api/earnings/99999999999999999999").status_code == 404


def test_a_client_sees_no_earnings_even_of_their_own_booking(verified_provider, api_as):
    booking = paid_booking(verified_provider)
    client = api_as(booking.client)

    assert client.get("/api/earnings").status_code == 403
    assert client.get(f"/api/earnings/{booking.pk}").status_code == 403
    assert client.get("/earnings").status_code == 403
    assert client.get("/earnings.csv").status_code == 403
    assert api_as(None).get("/api/earnings").status_code in (401, 403)
    assert api_as(None).get("/earnings")["Location"] == "/login?next=%2Fearnings"


@pytest.mark.sqlite  # make run's database too
def test_the_earnings_page_and_csv_show_gross_fee_net_and_state(verified_provider, api_as):
    booking = paid_booking(verified_provider, total="45.50", state=PayoutState.ON_ITS_WAY)
    booking.service_request.title = "=HYPERLINK(evil)"
    booking.service_request.save(update_fields=["title"])
    paid_booking(VerifiedProviderFactory(), total="500.00")
    provider = api_as(verified_provider.user)

    page = provider.get("/earnings")

    assert page.status_code == 200
    html = page.content.decode()
    for text in ("$45.50", "$6.82", "$38.68", "On its way", "Set up payouts", "Download as a spreadsheet (CSV)"):
        assert text in html
    assert "$500.00" not in html

    download = provider.get("/earnings.csv")

    assert download["Content-Type"].startswith("text/csv")
    assert download["Content-Disposition"].startswith('attachment; filename="kindly-earnings-')
    rows = list(csv.reader(io.StringIO(download.content.decode())))
    assert rows[0] == [
        "Booking", "Visit date", "Service", "Gross", "Kindly fee", "Net", "Fee percent", "Payout", "You earn"
    ]  # fmt: skip
    assert rows[1:] == [
        [str(booking.pk), booking.scheduled_date.isoformat(), "'=HYPERLINK(evil)", "45.50", "6.82", "38.68", "15.00",
         "On its way", "38.68"],
    ]  # fmt: skip


def test_a_cancelled_visit_never_paid_out_shows_as_cancelled_and_earns_nothing(verified_provider, api_as):
    """Cancelled and refunded before any transfer: not "Reversed" with "You earn $25.50", but
    Cancelled, $0.00, in the page, its CSV and the API alike."""
    booking = paid_booking(
        verified_provider, total="30.00", days_ago=-5, status=BookingStatus.CANCELLED, state=PayoutState.REVERSED
    )
    provider = api_as(verified_provider.user)

    shown = provider.get(f"/api/earnings/{booking.pk}").json()
    assert (shown["stateLabel"], shown["earned"], shown["net"]) == ("Cancelled", 0.0, 25.5)
    assert shown["note"] == "The visit was cancelled and the client refunded in full; nothing was paid out to you."

    html = provider.get("/earnings").content.decode()
    card = html[html.index(f'data-booking-id="{booking.pk}"') :]
    card = card[: card.index("</li>")]
    assert "Reversed" not in card and "$25.50" not in card
    assert 'data-testid="earning-net">$0.00<' in card
    assert 'data-testid="earning-state">Cancelled<' in card
    assert "Refunded to the client" in card

    rows = list(csv.reader(io.StringIO(provider.get("/earnings.csv").content.decode())))
    assert rows[1][-2:] == ["Cancelled", "0.00"]


def test_a_refund_after_payout_says_so_and_earns_nothing(verified_provider, api_as):
    booking = paid_booking(verified_provider, total="30.00", state=PayoutState.REVERSED)
    Earning.objects.filter(booking=booking).update(reversed_after_payout=True, transfer_id="tr_1")

    shown = api_as(verified_provider.user).get(f"/api/earnings/{booking.pk}").json()

    assert (shown["stateLabel"], shown["earned"]) == ("Refunded after payout", 0.0)


def test_an_empty_earnings_page_says_what_will_show(verified_provider, api_as):
    html = api_as(verified_provider.user).get("/earnings").content.decode()
    assert "No earnings yet." in html


# ---------------------------------------------------------------- the offline test gateway


@pytest.mark.sqlite  # make run's database too
def test_the_test_gateways_onboarding_page_turns_payouts_on(offline_backend, verified_provider, api_as):
    provider = api_as(verified_provider.user)

    started = provider.post("/payouts/setup")

    assert started.status_code == 303
    account = ConnectedAccount.objects.get(provider=verified_provider)
    assert account.account_id.startswith("acct_test_")
    assert started["Location"] == f"/payouts/test-onboarding?account={account.account_id}"
    assert provider.get(started["Location"]).status_code == 200
    # Nobody else reaches this provider's simulated form.
    other = api_as(VerifiedProviderFactory().user)
    assert other.get(started["Location"]).status_code == 404
    assert other.post(started["Location"], {"outcome": "complete"}).status_code == 404

    stopped = provider.post(started["Location"], {"outcome": "details_needed"})
    account.refresh_from_db()
    assert stopped["Location"] == "/payouts/return"
    assert account.setup == PayoutSetup.DETAILS_NEEDED
    assert "Finish setting up payouts" in provider.get("/dashboard").content.decode()

    provider.post(started["Location"], {"outcome": "complete"})
    account.refresh_from_db()
    assert account.setup == PayoutSetup.ON
    assert 'data-status="on"' in provider.get("/dashboard").content.decode()


def test_the_simulated_onboarding_does_not_exist_with_stripe(stripe_backend, verified_provider, api_as):
    ConnectedAccount.objects.create(provider=verified_provider, gateway="test", account_id="acct_test_1")
    page = api_as(verified_provider.user).get("/payouts/test-onboarding?account=acct_test_1")
    assert page.status_code == 404


def test_the_providers_data_export_holds_their_earnings_and_payouts_account(verified_provider, api_as):
    booking = paid_booking(verified_provider, state=PayoutState.ON_ITS_WAY)
    ConnectedAccount.objects.create(provider=verified_provider, gateway="test", account_id="acct_test_export")

    data = api_as(verified_provider.user).get("/api/account/export").json()

    [row] = data["bookings"]["asProvider"]
    assert row["earning"] == {"gross": "45.50", "fee": "6.82", "net": "38.68", "payout": "on_its_way"}
    assert data["providerProfile"]["payoutsAccount"] == {
        "accountId": "acct_test_export",
        "status": "Payouts not set up",
    }
    client_export = api_as(booking.client).get("/api/account/export").json()
    assert "earning" not in client_export["bookings"]["asClient"][0]


def test_a_provider_not_yet_verified_sees_earnings_but_no_setup_button(provider_user, api_as):
    html = api_as(provider_user).get("/earnings").content.decode()
    assert "You can set up payouts once your provider profile has been verified." in html
    assert "Set up payouts</button>" not in html


@pytest.mark.sqlite
def test_splits_of_odd_amounts_are_stored_as_computed(verified_provider):
    """Also on SQLite (make run), where decimals are compared as floating point numbers."""
    for total in ("45.50", "0.07", "33.33", "17.17", "99.99", "0.30", "1234.57"):
        booking = paid_booking(verified_provider, total=total)
        earning = Earning.objects.get(booking=booking)
        assert earning.fee + earning.net == earning.gross == Decimal(total)


def test_staff_see_a_cancelled_visits_earning_as_the_provider_does(client, admin_user, verified_provider):
    """The Django admin follows the same rule: Cancelled, the provider keeps 0.00."""
    paid_booking(
        verified_provider, total="30.00", days_ago=-5, status=BookingStatus.CANCELLED, state=PayoutState.REVERSED
    )
    client.force_login(admin_user)

    html = client.get("/django-admin/payments/earning/").content.decode()

    assert '<td class="field-earned">0.00</td>' in html
    assert '<td class="field-outcome">Cancelled</td>' in html
