"""Text messages through Twilio's SDK, faked at its HTTP boundary (marketplace/testing/twilio.py), sent
by a real Celery worker: opt-in only, STOP respected, off unless Twilio is configured."""

from __future__ import annotations

import pytest

from core.notifications import NoticeKind, notify
from marketplace.testing.celery import wait_until
from notifications import services
from notifications.models import Contact, Delivery, DeliveryStatus

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def opt_in(user, phone="555-123-4567"):
    services.notification_settings_set(
        user=user,
        choices=[
            {"kind": NoticeKind.REQUEST_EXPIRED, "channel": "sms", "enabled": True},
            {"kind": NoticeKind.REQUEST_EXPIRED, "channel": "email", "enabled": False},
        ],
        phone=phone,
    )


def expire(user, title="Tea"):
    notify(receivers=[user], notice=NoticeKind.REQUEST_EXPIRED, facts={"title": title, "day": "March 3, 2026"})


def test_an_opted_in_number_gets_a_text(celery_worker, fake_twilio, client_user):
    opt_in(client_user)
    expire(client_user)
    [sms] = wait_until(lambda: list(fake_twilio.sent))
    assert sms["To"] == "+15551234567"
    assert sms["From"] == "+15005550006"
    assert sms["Body"].startswith(
        'Kindly: The request "Tea" was cancelled because its preferred date (March 3, 2026) has passed'
    )
    assert "Reply STOP" in sms["Body"]
    assert sms["authorization"].startswith("Basic ")
    wait_until(lambda: Delivery.objects.filter(channel="sms", status=DeliveryStatus.SENT).exists())


def test_a_number_that_answered_stop_gets_nothing_more(celery_worker, fake_twilio, client_user):
    opt_in(client_user)
    fake_twilio.opted_out.add("+15551234567")
    expire(client_user)
    wait_until(lambda: Delivery.objects.filter(channel="sms", status=DeliveryStatus.SKIPPED).exists())
    assert Contact.objects.get(user=client_user).phone_opted_out_at is not None
    expire(client_user, "Again")
    assert Delivery.objects.filter(channel="sms").count() == 1  # no delivery for the opted-out number
    assert fake_twilio.sent == []


def test_twilio_failing_is_retried(celery_worker, fake_twilio, client_user):
    opt_in(client_user)
    fake_twilio.fail_next.extend([500, 503])
    expire(client_user)
    wait_until(lambda: list(fake_twilio.sent))
    delivery = wait_until(lambda: Delivery.objects.filter(channel="sms", status=DeliveryStatus.SENT).first())
    assert delivery.attempts == 3
    assert len(fake_twilio.sent) == 1


def test_no_texts_unless_twilio_is_configured(celery_worker, client_user, settings):
    settings.TWILIO_ACCOUNT_SID = ""
    opt_in(client_user)
    expire(client_user)
    assert not Delivery.objects.filter(channel="sms").exists()


@pytest.mark.parametrize(("word", "opted_out"), [("STOP", True), ("stop ", True), ("Thanks!", False)])
def test_an_incoming_stop_opts_the_number_out(client_user, fake_twilio, word, opted_out):
    from django.test import Client
    from twilio.request_validator import RequestValidator

    opt_in(client_user)
    url = "http://testserver/api/notifications/twilio/inbound"
    params = {"From": "+15551234567", "To": "+15005550006", "Body": word}
    signature = RequestValidator("test-auth-token").compute_signature(url, params)
    response = Client().post(url, params, headers={"X-Twilio-Signature": signature})
    assert response.status_code == 200
    assert (Contact.objects.get(user=client_user).phone_opted_out_at is not None) is opted_out


def test_an_unsigned_inbound_text_changes_nothing(client_user, fake_twilio):
    from django.test import Client

    opt_in(client_user)
    params = {"From": "+15551234567", "Body": "STOP"}
    response = Client().post("/api/notifications/twilio/inbound", params, headers={"X-Twilio-Signature": "forged"})
    assert response.status_code == 403
    assert Contact.objects.get(user=client_user).phone_opted_out_at is None
