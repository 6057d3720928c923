"""Payment pages: /checkout/{bookingId} (spec "Payment page"); a provider's /earnings (and its CSV),
and the payouts setup round trip to Stripe's onboarding form (or the test gateway's simulated one)."""

from __future__ import annotations

import csv

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.guards import login_required_page, queue_toast
from bookings.api.serializers import series_of
from bookings.models import Booking
from circles.models import CircleRole
from core.errors import DomainError
from payments import instant, payouts
from payments.api.serializers import MAX_ID
from payments.cards import CHARGE_UNDER_WAY
from payments.latefees import late_fee_dispute
from payments.models import ConnectedAccount, Gateway, PayoutSetup, PayoutState, TipState
from payments.selectors import (
    auto_charge_of,
    booking_is_payable,
    checkout_booking,
    earnings_overview,
    earnings_provider,
    late_fee_get,
    tip_of,
)
from requests_app.models import TimeWindow


def _booking_props(booking: Booking, viewer) -> dict:
    service_request = booking.service_request
    provider_user = booking.provider.user
    # A saved card's automatic charge (payments.cards), as the viewer may read it: while it is under
    # way there is nothing to pay here; once declined, this page is where it is fixed.
    auto_charge = auto_charge_of(booking_id=booking.pk, viewer=viewer)
    under_way = auto_charge is not None and auto_charge["state"] in CHARGE_UNDER_WAY
    return {
        "id": booking.pk,
        "title": service_request.title or "Service Appointment",
        "providerName": provider_user.full_name or "Your provider",
        "scheduledDate": booking.scheduled_date.isoformat(),
        "scheduledTime": booking.scheduled_time,
        "scheduledTimeLabel": TimeWindow(booking.scheduled_time).label
        if booking.scheduled_time in TimeWindow.values
        else booking.scheduled_time,
        "duration": booking.duration,
        "totalAmount": f"{booking.total_amount:.2f}",
        "status": booking.status,
        "paymentStatus": booking.payment_status,
        # Only the recipient's organizers pay; a plain member of the circle sees the status only.
        "canPay": booking.viewer_role == CircleRole.ORGANIZER,
        "payable": booking_is_payable(booking) and booking.viewer_role == CircleRole.ORGANIZER and not under_way,
        "autoChargeNote": auto_charge["note"] if auto_charge else "",
        "recipient": {
            "id": booking.recipient_id,
            "firstName": booking.recipient.first_name,
            "lastName": booking.recipient.last_name,
            "timeZone": booking.recipient.time_zone,
        },
        # A visit of a series is paid alone: say so, so nobody thinks the series is paid.
        "seriesNote": series_of(booking)["payNote"] if booking.series_index is not None else "",
        # The receipt's tip line (payments.tips): money news, for the organizers only.
        "tip": _paid_tip(booking) if booking.viewer_role == CircleRole.ORGANIZER else None,
    }


def _paid_tip(booking: Booking) -> dict | None:
    tip = tip_of(booking)
    if tip is None or tip.state not in (TipState.PENDING, TipState.ON_ITS_WAY):
        return None
    return {"amount": f"{tip.amount:.2f}"}


@login_required_page
def checkout(request: HttpRequest, booking_id: str) -> HttpResponse:
    """The recipient's organizers pay here and the circle's members see the payment's status; anyone
    else (or a bad id) sees "Booking Not Found"."""
    booking = None
    if booking_id.isdigit() and 1 <= int(booking_id) <= MAX_ID:
        booking = checkout_booking(user=request.user, booking_id=int(booking_id))
    backend = settings.PAYMENTS_BACKEND
    props = {
        "bookingId": booking_id,
        "booking": _booking_props(booking, request.user) if booking else None,
        "backend": backend,
        "publishableKey": settings.STRIPE_PUBLISHABLE_KEY if backend == Gateway.STRIPE else "",
    }
    return render(request, "pages/checkout.html", {"props": props}, status=200 if booking else 404)


# ---------------------------------------------------------------- earnings and payouts setup


def _forbidden(request: HttpRequest, error: DomainError) -> HttpResponse:
    return render(request, "pages/earnings.html", {"forbidden": error.message}, status=error.status_code)


