"""Email delivery end to end: real Celery worker on Redis, real SMTP server (aiosmtpd), PostgreSQL.

Nothing runs eagerly: the state change commits, its deliveries are enqueued on commit, the worker
thread sends them through Django's SMTP backend, and the test reads the SMTP server's inbox.
"""

from __future__ import annotations

import datetime as dt
import os
import subprocess
import sys
import time
import zoneinfo

import pytest
import time_machine
from celery.contrib.testing.worker import start_worker
from django.conf import settings
from django.db import close_old_connections, transaction
from django.test import Client

from accounts.tests.factories import UserFactory
from bookings.models import Booking
from bookings.services import service_request_accept
from bookings.tests.factories import BookingFactory
from core.notifications import NoticeKind, notify
from marketplace.celery import app as celery_app
from marketplace.testing.celery import database_url, wait_for_worker, wait_until
from marketplace.testing.mail import body_html, body_text, header
from messaging.services import conversation_mark_read, message_send
from notifications import services, tasks
from notifications.models import Delivery, DeliveryStatus, Event
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# The facts of two notices (their words come from core.notices).
EXPIRED = {"title": "Tea", "day": "March 3, 2026"}
CANCELLED = {"how": "support", "title": "Tea", "when": "Monday", "reason": "Rain", "by": "Kindly support"}

ZONE = zoneinfo.ZoneInfo(settings.SITE_TIME_ZONE)


def test_accept_reaches_the_clients_inbox(celery_worker, smtp_server, client_user, verified_provider):
    service_request = ServiceRequestFactory(client=client_user, title="Set up my tablet")
    booking = service_request_accept(service_request_id=service_request.pk, actor=verified_provider.user)

    [message] = smtp_server.wait_for(1)
    assert message["To"] == client_user.email
    assert message["Subject"] == "Vera accepted your request"
    text, html = body_text(message), body_html(message)
    weekday = booking.scheduled_date.strftime("%A")
    assert f"Visit: {weekday}, " in text and "8:00 AM" in text
    assert f"Total: ${booking.total_amount}." in text
    assert f"Pay now: {settings.SITE_URL}/checkout/{booking.pk}" in text
    assert f'href="{settings.SITE_URL}/checkout/{booking.pk}"' in html
    assert "You received this email because you asked Kindly for help" in text
    assert header(message, "List-Unsubscribe").startswith(f"<{settings.SITE_URL}/unsubscribe/")
    assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    delivery = Delivery.objects.get(recipient=client_user)
    assert wait_until(lambda: Delivery.objects.filter(pk=delivery.pk, status=DeliveryStatus.SENT).exists())
    # The provider's own notice ("You accepted ...") is in-app only.
    wait_for_worker()
    assert len(smtp_server.messages) == 1


def test_visit_reminder_24_hours_before_once(celery_worker, smtp_server, client_user, verified_provider):
    visit_day = dt.date.today() + dt.timedelta(days=10)
    booking = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, preferred_date=visit_day, title="Groceries"),
        provider=verified_provider,
        status="confirmed",
    )
    start = dt.datetime.combine(visit_day, dt.time(8, 0), tzinfo=ZONE)

    with time_machine.travel(start - dt.timedelta(hours=25)):
        tasks.send_visit_reminders.delay()
        wait_for_worker()
    assert smtp_server.messages == []

    with time_machine.travel(start - dt.timedelta(hours=23, minutes=55)):
        tasks.send_visit_reminders.delay()
        messages = smtp_server.wait_for(2)
        tasks.send_visit_reminders.delay()  # the next beat run finds the same visit
        wait_for_worker()
    assert len(smtp_server.messages) == 2
    assert {m["To"] for m in messages} == {client_user.email, verified_provider.user.email}
    assert {m["Subject"] for m in messages} == {"Reminder: your visit is tomorrow"}
    assert f"When: {visit_day:%A, %B} {visit_day.day}" in body_text(messages[0])
    assert Event.objects.filter(kind=NoticeKind.VISIT_REMINDER, booking=booking).count() == 1
    # Both still get the in-app notice, once.
    assert booking.messages.filter(content__startswith="Reminder:").count() == 2


def _five_messages(provider_user, client_user, booking):
    for i in range(5):
        message_send(sender=provider_user, receiver_id=client_user.pk, content=f"Hello {i}", booking_id=booking.pk)


