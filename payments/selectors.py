"""Reads for payments: which booking a user may pay or see on the checkout page; refunds to retry;
a provider's earnings and payouts setup."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import TruncMonth
from django.utils import timezone
from django.utils.formats import date_format, number_format
from django.utils.translation import gettext, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from bookings.models import Booking, BookingStatus, PaymentStatus, RefundStatus
from bookings.selectors import as_party_of
from circles.models import CircleMember, CircleRole
from circles.selectors import recipient_ids_of
from core.errors import NotFound, PermissionDenied
from payments.models import (
    ConnectedAccount,
    Earning,
    LateFee,
    LateFeeKind,
    LateFeeState,
    PayoutSetup,
    PayoutState,
    Refund,
    SavedCard,
    Tip,
    TipState,
    VisitCharge,
    VisitChargeState,
)
from providers.models import Provider, VerificationStatus
from requests_app.selectors import viewer_role_of

if TYPE_CHECKING:
    from accounts.models import User

PAYABLE_PAYMENT_STATUSES = (PaymentStatus.PENDING, PaymentStatus.FAILED)


def booking_visible_to(*, user: User) -> QuerySet[Booking]:
    """Bookings the user may see (ARCHITECTURE.md permission table): those for the recipients in their
    circles and the visits they make as a provider; all for admins. Each with the user's
    role in the recipient's circle (viewer_role)."""
    qs = Booking.objects.select_related("service_request", "client", "recipient", "provider__user").annotate(
        viewer_role=viewer_role_of(user.pk)
    )
    if user.is_admin:
        return qs
    return qs.filter(as_party_of(user.pk))


PAY_ORGANIZERS_ONLY = gettext_lazy("Only an organizer of this care circle can pay for this booking.")


def booking_for_payer(*, user: User, booking_id: int) -> Booking:
    """The booking the user wants to pay: one they may not see is a 404; one they see but do not
    organize the recipient's circle of (a plain member, the provider, an admin) a 403."""
    booking = booking_visible_to(user=user).filter(pk=booking_id).first()
    if booking is None:
        raise NotFound(gettext("Booking not found."))
    if booking.viewer_role != CircleRole.ORGANIZER:
        raise PermissionDenied(PAY_ORGANIZERS_ONLY)
    return booking


def booking_is_payable(booking: Booking) -> bool:
    """Scheduled and not paid yet (pending, or failed and being tried again)."""
    return booking.status == BookingStatus.SCHEDULED and booking.payment_status in PAYABLE_PAYMENT_STATUSES


def checkout_booking(*, user: User, booking_id: int) -> Booking | None:
    """The booking for the /checkout page: the recipient's circle sees it there (its organizers may
    pay; booking.viewer_role says which); nobody else."""
    return (
        booking_visible_to(user=user).filter(pk=booking_id, recipient_id__in=recipient_ids_of(user_id=user.pk)).first()
    )


# A pending refund with no answer from the gateway after this long was never sent (the process
# stopped between the cancel's commit and the call): retry_refunds sends it.
REFUND_UNANSWERED_AFTER = dt.timedelta(minutes=10)


def _unanswered(now: dt.datetime | None) -> Q:
    cutoff = (now or timezone.now()) - REFUND_UNANSWERED_AFTER
    return Q(booking__refund_status=RefundStatus.PENDING, refund_id="") & (
        Q(attempted_at__lt=cutoff) | Q(attempted_at__isnull=True, requested_at__lt=cutoff)
    )


def refunds_to_retry(*, now: dt.datetime | None = None) -> QuerySet[Refund]:
    """Refunds an admin should retry, oldest first: failed ones, and pending ones the gateway has
    not answered for REFUND_UNANSWERED_AFTER. A pending one the gateway accepted (it has a refund
    id) waits for its webhook and is not listed."""
    return (
        Refund.objects.select_related("booking")
        .filter(Q(booking__refund_status=RefundStatus.FAILED) | _unanswered(now))
        .order_by("requested_at", "pk")
    )