@login_required_page
@require_GET
def earnings(request: HttpRequest) -> HttpResponse:
    """/earnings: the provider's paid bookings (gross, fee, net, payout state), totals by month."""
    try:
        overview = earnings_overview(user=request.user)
    except DomainError as exc:  # not a provider: 403
        return _forbidden(request, exc)
    return render(
        request,
        "pages/earnings.html",
        {
            "overview": overview,
            "PayoutSetup": PayoutSetup,
            "PayoutState": PayoutState,
            # Her last "Get paid now" payouts (payments.instant), on the page only.
            "instant_payouts": instant.instant_payouts_of(provider=earnings_provider(user=request.user)),
            "instant_fee_percent": settings.INSTANT_PAYOUT_FEE_PERCENT,
            "instant_fee_min": settings.INSTANT_PAYOUT_FEE_MIN,
            "standard_days": settings.STANDARD_PAYOUT_DAYS,
        },
    )


@login_required_page
@require_http_methods(["GET", "POST"])
def get_paid_now(request: HttpRequest) -> HttpResponse:
    """/earnings/get-paid-now: "Get paid now" (payments.instant). GET shows what is available,
    Stripe's fee and what reaches the card, first; the POST confirms the amount shown."""
    error = ""
    try:
        if request.method == "POST":
            try:
                payout = instant.instant_payout_create(actor=request.user, amount=_amount(request.POST.get("amount")))
            except DomainError as exc:
                if exc.status_code == 403:
                    raise
                error = exc.message
            else:
                queue_toast(
                    request,
                    title="On its way to your card",
                    description=f"${payout.received:.2f} is being sent to your debit card now.",
                )
                return HttpResponseRedirect(reverse("earnings"))
        quote = instant.instant_quote(user=request.user)
    except DomainError as exc:
        return render(request, "pages/get-paid-now.html", {"forbidden": exc.message}, status=exc.status_code)
    return render(request, "pages/get-paid-now.html", {"quote": quote, "error": error}, status=409 if error else 200)


def _amount(text: str | None):
    from decimal import Decimal, InvalidOperation

    try:
        return Decimal(text or "")
    except InvalidOperation:
        return Decimal("-1")


@login_required_page
@require_GET
def earnings_csv(request: HttpRequest) -> HttpResponse:
    """/earnings.csv: the same rows as /earnings, one line per paid booking."""
    try:
        overview = earnings_overview(user=request.user)
    except DomainError as exc:
        return _forbidden(request, exc)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="kindly-earnings-{timezone.localdate():%Y-%m-%d}.csv"'
    response["Cache-Control"] = "no-store"
    writer = csv.writer(response)
    writer.writerow(
        ["Booking", "Visit date", "Service", "Gross", "Kindly fee", "Net", "Fee percent", "Payout", "You earn"]
    )
    for earning in overview["earnings"]:
        title = earning.booking.service_request.title or "Service Appointment"
        writer.writerow(
            [
                earning.booking_id,
                earning.booking.scheduled_date.isoformat(),
                # A leading =, +, - or @ would be read as a formula by spreadsheets.
                "'" + title if title[:1] in "=+-@" else title,
                f"{earning.gross:.2f}",
                f"{earning.fee:.2f}",
                f"{earning.net:.2f}",
                f"{earning.fee_percent:.2f}",
                earning.state_label,
                f"{earning.earned:.2f}",
            ]
        )
    for tip in overview["tips"]:  # tips: all the helper's, no Kindly fee
        title = f"Tip from {tip.from_name} ({tip.booking.service_request.title or 'Service Appointment'})"
        amount = f"{tip.amount:.2f}"
        safe = "'" + title if title[:1] in "=+-@" else title
        row = [tip.booking_id, tip.booking.scheduled_date.isoformat(), safe, amount, "0.00", amount, "0.00"]
        writer.writerow([*row, tip.get_state_display(), amount])
    for fee in overview["late_fees"]:  # the cancellation policy's fees: all the helper's, no Kindly fee
        title = f"{fee.kind_label} ({fee.booking.service_request.title or 'Service Appointment'})"
        amount = f"{fee.amount:.2f}"
        safe = "'" + title if title[:1] in "=+-@" else title
        row = [fee.booking_id, fee.booking.scheduled_date.isoformat(), safe, amount, "0.00", amount, "0.00"]
        writer.writerow([*row, fee.get_state_display(), amount])
    return response


