"""A saved card, charged per visit (docs/payments.md "A saved card").

The organizer saves a card once (a SetupIntent on her Stripe customer; the local form under the test
gateway). When a helper accepts a series, each of its visits (and each one-off booking, when she
chose "Charge my saved card automatically") gets a VisitCharge with the accept's transaction; after
the commit a Celery task charges it off-session (payments.tasks.charge_visit, idempotency key
visit-charge-<booking id>). Stripe's webhook confirms it (payment_intent.succeeded drives the
booking's usual payment transition: confirmed, the split, the receipt); a decline tells her, alone,
with a link to the booking's checkout page, where the same intent is paid with a new card or the
bank's confirmation. No gateway call is made inside a transaction.
"""

from __future__ import annotations

import datetime as dt
import logging
import secrets

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User
from bookings.models import Booking
from bookings.services import booking_lock, booking_payment_failed
from bookings.services.base import tell
from circles.models import CircleMember, CircleRole
from core.errors import Conflict, GatewayError, InvalidInput, NotFound, PermissionDenied
from core.events import VisitsBooked
from core.notifications import NoticeKind
from payments.card_gateways import (
    AUTHENTICATION_REQUIRED,
    CHARGE_DECLINED,
    CHARGE_SUCCEEDED,
    CardDetails,
    TestCardGateway,
    get_card_gateway,
)
from payments.errors import PaymentGatewayUnavailable
from payments.gateways import card_number_is_valid, is_test_gateway_active
from payments.models import PaymentIntent, SavedCard, VisitCharge, VisitChargeState
from payments.payouts import cents
from payments.selectors import booking_for_payer, booking_is_payable
from payments.services import MINIMUM_CHARGE_CENTS, payment_succeeded

logger = logging.getLogger(__name__)

ORGANIZERS_ONLY = gettext_lazy("Only organizers of a care circle save a card to pay for visits.")
NO_CARD = gettext_lazy("You have no saved card.")
SAVE_FAILED = gettext_lazy("We could not save your card just now. Please try again.")
REMOVE_FAILED = gettext_lazy("We could not remove your card just now. Please try again.")
# A charge still to be made or confirmed: the visit is not paid by hand meanwhile (no "Pay now").
CHARGE_UNDER_WAY = (VisitChargeState.PENDING, VisitChargeState.SUBMITTED)
CHARGE_FIXABLE = (VisitChargeState.FAILED, VisitChargeState.ACTION_NEEDED)
WILL_BE_CHARGED = gettext_lazy("This visit will be charged to your saved card automatically.")


def visit_charge_key(booking_id: int) -> str:
    """The idempotency key of a visit's off-session charge: Stripe charges a visit once, however often
    the task runs."""
    return f"visit-charge-{booking_id}"


def organizes_a_circle(user: User) -> bool:
    return CircleMember.objects.filter(user=user, role=CircleRole.ORGANIZER).exists()


def check_organizer(user: User) -> None:
    """403 unless she organizes at least one care circle (organizers pay for visits)."""
    if not organizes_a_circle(user):
        raise PermissionDenied(ORGANIZERS_ONLY)


# ---------------------------------------------------------------- saving and removing a card


def _customer_of(actor: User) -> SavedCard:
    """Her SavedCard row with a customer at the current gateway (created once, outside any transaction)."""
    gateway = get_card_gateway()
    card = SavedCard.objects.filter(user=actor).first()
    if card is not None and card.gateway == gateway.name:
        return card
    try:
        customer_id = gateway.customer_create(
            email=actor.email, idempotency_key=f"kindly-user-{actor.pk}-customer", metadata={"user_id": str(actor.pk)}
        )
    except GatewayError:
        raise PaymentGatewayUnavailable(SAVE_FAILED) from None
    with transaction.atomic():
        card, _ = SavedCard.objects.select_for_update().get_or_create(
            user=actor, defaults={"gateway": gateway.name, "customer_id": customer_id}
        )
        # The spec's User.stripeCustomerId: her customer at Stripe (the account export shows it).
        User.objects.filter(pk=actor.pk).update(stripe_customer_id=card.customer_id)
        if card.gateway != gateway.name:  # a card of another gateway can never be charged here
            card.gateway, card.customer_id = gateway.name, customer_id
            _clear(card)
            card.save()
    return card


