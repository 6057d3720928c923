"""A paid booking moves with its payment when its helper is replaced: no second charge, and the
helper's share is transferred to the one who made the visit, never to the one who left. Stripe is the
fake at the HTTP boundary behind the official SDK; transfers run on commit (transactional tests)."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings import services
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from payments.models import Earning, PayoutState
from payments.tests.test_payouts import ACCOUNT_ON, complete, connect, pay
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import TimeWindow

pytestmark = pytest.mark.django_db(transaction=True)

HOME = (39.7817, -89.6501)


def test_the_new_helper_is_paid_for_the_visit_and_the_family_is_charged_once(stripe_backend, api_as, client_user):
    vera = VerifiedProviderFactory(user__first_name="Vera", latitude=HOME[0], longitude=HOME[1], travel_miles=25)
    ana = VerifiedProviderFactory(user__first_name="Ana", latitude=HOME[0] + 0.01, longitude=HOME[1], travel_miles=25)
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=1),
        service_request__preferred_time=TimeWindow.AFTERNOON,
        provider=vera,
        total_amount=Decimal("45.50"),
    )
    recipient = booking.recipient
    recipient.latitude, recipient.longitude = HOME
    recipient.save(update_fields=["latitude", "longitude"])
    vera_account = connect(stripe_backend, api_as, vera, **ACCOUNT_ON)
    ana_account = connect(stripe_backend, api_as, ana, **ACCOUNT_ON)
    pay(stripe_backend, booking, api_as)
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    intent = booking.payment_intent_id
    charges = len(stripe_backend.posts("/v1/payment_intents"))

    services.booking_cancel_by_provider(booking_id=booking.pk, actor=vera.user, reason="I am unwell.")
    services.booking_replacement_accept(booking_id=booking.pk, actor=ana.user)

    booking.refresh_from_db()
    assert (booking.provider_id, booking.status, booking.payment_status) == (
        ana.pk,
        BookingStatus.CONFIRMED,
        PaymentStatus.PAID,
    )
    assert booking.payment_intent_id == intent
    assert len(stripe_backend.posts("/v1/payment_intents")) == charges  # no second charge
    assert stripe_backend.posts("/v1/refunds") == []
    # The visit takes place (moved to yesterday to be completed now): Ana's share goes to Ana.
    booking.scheduled_date = timezone.localdate() - dt.timedelta(days=1)
    booking.save(update_fields=["scheduled_date"])
    complete(booking, api_as)
    [earning] = Earning.objects.filter(booking=booking)
    assert earning.state == PayoutState.ON_ITS_WAY
    [transfer] = stripe_backend.posts("/v1/transfers")
    assert transfer.params["destination"] == ana_account.account_id != vera_account.account_id
    assert transfer.params["amount"] == str(int(earning.net * 100))