def refunds_unanswered(*, now: dt.datetime | None = None) -> QuerySet[Refund]:
    """Pending refunds the gateway has not answered for REFUND_UNANSWERED_AFTER (beat sends them
    again; each try of a task in backoff updates attempted_at, so it is not listed meanwhile)."""
    return Refund.objects.filter(_unanswered(now)).order_by("requested_at", "pk")


# ---------------------------------------------------------------- earnings (payments.payouts)

EARNINGS_FOR_PROVIDERS = gettext_lazy("Earnings are for providers.")


def earnings_provider(*, user: User) -> Provider:
    """The provider whose earnings the user sees: their own. Anyone without a provider profile: 403."""
    provider = Provider.objects.filter(user_id=user.pk).only("id", "verification_status", "is_active").first()
    if provider is None:
        raise PermissionDenied(EARNINGS_FOR_PROVIDERS)
    return provider


def earning_list(*, provider: Provider) -> QuerySet[Earning]:
    """The provider's earnings, latest visit first, with what the page shows of each booking."""
    return (
        Earning.objects.filter(booking__provider=provider)
        .select_related("booking__service_request")
        .order_by("-booking__scheduled_date", "-booking_id")
    )


def earning_get(*, user: User, booking_id: int) -> Earning:
    """One booking's earning: 403 without a provider profile, 404 unless it is the user's visit."""
    earning = earning_list(provider=earnings_provider(user=user)).filter(booking_id=booking_id).first()
    if earning is None:
        raise NotFound(gettext("No earnings for this booking."))
    return earning


def earning_month_totals(*, provider: Provider) -> list[dict]:
    """Gross, fee and net by month of the visit, latest first; reversed ones are left out (the
    money went back to the client)."""
    return list(
        Earning.objects.filter(booking__provider=provider)
        .exclude(state=PayoutState.REVERSED)
        .annotate(month=TruncMonth("booking__scheduled_date"))
        .values("month")
        .annotate(gross=Sum("gross"), fee=Sum("fee"), net=Sum("net"), count=Count("pk"))
        .order_by("-month")
    )


def earning_totals(months: list[dict]) -> dict[str, Decimal]:
    zero = Decimal("0.00")
    return {key: sum((m[key] for m in months), zero) for key in ("gross", "fee", "net")}


def payout_setup_of(*, provider: Provider) -> tuple[PayoutSetup, ConnectedAccount | None]:
    account = ConnectedAccount.objects.filter(provider=provider).first()
    return (account.setup if account else PayoutSetup.NOT_SET_UP), account


def earning_earned(earning: Earning) -> Decimal:
    """What the provider keeps of a booking: its net, or nothing once the client was refunded (the
    share went back, or never left Kindly). The page's bold "You earn" reads this, never the split."""
    return Decimal("0.00") if earning.state == PayoutState.REVERSED else earning.net


def earning_state_label(earning: Earning) -> str:
    """The payout's state in the provider's words: a refunded visit says why (cancelled, or
    refunded), not "Reversed", which reads as money taken back when none may ever have moved."""
    if earning.state != PayoutState.REVERSED:
        return earning.get_state_display()
    if earning.reversed_after_payout:
        return gettext("Refunded after payout")
    return gettext("Cancelled") if earning.booking.status == BookingStatus.CANCELLED else gettext("Refunded")


def earning_note(earning: Earning, *, payouts_on: bool) -> str:
    """One plain sentence on where the money is."""
    booking = earning.booking
    if earning.state == PayoutState.REVERSED:
        if earning.reversed_after_payout:
            return gettext("The client was refunded after this was paid out; Stripe takes it from your next payouts.")
        if not earning.transfer_id:
            if booking.status == BookingStatus.CANCELLED:
                return gettext("The visit was cancelled and the client refunded in full; nothing was paid out to you.")
            return gettext("The payment was refunded and the client refunded in full; nothing was paid out to you.")
        return gettext("The client was refunded, so the transfer to your Stripe account was taken back.")
    if earning.state == PayoutState.PAID:
        day = timezone.localdate(earning.paid_at) if earning.paid_at else None
        if day is None:
            return gettext("Paid to your bank.")
        return gettext("Paid to your bank on %(day)s.") % {"day": date_format(day, pgettext("long date", "F j, Y"))}
    if earning.state == PayoutState.ON_ITS_WAY:
        return gettext("Sent to your Stripe account; Stripe pays it to your bank on its usual schedule.")
    if booking.status != BookingStatus.COMPLETED:
        return gettext("Sent to you once you mark the visit completed.")
    if not payouts_on:
        return gettext("Waiting for you to set up payouts.")
    return "Being sent to your Stripe account."