def _clear(card: SavedCard) -> None:
    card.payment_method_id = card.brand = card.last4 = ""
    card.exp_month = card.exp_year = None
    card.setup_intent_id = card.setup_client_secret = ""
    card.saved_at = None


def card_setup_start(*, actor: User) -> SavedCard:
    """Start saving a card: a SetupIntent (off_session) on her customer, whose client secret the
    browser confirms with Stripe Elements. Returns her row (setup_client_secret)."""
    check_organizer(actor)
    card = _customer_of(actor)
    try:
        started = get_card_gateway().setup_start(
            customer_id=card.customer_id, idempotency_key=f"kindly-user-{actor.pk}-setup-{secrets.token_hex(8)}"
        )
    except GatewayError:
        raise PaymentGatewayUnavailable(SAVE_FAILED) from None
    SavedCard.objects.filter(pk=card.pk).update(
        setup_intent_id=started.setup_intent_id, setup_client_secret=started.client_secret, updated_at=timezone.now()
    )
    card.refresh_from_db()
    return card


def _card_record(*, actor: User, details: CardDetails) -> SavedCard:
    """Keep the saved card (replacing the one before, which is detached after the commit)."""
    with transaction.atomic():
        card = SavedCard.objects.select_for_update().get(user=actor)
        old = card.payment_method_id if card.payment_method_id != details.payment_method_id else ""
        card.payment_method_id = details.payment_method_id
        card.brand, card.last4 = details.brand, details.last4
        card.exp_month, card.exp_year = details.exp_month, details.exp_year
        card.setup_client_secret = ""
        card.saved_at = timezone.now()
        card.save()
    if old:
        _detach_quietly(old)
    return card


def _detach_quietly(payment_method_id: str) -> None:
    """The card replaced is taken off her customer; a failure is logged (Kindly never charges it again)."""
    try:
        get_card_gateway().detach(payment_method_id)
    except GatewayError as exc:
        logger.warning("Could not detach the replaced card %s: %s", payment_method_id, exc.message)


def card_setup_finish(*, actor: User, setup_intent_id: str) -> SavedCard:
    """After Stripe.js confirmed the SetupIntent: ask Stripe (server to server) which card it saved.
    Only Stripe's answer counts; the browser says only which setup it finished."""
    check_organizer(actor)
    card = SavedCard.objects.filter(user=actor).first()
    if card is None or not setup_intent_id or card.setup_intent_id != setup_intent_id:
        raise Conflict(gettext("This card was not being saved. Please start again."))
    try:
        details = get_card_gateway().setup_card(setup_intent_id)
    except GatewayError:
        raise PaymentGatewayUnavailable(SAVE_FAILED) from None
    if details is None or not details.payment_method_id:
        raise Conflict(gettext("Your card was not saved yet. Please try again."))
    return _card_record(actor=actor, details=details)


def card_test_save(*, actor: User, card_number: str, exp_month: int, exp_year: int) -> SavedCard:
    """The offline test gateway saves a card typed on the local form (404 unless it is active)."""
    if not is_test_gateway_active():
        raise NotFound(gettext("Not found."))
    check_organizer(actor)
    if not card_number_is_valid(card_number):
        message = gettext("Your card number is invalid.")
        raise InvalidInput(message, errors={"cardNumber": [message]})
    today = timezone.localdate()
    if not 1 <= exp_month <= 12 or (exp_year, exp_month) < (today.year, today.month):
        message = gettext("Your card has expired.")
        raise InvalidInput(message, errors={"expiry": [message]})
    details = TestCardGateway.test_card_details(card_number, exp_month=exp_month, exp_year=exp_year)
    if details is None:
        message = gettext("Your card was declined.")
        raise InvalidInput(message, errors={"cardNumber": [message]})
    _customer_of(actor)
    return _card_record(actor=actor, details=details)