def test_five_unread_messages_make_one_email(celery_worker, smtp_server, client_user, verified_provider):
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)
    _five_messages(verified_provider.user, client_user, booking)

    tasks.send_message_digests.delay()  # not quiet for 10 minutes yet
    wait_for_worker()
    assert smtp_server.messages == []
    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + dt.timedelta(minutes=11)):
        tasks.send_message_digests.delay()
        [message] = smtp_server.wait_for(1)
        tasks.send_message_digests.delay()
        wait_for_worker()
    assert len(smtp_server.messages) == 1
    assert message["To"] == client_user.email
    assert message["Subject"] == "Vera sent you 5 messages"


def test_no_email_when_the_messages_are_read_within_10_minutes(
    celery_worker, smtp_server, client_user, verified_provider
):
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)
    _five_messages(verified_provider.user, client_user, booking)
    conversation_mark_read(user=client_user, other=verified_provider.user)

    with time_machine.travel(dt.datetime.now(tz=dt.UTC) + dt.timedelta(minutes=11)):
        tasks.send_message_digests.delay()
        wait_for_worker()
    assert smtp_server.messages == []
    assert not Event.objects.filter(kind=NoticeKind.UNREAD_MESSAGES).exists()


def test_unsubscribe_link_stops_that_kind_only(celery_worker, smtp_server, client_user, verified_provider):
    booking = BookingFactory(service_request=ServiceRequestFactory(client=client_user), provider=verified_provider)
    notify(receivers=[client_user], notice=NoticeKind.BOOKING_CANCELLED, facts=CANCELLED, booking=booking)
    [first] = smtp_server.wait_for(1)
    link = header(first, "List-Unsubscribe").strip("<>")

    # One click, no sign-in: what a mail app sends (RFC 8058).
    response = Client().post(
        link.removeprefix(settings.SITE_URL), data="List-Unsubscribe=One-Click", content_type="text/plain"
    )
    assert response.status_code == 200
    assert b"You are unsubscribed" in response.content

    notify(receivers=[client_user], notice=NoticeKind.BOOKING_CANCELLED, facts=CANCELLED, booking=booking)
    notify(
        receivers=[client_user],
        notice=NoticeKind.BOOKING_REASSIGNED,
        facts={"title": "Tea", "when": "Monday", "new_name": "Ana Helper"},
        booking=booking,
    )
    smtp_server.wait_for(2)
    wait_for_worker()
    assert [m["Subject"] for m in smtp_server.messages] == [
        "A booking was cancelled",
        "Your booking has a new provider",
    ]


def test_mail_server_down_for_30_seconds_then_up_delivers_once(celery_worker, smtp_server, client_user, settings):
    settings.NOTIFICATIONS_MAX_RETRIES = 30  # backoff capped at 2 s in tests: 30 tries outlast 30 s
    smtp_server.stop()
    down_at = time.monotonic()
    with transaction.atomic():
        notify(receivers=[client_user], notice=NoticeKind.APPLICATION_DECIDED, facts={"status": "verified"})
    delivery = Delivery.objects.get()
    wait_until(lambda: Delivery.objects.filter(pk=delivery.pk, attempts__gte=3).exists())
    delivery.refresh_from_db()
    assert delivery.status in (DeliveryStatus.RETRYING, DeliveryStatus.SENDING)
    assert "Connection refused" in delivery.last_error

    time.sleep(max(0.0, 30 - (time.monotonic() - down_at)))
    smtp_server.start()
    [message] = smtp_server.wait_for(1, timeout=20)
    assert message["Subject"] == "Your provider application was approved"
    wait_until(lambda: Delivery.objects.filter(pk=delivery.pk, status=DeliveryStatus.SENT).exists())
    wait_for_worker()
    assert len(smtp_server.messages) == 1


def test_after_the_last_try_the_delivery_is_failed_and_shown_in_the_admin(
    celery_worker, smtp_server, client_user, admin_user, settings
):
    settings.NOTIFICATIONS_MAX_RETRIES = 2
    smtp_server.stop()
    notify(receivers=[client_user], notice=NoticeKind.REQUEST_EXPIRED, facts=EXPIRED)
    delivery = Delivery.objects.get()
    wait_until(lambda: Delivery.objects.filter(pk=delivery.pk, status=DeliveryStatus.FAILED).exists())
    delivery.refresh_from_db()
    assert delivery.attempts == 3
    assert delivery.last_error

    browser = Client()
    browser.force_login(admin_user)
    page = browser.get("/django-admin/notifications/delivery/?status__exact=failed")
    assert page.status_code == 200
    assert client_user.full_name.encode() in page.content
    assert b"Failed after the last try" in page.content