def payout_card(*, user: User) -> dict | None:
    """The dashboard's payouts card for a verified provider (None for anyone else): the setup
    state, and what is waiting for it. One query."""
    pending = Q(bookings__earning__state=PayoutState.PENDING)
    provider = (
        Provider.objects.filter(user_id=user.pk, verification_status=VerificationStatus.VERIFIED)
        .select_related("connected_account")
        .annotate(
            waiting_net=Sum("bookings__earning__net", filter=pending),
            waiting_count=Count("bookings__earning", filter=pending),
        )
        .only("id", "connected_account")
        .first()
    )
    if provider is None:
        return None
    account = getattr(provider, "connected_account", None)
    setup = account.setup if account else PayoutSetup.NOT_SET_UP
    return {
        "status": setup.value,
        "label": setup.label,
        "started": account is not None,
        "waitingNet": provider.waiting_net or Decimal("0.00"),
        "waitingCount": provider.waiting_count,
    }


def earnings_overview(*, user: User) -> dict:
    """What /earnings and GET /api/earnings show (EarningsSerializer's instance); 403 for non-providers."""
    provider = earnings_provider(user=user)
    setup, _account = payout_setup_of(provider=provider)
    months = earning_month_totals(provider=provider)
    payouts_on = setup == PayoutSetup.ON
    late_fees = with_fee_notes(list(late_fees_of_provider(provider=provider)), payouts_on=payouts_on)
    earnings = with_notes(list(earning_list(provider=provider)), payouts_on=payouts_on)
    tips = with_tip_notes(list(tips_of_provider(provider=provider)), payouts_on=payouts_on)
    for line in [*earnings, *late_fees]:
        line.available_on = available_on(line)
    # A visit cancelled with a late fee: its refund was the rest, and the note says where the fee is.
    kept = {fee.booking_id: fee.amount for fee in late_fees}
    for earning in earnings:
        if earning.booking_id in kept and earning.state == PayoutState.REVERSED:
            earning.refunded = earning.gross - kept[earning.booking_id]
            earning.note = gettext(
                "The visit was cancelled late: the client got $%(refunded)s back and the late fee "
                "of $%(fee)s is yours (under Late fees)."
            ) % {"refunded": number_format(earning.refunded, 2), "fee": number_format(kept[earning.booking_id], 2)}
    return {
        "payouts": {"status": setup.value, "label": setup.label},
        "fee_percent": settings.PLATFORM_FEE_PERCENT,
        "totals": earning_totals(months),
        "months": months,
        "earnings": earnings,
        # The cancellation policy's late fees: each its own line, all of it the helper's.
        "late_fees": late_fees,
        # Tips (payments.tips): each its own line, all of it the helper's.
        "tips": tips,
        "tips_total": sum((tip.amount for tip in tips), Decimal("0.00")),
        "payouts_on": payouts_on,
        # Payouts are set up by verified providers only (payments.payouts.connected_account_start).
        "can_set_up": provider.verification_status == VerificationStatus.VERIFIED,
    }


def with_notes(earnings: list[Earning], *, payouts_on: bool) -> list[Earning]:
    """Each earning with `.note` (earning_note), `.state_label` (earning_state_label) and `.earned`
    (earning_earned), as the page, its CSV and the API show it."""
    for earning in earnings:
        earning.note = earning_note(earning, payouts_on=payouts_on)
        earning.state_label = earning_state_label(earning)
        earning.earned = earning_earned(earning)
    return earnings


# ---------------------------------------------------------------- late fees (payments.latefees)