def card_remove(*, actor: User) -> None:
    """Remove her card: detached at the gateway first (outside any transaction; a failure is a 502
    and nothing changes), then forgotten. Visits not charged yet go back to "Pay now"."""
    card = SavedCard.objects.filter(user=actor).first()
    if card is None or not card.ready:
        raise NotFound(NO_CARD)
    try:
        get_card_gateway().detach(card.payment_method_id)
    except GatewayError:
        raise PaymentGatewayUnavailable(REMOVE_FAILED) from None
    with transaction.atomic():
        card = SavedCard.objects.select_for_update().get(pk=card.pk)
        _clear(card)
        card.charge_every_booking = False
        card.save()
        VisitCharge.objects.filter(card=card, state=VisitChargeState.PENDING).update(
            state=VisitChargeState.CANCELLED, last_error="The card was removed.", updated_at=timezone.now()
        )


def card_forget_on_account_closure(*, user: User) -> None:
    """After an account closure has committed: the card is forgotten at once (never charged again)
    and then detached at the gateway, outside any transaction; a gateway failure is only logged."""
    with transaction.atomic():
        card = SavedCard.objects.select_for_update().filter(user=user).first()
        if card is None or not card.ready:
            return
        payment_method_id = card.payment_method_id
        _clear(card)
        card.charge_every_booking = False
        card.save()
        VisitCharge.objects.filter(card=card, state=VisitChargeState.PENDING).update(
            state=VisitChargeState.CANCELLED, last_error="The account was closed.", updated_at=timezone.now()
        )
    _detach_quietly(payment_method_id)


def card_set_preference(*, actor: User, charge_every_booking: bool) -> SavedCard:
    """ "Charge my saved card automatically" for her one-off bookings too (409 without a card)."""
    card = SavedCard.objects.filter(user=actor).first()
    if card is None or not card.ready:
        raise Conflict(gettext("Save a card first."))
    SavedCard.objects.filter(pk=card.pk).update(charge_every_booking=charge_every_booking, updated_at=timezone.now())
    card.refresh_from_db()
    return card


# ---------------------------------------------------------------- charging a visit


def _charge_open(booking: Booking, card: SavedCard) -> VisitCharge:
    """Record the visit's charge (pending) and charge it from Celery after the commit. Caller holds
    the booking's row lock and has checked it may be charged."""
    charge, _ = VisitCharge.objects.update_or_create(
        booking=booking,
        defaults={
            "card": card,
            "payer": card.user,
            "gateway": card.gateway,
            "state": VisitChargeState.PENDING,
            "card_label": card.label,
            "amount_cents": cents(booking.total_amount),
            "idempotency_key": visit_charge_key(booking.pk),
            "decline_code": "",
            "last_error": "",
        },
    )
    _enqueue_on_commit(booking.pk)
    return charge


def _enqueue_on_commit(booking_id: int) -> None:
    from payments.tasks import charge_visit

    # robust: the accept has committed; a broker down leaves the charge pending (Pay now stays hidden
    # until beat's sweep, payments.tasks.sweep_visit_charges, sends it again with the same key).
    transaction.on_commit(lambda: charge_visit.delay(booking_id), robust=True)


def on_visits_booked(event: VisitsBooked) -> None:
    """Subscriber of VisitsBooked, inside the accept's transaction: the visits the poster's saved card
    pays (each visit of a series; a one-off when she chose every booking) get their charge recorded,
    made after the commit. She must still organize the recipient's circle."""
    for booking in Booking.objects.select_related("client").filter(pk__in=event.booking_ids):
        card = SavedCard.objects.select_related("user").filter(user_id=booking.client_id).first()
        if card is None or not card.ready or card.gateway != get_card_gateway().name:
            continue
        if not (event.series or card.charge_every_booking):
            continue
        if not CircleMember.objects.filter(
            user_id=booking.client_id, recipient_id=booking.recipient_id, role=CircleRole.ORGANIZER
        ).exists():
            continue
        if cents(booking.total_amount) < MINIMUM_CHARGE_CENTS:
            continue
        _charge_open(booking, card)