@login_required_page
@require_POST
def payouts_setup(request: HttpRequest) -> HttpResponse:
    """The dashboard's "Set up payouts" form: to Stripe's onboarding form for the provider's account."""
    return _to_onboarding(request)


@login_required_page
@require_GET
def payouts_refresh(request: HttpRequest) -> HttpResponse:
    """Stripe sends the provider here when the onboarding link has expired: a fresh link. A GET
    only continues an existing account's setup (a new account is made by the dashboard's POST)."""
    if not ConnectedAccount.objects.filter(provider__user=request.user).exists():
        return HttpResponseRedirect(reverse("dashboard"))
    return _to_onboarding(request)


def _to_onboarding(request: HttpRequest) -> HttpResponse:
    try:
        url = payouts.connected_account_start(
            actor=request.user,
            refresh_url=request.build_absolute_uri(reverse("payouts-refresh")),
            return_url=request.build_absolute_uri(reverse("payouts-return")),
        )
    except DomainError as exc:
        queue_toast(request, title="Payouts could not be set up", description=exc.message, variant="destructive")
        return HttpResponseRedirect(reverse("dashboard"))
    return HttpResponseRedirect(url, status=303)


@login_required_page
@require_GET
def payouts_return(request: HttpRequest) -> HttpResponse:
    """Back from the onboarding form: check the account's state and say it on the dashboard."""
    account = payouts.connected_account_refresh(actor=request.user)
    if account is not None and account.setup == PayoutSetup.ON:
        queue_toast(request, title="Payouts on", description="Your earnings will be sent to your bank account.")
    elif account is not None:
        queue_toast(
            request,
            title="Details needed" if account.setup == PayoutSetup.DETAILS_NEEDED else "Payouts not set up yet",
            description="Stripe still needs a few details before it can pay you. You can continue any time.",
        )
    return HttpResponseRedirect(reverse("dashboard"))


@login_required_page
@require_http_methods(["GET", "POST"])
def payouts_test_onboarding(request: HttpRequest) -> HttpResponse:
    """The offline test gateway's stand-in for Stripe's onboarding form (404 with Stripe)."""
    account_id = request.GET.get("account", "")
    if request.method == "POST":
        try:
            payouts.test_onboarding_finish(
                actor=request.user, account_id=account_id, complete=request.POST.get("outcome") == "complete"
            )
        except DomainError as exc:
            return render(request, "404.html", {"message": exc.message}, status=404)
        return HttpResponseRedirect(reverse("payouts-return"))
    if not payouts.test_onboarding_allowed(actor=request.user, account_id=account_id):
        return render(request, "404.html", status=404)
    return render(request, "pages/payouts-test-onboarding.html", {"account_id": account_id})


@login_required_page
@require_http_methods(["GET", "POST"])
def late_fee_page(request: HttpRequest, booking_id: int) -> HttpResponse:
    """/late-fees/<booking>: a cancelled visit's late fee (the cancellation policy) for its
    organizers, helper and staff; an organizer disputes a held nobody-home fee here (POST reason).
    The nobody-home email links here."""
    error = ""
    try:
        fee = late_fee_get(user=request.user, booking_id=booking_id)
        if request.method == "POST":
            try:
                late_fee_dispute(booking_id=booking_id, actor=request.user, reason=request.POST.get("reason", ""))
                queue_toast(
                    request,
                    title="Dispute sent",
                    description="Kindly support will look into it and tell you what they decide.",
                )
                return HttpResponseRedirect(request.path)
            except DomainError as exc:
                error = exc.message
                fee = late_fee_get(user=request.user, booking_id=booking_id)
    except DomainError as exc:
        return render(request, "pages/late-fee.html", {"forbidden": exc.message}, status=exc.status_code)
    return render(
        request,
        "pages/late-fee.html",
        {"fee": fee, "error": error, "reason": request.POST.get("reason", ""), "TEXT_MAX": 2000},
        status=400 if error else 200,
    )