LATE_FEE_STATE_WORDS = {
    LateFeeState.HELD: gettext_lazy("Held: the family may dispute it until %(until)s; then it is paid to the helper."),
    LateFeeState.DISPUTED: gettext_lazy("The family disputed it; Kindly support will decide."),
    LateFeeState.PENDING: gettext_lazy("To be paid to the helper."),
    LateFeeState.ON_ITS_WAY: gettext_lazy("Paid to the helper."),
    LateFeeState.WAIVED: gettext_lazy("Waived by Kindly support: nothing was kept."),
}


def _day_words(moment) -> str:
    """ "Tuesday, November 24" in the reader's words."""
    return date_format(moment, pgettext("day and month", "l, F j"))


def _day_and_time_words(moment) -> str:
    """ "Tuesday, November 24 at 03:30 PM" in the reader's words."""
    return gettext("%(day)s at %(time)s") % {"day": _day_words(moment), "time": date_format(moment, "h:i A")}


def late_fee_get(*, user: User, booking_id: int) -> LateFee:
    """A booking's late fee, for its organizers, its provider and staff (money news: plain
    members of the circle get 403); 404 when the booking is not theirs to see or has no fee."""
    booking = booking_visible_to(user=user).filter(pk=booking_id).first()
    if booking is None:
        raise NotFound(gettext("Booking not found."))
    if not (user.is_admin or booking.provider.user_id == user.pk or booking.viewer_role == CircleRole.ORGANIZER):
        raise PermissionDenied(gettext("Only the organizers of this care circle and the helper see its late fee."))
    fee = LateFee.objects.filter(booking=booking).select_related("booking").first()
    if fee is None:
        raise NotFound(gettext("This booking has no late fee."))
    until = timezone.localtime(fee.release_after, booking.time_zone)
    fee.note = _with_until(LATE_FEE_STATE_WORDS[fee.state], _day_and_time_words(until))
    fee.can_dispute = fee.state == LateFeeState.HELD and booking.viewer_role == CircleRole.ORGANIZER
    return fee


def late_fee_disputes_open() -> QuerySet[LateFee]:
    """The late fees families disputed that staff have not decided yet (/admin), the longest
    waiting first, with what the list shows of each booking (one query)."""
    return (
        LateFee.objects.filter(state=LateFeeState.DISPUTED)
        .select_related("booking__service_request", "booking__recipient", "booking__client", "booking__provider__user")
        .order_by("disputed_at", "booking_id")
    )


def late_fees_of(*, booking_ids: list[int], viewer: User | None) -> dict[int, dict | None]:
    """Each cancelled visit's late fee as the family's dashboard card says it (the booking's
    `lateFeeCharged`), in two queries whatever their number. Money news: only the organizers of the
    recipient's circle read it (members, the helper and staff get None: the helper has /earnings,
    staff /admin). A held fee links to its page (/late-fees/<id>) to dispute it while it can be."""
    answers: dict[int, dict | None] = dict.fromkeys(booking_ids)
    if viewer is None or not viewer.is_authenticated or not booking_ids:
        return answers
    fees = list(
        LateFee.objects.filter(booking_id__in=booking_ids).select_related(
            "booking__provider__user", "booking__recipient"
        )
    )
    if not fees:
        return answers
    organized = set(
        CircleMember.objects.filter(user_id=viewer.pk, role=CircleRole.ORGANIZER).values_list("recipient_id", flat=True)
    )
    for fee in fees:
        if fee.booking.recipient_id in organized:
            answers[fee.booking_id] = _family_fee_words(fee)
    return answers