def booking_auto_charge(*, actor: User, booking_id: int) -> VisitCharge:
    """ "Charge my saved card automatically" on one booking that waits for payment: charged now, off
    session, as a series' visit is. An organizer of its circle (404 / 403), a payable booking (409),
    her own saved card (409 without one)."""
    booking_for_payer(user=actor, booking_id=booking_id)
    card = SavedCard.objects.select_related("user").filter(user=actor).first()
    if card is None or not card.ready or card.gateway != get_card_gateway().name:
        raise Conflict(gettext("Save a card first in Settings."))
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        if not booking_is_payable(booking):
            raise Conflict(gettext("This booking does not wait for a payment."))
        existing = VisitCharge.objects.select_for_update().filter(booking=booking).first()
        if existing is not None and existing.state in CHARGE_UNDER_WAY:
            raise Conflict(WILL_BE_CHARGED)
        if existing is not None and existing.state in CHARGE_FIXABLE:
            raise Conflict(gettext("Your saved card was declined for this visit. Please pay on the payment page."))
        if cents(booking.total_amount) < MINIMUM_CHARGE_CENTS:
            raise Conflict(gettext("The total of this booking is below the smallest card payment ($0.50)."))
        return _charge_open(booking, card)


def check_not_auto_charged(booking: Booking) -> None:
    """409 while the visit's automatic charge is under way: it is not paid twice (checkout)."""
    if VisitCharge.objects.filter(booking=booking, state__in=CHARGE_UNDER_WAY).exists():
        raise Conflict(WILL_BE_CHARGED)


def visit_charge_send(*, booking_id: int, last_try: bool = True) -> str:
    """The Celery task's work: charge a pending visit charge off-session, record the answer.

    Three steps, no lock held while the gateway answers: check under the booking's lock and commit;
    charge (key visit-charge-<id>, the amount the server recorded); record in a short transaction.
    Returns "submitted" (Stripe's webhook confirms), "paid" (the test gateway), "declined", "retry",
    "failed" or "ignored" (nothing to charge: not pending, the visit cancelled or paid meanwhile).
    """
    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        charge = (
            VisitCharge.objects.select_for_update(of=("self",)).select_related("card").filter(booking=booking).first()
        )
        if charge is None or charge.state != VisitChargeState.PENDING:
            return "ignored"
        card = charge.card
        if not booking_is_payable(booking) or card is None or not card.ready or card.gateway != charge.gateway:
            charge.state = VisitChargeState.CANCELLED
            charge.save(update_fields=["state", "updated_at"])
            return "ignored"
        if charge.amount_cents != cents(booking.total_amount):  # the amount is the booking's, always
            charge.amount_cents = cents(booking.total_amount)
        charge.attempted_at = timezone.now()
        charge.save(update_fields=["amount_cents", "attempted_at", "updated_at"])
        customer_id, payment_method_id = card.customer_id, card.payment_method_id
    # Committed: the booking's row lock is released while the gateway answers.
    currency = settings.PAYMENTS_CURRENCY.lower()
    try:
        result = get_card_gateway().charge_off_session(
            amount_cents=charge.amount_cents,
            currency=currency,
            customer_id=customer_id,
            payment_method_id=payment_method_id,
            idempotency_key=charge.idempotency_key,
            metadata={"booking_id": str(booking_id), "client_id": str(charge.payer_id), "kind": "visit_charge"},
        )
    except GatewayError as exc:
        if not last_try:
            logger.warning("Charge of booking %s: the gateway failed (%s); trying again", booking_id, exc.message)
            return "retry"
        with transaction.atomic():
            booking = booking_lock(booking_id=booking_id)
            VisitCharge.objects.filter(pk=charge.pk, state=VisitChargeState.PENDING).update(
                state=VisitChargeState.FAILED, last_error=exc.message, updated_at=timezone.now()
            )
            _tell_declined(booking, charge, reason="")
        return "failed"

    with transaction.atomic():
        booking = booking_lock(booking_id=booking_id)
        charge = VisitCharge.objects.select_for_update().get(pk=charge.pk)
        charge.intent_id = result.intent_id
        # The intent is the booking's payment intent: the webhook finds the booking by it, and the
        # checkout page confirms this same intent when the charge must be fixed.
        PaymentIntent.objects.update_or_create(
            booking=booking,
            defaults={
                "gateway": charge.gateway,
                "intent_id": result.intent_id,
                "client_secret": result.client_secret,
                "amount_cents": charge.amount_cents,
                "currency": currency,
                "idempotency_key": charge.idempotency_key,
                "last_error": result.message,
                "payer": charge.payer,
            },
        )
        booking.payment_intent_id = result.intent_id
        booking.save(update_fields=["payment_intent_id", "updated_at"])
        if result.outcome == CHARGE_DECLINED:
            _declined(booking, charge, code=result.code, message=result.message)
            return "declined"
        charge.state = VisitChargeState.SUBMITTED
        charge.save(update_fields=["state", "intent_id", "updated_at"])
    if result.outcome == CHARGE_SUCCEEDED and charge.gateway == TestCardGateway.name:
        # The test gateway sends no webhook: it says the outcome itself, as payment_test_confirm does.
        payment_succeeded(payment_intent_id=result.intent_id, card_last4=charge.card_label[-4:], payer=charge.payer)
        return "paid"
    return "submitted"