def test_a_task_run_twice_sends_once(celery_worker, smtp_server, client_user):
    # The same event found twice records one delivery; its task enqueued again sends nothing more.
    for _ in range(2):
        services.event_record(
            kind=NoticeKind.REQUEST_EXPIRED, receivers=[client_user], text="x", key="same", context={"title": "Tea"}
        )
    delivery = Delivery.objects.get()
    tasks.send_delivery.delay(delivery.pk)
    tasks.send_delivery.delay(delivery.pk)
    smtp_server.wait_for(1)
    wait_for_worker()
    assert len(smtp_server.messages) == 1
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.SENT, 1)


def test_a_worker_killed_mid_batch_sends_no_duplicate(smtp_server, transactional_db, settings):
    """A worker process is killed (SIGKILL) while it sends a batch of 30; another worker takes over
    (the tasks left in the queue, and the sweep for the delivery the dead one held): every person
    gets their email exactly once."""
    smtp_server.inbox.delay = 0.15  # a slow mail server, so that the kill lands mid-batch
    celery_app.control.purge()
    people = UserFactory.create_batch(30)
    services.event_record(
        kind=NoticeKind.REQUEST_EXPIRED, receivers=people, text="x", key="batch", context={"title": "Tea"}
    )
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "marketplace.settings.test",
        "DATABASE_URL": database_url(),
        "EMAIL_URL": f"smtp://{smtp_server.host}:{smtp_server.port}",
    }
    worker = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "marketplace", "worker", "--pool", "solo", "--concurrency", "1",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "ERROR"],
        env=env, cwd=settings.BASE_DIR, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        smtp_server.wait_for(8, timeout=90)
    finally:
        worker.kill()
        worker.wait()
    sent_before = len(smtp_server.messages)
    assert sent_before < 30

    settings.NOTIFICATIONS_RETRY_BASE = 0.5
    with start_worker(celery_app, pool="solo", perform_ping_check=False, shutdown_timeout=30):
        wait_until(lambda: not Delivery.objects.filter(status=DeliveryStatus.PENDING).exists(), timeout=60)
        # The one the killed worker held stays "sending" until its lease ends; then the sweep sends
        # it again if it had not reached the mail server yet, or settles it as "maybe sent" if it had.
        with time_machine.travel(dt.datetime.now(tz=dt.UTC) + services.SENDING_LEASE + dt.timedelta(minutes=1)):
            tasks.resend_stuck_deliveries.delay()
            wait_until(
                lambda: not Delivery.objects.exclude(status__in=[DeliveryStatus.SENT, DeliveryStatus.UNKNOWN]).exists(),
                timeout=60,
            )
        time.sleep(2)
    close_old_connections()
    recipients = [m["To"] for m in smtp_server.messages]
    assert len(recipients) == len(set(recipients))  # no one twice
    assert len({m["Message-ID"] for m in smtp_server.messages}) == len(recipients)
    sent = set(Delivery.objects.filter(status=DeliveryStatus.SENT).values_list("recipient__email", flat=True))
    maybe = set(Delivery.objects.filter(status=DeliveryStatus.UNKNOWN).values_list("recipient__email", flat=True))
    assert len(maybe) <= 1  # only the one the killed worker was sending
    assert sent <= set(recipients) and set(recipients) <= sent | maybe
    assert len(sent) + len(maybe) == 30


def test_the_mail_server_is_called_outside_any_transaction(celery_worker, smtp_server, client_user, verified_provider):
    # While the worker waits for the mail server, another connection can lock the booking and the
    # delivery at once (NOWAIT): the worker holds no transaction, no row lock across the call.
    seen = []

    def look_from_another_connection():
        from django.db import connection

        try:
            with transaction.atomic():
                delivery = Delivery.objects.select_for_update(nowait=True).get(recipient=client_user)
                Booking.objects.select_for_update(nowait=True).get(pk=delivery.event.booking_id)
                seen.append(delivery.status)
        finally:
            connection.close()

    smtp_server.inbox.on_data = look_from_another_connection
    service_request = ServiceRequestFactory(client=client_user)
    service_request_accept(service_request_id=service_request.pk, actor=verified_provider.user)
    smtp_server.wait_for(1)
    assert seen == [DeliveryStatus.SENDING]