def _family_fee_words(fee: LateFee) -> dict:
    """The fee in the family's words, by where it is (payments.latefees)."""
    helper = fee.booking.provider.user.first_name or _("your helper")
    amount = f"${fee.amount:,.2f}"
    label = _("Late fee (nobody home)") if fee.kind == LateFeeKind.NOBODY_HOME else _("Late cancellation fee")
    until = timezone.localtime(fee.release_after, fee.booking.time_zone)
    words = {
        LateFeeState.HELD: _("{label}: {amount}, to be paid to {helper} unless you dispute it by {until}."),
        LateFeeState.DISPUTED: _("{label}: {amount}. You disputed it; Kindly support will decide and tell you."),
        LateFeeState.PENDING: _("{label}: {amount}, paid to {helper}."),
        LateFeeState.ON_ITS_WAY: _("{label}: {amount}, paid to {helper}."),
        LateFeeState.WAIVED: _("{label} of {amount} waived: nothing was kept."),
    }
    text = words[fee.state].format(
        label=label,
        amount=amount,
        helper=helper,
        until=date_format(until, pgettext("visit time", r"l, F j, Y \a\t g:i A")),
    )
    return {
        "amount": fee.amount,
        "state": fee.state,
        "text": text,
        "disputeUrl": f"/late-fees/{fee.booking_id}" if fee.state == LateFeeState.HELD else None,
    }


def late_fees_of_provider(*, provider: Provider) -> QuerySet[LateFee]:
    """A provider's late fees that were not waived (their own lines on /earnings), newest visit first."""
    return (
        LateFee.objects.filter(booking__provider=provider)
        .exclude(state=LateFeeState.WAIVED)
        .select_related("booking__service_request", "booking__recipient")
        .order_by("-booking__scheduled_date", "-booking_id")
    )


HELPER_FEE_WORDS = {
    LateFeeState.HELD: gettext_lazy("Kept for you; the family may dispute it until %(until)s, then it is paid to you."),
    LateFeeState.DISPUTED: gettext_lazy("The family disputed it; Kindly support will decide and tell you."),
    LateFeeState.PENDING: gettext_lazy("Paid to you as soon as your payouts are on."),
    LateFeeState.ON_ITS_WAY: gettext_lazy("Sent to your Stripe account, all of it: Kindly keeps no fee."),
}


def _with_until(words, until: str) -> str:
    """A state's sentence, its "until" filled in when it has one."""
    return str(words) % {"until": until} if "%(until)s" in str(words) else str(words)


def with_fee_notes(fees: list[LateFee], *, payouts_on: bool) -> list[LateFee]:
    """Each late fee with `.note` (where it is, in the helper's words) and `.kind_label`."""
    for fee in fees:
        until = timezone.localtime(fee.release_after, fee.booking.time_zone)
        words = HELPER_FEE_WORDS[fee.state]
        if fee.state == LateFeeState.PENDING and payouts_on:
            words = gettext("Being sent to your Stripe account.")
        fee.note = _with_until(words, _day_words(until))
        fee.kind_label = (
            gettext("Late fee: nobody home") if fee.kind == "nobody_home" else gettext("Late fee: cancelled late")
        )
    return fees


# ---------------------------------------------------------------- a saved card (payments.cards)


def saved_card_of(*, user: User) -> SavedCard | None:
    """Her own saved card, ready to charge; None without one. Nobody reads another person's card."""
    card = SavedCard.objects.filter(user=user).first()
    return card if card is not None and card.ready else None


def auto_charges_of(*, booking_ids: list[int], viewer: User | None) -> dict[int, dict | None]:
    """The automatic charge of each visit as its viewer may read it (the booking's `autoCharge`), in
    two queries whatever their number: the card (brand, last 4) to the one whose card it is; the other
    organizers read that it is charged to her saved card, never which; members, the helper and staff
    get None (the status says "Waiting for payment" or "Paid and confirmed")."""
    answers: dict[int, dict | None] = dict.fromkeys(booking_ids)
    if viewer is None or not viewer.is_authenticated or not booking_ids:
        return answers
    charges = (
        VisitCharge.objects.select_related("payer", "booking")
        .filter(booking_id__in=booking_ids)
        .exclude(state=VisitChargeState.CANCELLED)
    )
    charges = list(charges)
    if not charges:
        return answers
    organized = set(
        CircleMember.objects.filter(user_id=viewer.pk, role=CircleRole.ORGANIZER).values_list("recipient_id", flat=True)
    )
    for charge in charges:
        own = charge.payer_id == viewer.pk
        if own or charge.booking.recipient_id in organized:
            answers[charge.booking_id] = _auto_charge_words(charge, own=own)
    return answers