def _declined(booking: Booking, charge: VisitCharge, *, code: str, message: str) -> None:
    """The bank refused (or wants the card holder): the booking waits for payment, she alone is told.
    Caller holds the booking's row lock and the charge's."""
    charge.state = VisitChargeState.ACTION_NEEDED if code == AUTHENTICATION_REQUIRED else VisitChargeState.FAILED
    charge.decline_code, charge.last_error = code[:64], message
    charge.save(update_fields=["state", "intent_id", "decline_code", "last_error", "updated_at"])
    booking_payment_failed(payment_intent_id=charge.intent_id, message=message, payer=charge.payer, notify=False)
    _tell_declined(booking, charge, reason=_reason_words(code))


def _reason_words(code: str) -> str:
    if code == AUTHENTICATION_REQUIRED:
        return gettext("Your bank asks you to confirm this payment.")
    return gettext("Your bank declined the payment.")


def _tell_declined(booking: Booking, charge: VisitCharge, *, reason: str) -> None:
    tell(
        NoticeKind.CARD_CHARGE_FAILED,
        booking,
        payer=charge.payer,
        card=charge.card_label,
        reason=reason,
        booking_id=booking.pk,
    )


def visit_charge_failed_event(*, intent_id: str, code: str, message: str) -> str | None:
    """Stripe's payment_intent.payment_failed for a visit's automatic charge (inside the event's
    transaction): the decline is recorded and told once, however often Stripe says it (a failed
    attempt on the checkout page is seen there). None: not an automatic charge's intent."""
    charge = VisitCharge.objects.filter(intent_id=intent_id).first() if intent_id else None
    if charge is None:
        return None
    booking = booking_lock(booking_id=charge.booking_id)
    charge = VisitCharge.objects.select_for_update().get(pk=charge.pk)
    if charge.state not in CHARGE_UNDER_WAY or booking.payment_intent_id != intent_id:
        return "ignored"
    _declined(booking, charge, code=code or "card_declined", message=message)
    return "failed"


def visit_charges_unsent(*, now) -> list[int]:
    """Charges still pending 10 minutes after they were recorded (a task lost with the broker)."""
    return list(
        VisitCharge.objects.filter(
            state=VisitChargeState.PENDING, created_at__lt=now - dt.timedelta(minutes=10)
        ).values_list("booking_id", flat=True)
    )
