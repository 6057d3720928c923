"""Which events the state changes and the scheduled jobs record, for whom, and what their emails say.

(Delivery itself, on a real worker and SMTP server, is in test_delivery_worker.py.)
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import AdminUserFactory
from bookings.models import PaymentStatus
from bookings.services import booking_cancel_by_client, booking_payment_succeeded
from bookings.tests.factories import BookingFactory
from core.notifications import NoticeKind
from marketplace.testing.vetting import with_evidence
from messaging.services import conversation_mark_read, message_send
from notifications import channels, services
from notifications.kinds import Frequency
from notifications.models import Delivery, Event
from providers.services import provider_set_status
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def text_of(user, kind) -> str:
    delivery = Delivery.objects.get(recipient=user, event__kind=kind, channel="email")
    return channels.email_message(delivery).body


def test_cancel_of_a_paid_booking_tells_both_by_whom_why_and_the_refund(client_user, verified_provider):
    booking = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Tablet"),
        provider=verified_provider,
        status="confirmed",
        payment_status=PaymentStatus.PAID,
        total_amount=Decimal("45.00"),
    )
    booking_cancel_by_client(booking_id=booking.pk, actor=client_user, reason="My daughter will help instead.")

    client_text = text_of(client_user, NoticeKind.BOOKING_CANCELLED)
    assert "Cancelled by: you." in client_text
    assert "Reason: My daughter will help instead." in client_text
    assert "Refund: $45.00, in full" in client_text
    provider_text = text_of(verified_provider.user, NoticeKind.BOOKING_CANCELLED)
    assert "Cancelled by: the client." in provider_text
    assert "Refund" not in provider_text


def test_payment_sends_the_client_a_receipt_and_the_provider_a_confirmation(client_user, verified_provider):
    booking = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, title="Tablet"),
        provider=verified_provider,
        payment_intent_id="pi_123",
        total_amount=Decimal("30.00"),
    )
    assert booking_payment_succeeded(payment_intent_id="pi_123") == "paid"
    receipt = text_of(client_user, NoticeKind.PAYMENT_RECEIVED)
    assert "Amount: $30.00." in receipt
    assert "Booking: \u201cTablet\u201d with Vera." in receipt
    assert f"{booking.scheduled_date:%A}" in receipt
    assert Delivery.objects.filter(recipient=verified_provider.user, event__kind=NoticeKind.BOOKING_PAID).exists()


def test_application_decision_is_emailed(admin_user):
    provider = with_evidence(ProviderFactory())
    provider_set_status(provider_id=provider.pk, actor=admin_user, status="verified")
    delivery = Delivery.objects.get(recipient=provider.user)
    assert channels.email_message(delivery).subject == "Your provider application was approved"


def test_visit_reminder_only_within_24_hours(client_user, verified_provider):
    now = timezone.now()
    soon = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, preferred_date=(now + dt.timedelta(days=1)).date()),
        provider=verified_provider,
        status="confirmed",
    )
    BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, preferred_date=(now + dt.timedelta(days=4)).date()),
        provider=verified_provider,
        status="confirmed",
    )
    at = soon.visit_start - dt.timedelta(hours=2)
    assert services.visit_reminders_send(now=at) == 1
    assert services.visit_reminders_send(now=at) == 0
    assert set(Event.objects.values_list("kind", "booking")) == {(NoticeKind.VISIT_REMINDER, soon.pk)}


def test_a_new_burst_after_reading_gets_its_own_email(client_user, verified_provider):
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)
    message_send(sender=verified_provider.user, receiver_id=client_user.pk, content="Hi", booking_id=booking.pk)
    later = timezone.now() + dt.timedelta(minutes=11)
    assert services.message_digests_send(now=later) == 1
    assert services.message_digests_send(now=later) == 0
    conversation_mark_read(user=client_user, other=verified_provider.user)
    message_send(sender=verified_provider.user, receiver_id=client_user.pk, content="Again", booking_id=booking.pk)
    assert services.message_digests_send(now=later + dt.timedelta(minutes=11)) == 1
    assert Event.objects.filter(kind=NoticeKind.UNREAD_MESSAGES).count() == 2


def test_providers_hear_of_matching_requests_as_they_chose(client_user):
    daily = VerifiedProviderFactory(specialties=["tech-support"])
    instant = VerifiedProviderFactory(specialties=["tech-support"])
    off = VerifiedProviderFactory(specialties=["tech-support"])
    other_trade = VerifiedProviderFactory(specialties=["light-errands"])
    services.contact_set(user=instant.user, new_requests=Frequency.INSTANT)
    services.contact_set(user=off.user, new_requests=Frequency.OFF)
    ServiceRequestFactory.create_batch(2, client=client_user)  # tech-support
    now = timezone.now()

    assert services.new_request_notices_send(now=now, frequency=Frequency.INSTANT) == 2
    assert services.new_request_notices_send(now=now, frequency=Frequency.DAILY) == 1
    assert services.new_request_notices_send(now=now, frequency=Frequency.DAILY) == 0  # at most one a day
    by_user = {}
    for d in Delivery.objects.select_related("event"):
        by_user.setdefault(d.recipient_id, []).append(d.event)
    assert len(by_user[instant.user_id]) == 2
    [summary] = by_user[daily.user_id]
    assert len(summary.context["requests"]) == 2
    assert off.user_id not in by_user and other_trade.user_id not in by_user


def test_providers_hear_only_of_requests_they_could_take(client_user):
    """The rule of the open requests a helper is shown: not on a day she does not work, nor on her time off."""
    from providers.models import TimeOff, WeeklyHours

    weekdays = VerifiedProviderFactory(specialties=["tech-support"])
    WeeklyHours.objects.bulk_create(
        WeeklyHours(provider=weekdays, weekday=d, start_time=dt.time(8), end_time=dt.time(17)) for d in range(5)
    )
    away = VerifiedProviderFactory(specialties=["tech-support"])
    for provider in (weekdays, away):
        services.contact_set(user=provider.user, new_requests=Frequency.INSTANT)
    today = timezone.localdate()
    sunday = today + dt.timedelta(days=14 + (6 - today.weekday()) % 7)
    TimeOff.objects.create(provider=away, first_day=sunday, last_day=sunday)
    ServiceRequestFactory(client=client_user, preferred_date=sunday, preferred_time="morning")
    assert services.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 0
    ServiceRequestFactory(client=client_user, preferred_date=sunday + dt.timedelta(days=1), preferred_time="morning")
    assert services.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 2


def test_admins_get_a_daily_digest_of_waiting_applications():
    admin = AdminUserFactory()
    now = timezone.now()
    assert services.provider_application_digest_send(now=now) is False  # nothing waiting
    ProviderFactory(user__first_name="Penny", user__last_name="Pending")
    assert services.provider_application_digest_send(now=now) is True
    assert services.provider_application_digest_send(now=now) is False  # once a day
    delivery = Delivery.objects.get(recipient=admin)
    email = channels.email_message(delivery)
    assert email.subject == "1 provider application waiting for review"
    assert "Penny Pending" in email.body