def _auto_charge_words(charge: VisitCharge, *, own: bool) -> dict:
    card = charge.card_label if own else f"{charge.payer.first_name or 'an organizer'}'s saved card"
    notes = {
        VisitChargeState.PENDING: f"Will be charged to {card} when confirmed",
        VisitChargeState.SUBMITTED: f"Being charged to {card}",
        VisitChargeState.SUCCEEDED: f"Paid with {card}",
        VisitChargeState.FAILED: f"We could not charge {card}. Please pay before the visit."
        if own
        else f"We could not charge {card}. An organizer can pay before the visit.",
        VisitChargeState.ACTION_NEEDED: f"Your bank asks you to confirm the payment with {card}. "
        "Please confirm it before the visit."
        if own
        else f"The bank asks to confirm the payment with {card}.",
    }
    return {"state": charge.state, "note": notes[charge.state]}


def auto_charge_of(*, booking_id: int, viewer: User | None) -> dict | None:
    """One visit's automatic charge as its viewer may read it (auto_charges_of)."""
    return auto_charges_of(booking_ids=[booking_id], viewer=viewer)[booking_id]


# ---------------------------------------------------------------- when money becomes available (faster pay)


def standard_arrival(sent: dt.datetime) -> dt.date:
    """When a standard (free) payout brings money sent on `sent` to the bank: STANDARD_PAYOUT_DAYS
    business days later (Stripe's usual US schedule; an estimate, said as "about")."""
    day = timezone.localdate(sent)
    left = settings.STANDARD_PAYOUT_DAYS
    while left > 0:
        day += dt.timedelta(days=1)
        if day.weekday() < 5:  # Monday to Friday
            left -= 1
    return day


def available_on(line: Earning | LateFee | Tip) -> dt.date | None:
    """When a line's money reaches the helper's bank by the free standard payout: None until it is
    sent to her Stripe account (and for money that went back); the payout's day once paid."""
    paid_at = getattr(line, "paid_at", None)
    if isinstance(line, Earning) and line.state == PayoutState.PAID and paid_at:
        return timezone.localdate(paid_at)
    if line.state != PayoutState.ON_ITS_WAY or not line.transferred_at:  # the three share "on_its_way"
        return None
    return standard_arrival(line.transferred_at)


# ---------------------------------------------------------------- tips (payments.tips)


def tips_of_provider(*, provider: Provider) -> QuerySet[Tip]:
    """A helper's paid tips (their own lines on /earnings), newest visit first."""
    return (
        Tip.objects.filter(booking__provider=provider, state__in=[TipState.PENDING, TipState.ON_ITS_WAY])
        .select_related("booking__service_request", "payer")
        .order_by("-booking__scheduled_date", "-booking_id")
    )


def with_tip_notes(tips: list[Tip], *, payouts_on: bool) -> list[Tip]:
    """Each tip with `.note` (where it is, in the helper's words), `.from_name` and `.available_on`."""
    for tip in tips:
        if tip.state == TipState.ON_ITS_WAY:
            tip.note = gettext("Sent to your Stripe account, all of it: Kindly keeps no fee from tips.")
        elif payouts_on:
            tip.note = gettext("Being sent to your Stripe account.")
        else:
            tip.note = gettext("Paid to you as soon as your payouts are on.")
        tip.from_name = tip.payer.first_name or gettext("The family")
        tip.available_on = available_on(tip)
    return tips


TIPS_ORGANIZERS_ONLY = gettext_lazy("Only the organizers of this care circle can see or add a tip.")


def tip_booking(*, user: User, booking_id: int) -> Booking:
    """The visit an organizer tips: 404 when the user may not see it, 403 unless she organizes the
    recipient's circle (money news: plain members, the helper and staff do not)."""
    booking = booking_visible_to(user=user).filter(pk=booking_id).first()
    if booking is None:
        raise NotFound(gettext("Booking not found."))
    if booking.viewer_role != CircleRole.ORGANIZER:
        raise PermissionDenied(TIPS_ORGANIZERS_ONLY)
    return booking


def tip_of(booking: Booking) -> Tip | None:
    return Tip.objects.filter(booking=booking).select_related("payer").first()
