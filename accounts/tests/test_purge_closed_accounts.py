"""manage.py purge_closed_accounts: 30 days after closing, personal data is erased while the other
party's booking history (amount, date, status, payment ids) stays readable."""

from __future__ import annotations

import datetime as dt
import io
from decimal import Decimal

import pytest
import time_machine
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from firebase_admin import auth

from accounts.firebase import get_app
from accounts.models import EmergencyContact, User
from accounts.tests.factories import EmergencyContactFactory
from bookings.models import BookingStatus, PaymentStatus, Review
from bookings.tests.factories import BookingFactory, ReviewFactory
from marketplace.account_lifecycle.services import FORMER_MEMBER_NAME, account_close
from marketplace.testing.firebase import emulator_user
from messaging.models import Message
from messaging.tests.factories import MessageFactory
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.services import service_request_delete
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def run(*args: str) -> str:
    out = io.StringIO()
    call_command("purge_closed_accounts", *args, stdout=out, stderr=out)
    return out.getvalue()


def firebase_has(uid: str) -> bool:
    try:
        auth.get_user(uid, app=get_app())
    except auth.UserNotFoundError:
        return False
    return True


@pytest.fixture
def closed_ann(firebase_auth, verified_provider):
    """Ann (a real emulator account) had a completed, paid visit with Vera, then closed her account."""
    uid = emulator_user("ann@example.com", "purge-pass-1", "Ann Archer")
    ann = User.objects.create_user(id=uid, email="ann@example.com", first_name="Ann", last_name="Archer")
    visit = BookingFactory(
        service_request__client=ann,
        service_request__title="Tablet help",
        service_request__location="1 Ann Street",
        service_request__status=RequestStatus.COMPLETED,
        provider=verified_provider,
        scheduled_date=timezone.localdate() - dt.timedelta(days=3),
        status=BookingStatus.COMPLETED,
        payment_status=PaymentStatus.PAID,
        payment_intent_id="pi_test_kept",
        total_amount=Decimal("45.50"),
    )
    ReviewFactory(booking=visit, comment="Vera was lovely.", rating=4)
    MessageFactory(sender=ann, receiver=verified_provider.user, booking=visit, content="My door code is 1234")
    MessageFactory(sender=verified_provider.user, receiver=ann, booking=visit, content="Thanks Ann, see you")
    EmergencyContactFactory(user=ann, name="Dora Archer")
    unbooked = ServiceRequestFactory(client=ann, title="Never booked")
    deleted = ServiceRequestFactory(client=ann, title="Deleted one", description="Ann's hip is sore")
    service_request_delete(service_request_id=deleted.pk, actor=ann)
    account_close(user=ann, confirmation="CLOSE")
    ann.refresh_from_db()
    return {"ann": ann, "visit": visit, "provider": verified_provider, "unbooked": unbooked, "deleted": deleted}


def test_29_days_after_closing_nothing_is_purged(closed_ann):
    ann = closed_ann["ann"]

    with time_machine.travel(ann.closed_at + dt.timedelta(days=29, hours=23), tick=False):
        output = run()

    assert "No account closed 30 or more days ago" in output
    ann.refresh_from_db()
    assert (ann.first_name, ann.email, ann.purged_at) == ("Ann", "ann@example.com", None)
    assert firebase_has(ann.pk)
    assert EmergencyContact.objects.filter(user=ann).exists()
    assert Message.objects.filter(sender=ann, content="My door code is 1234").exists()


def test_30_days_after_closing_the_account_is_anonymised_and_the_history_stays(closed_ann):
    ann, visit, provider = closed_ann["ann"], closed_ann["visit"], closed_ann["provider"]

    with time_machine.travel(ann.closed_at + dt.timedelta(days=30), tick=False):
        output = run()
        viewer = Client()
        viewer.force_login(provider.user)
        bookings = viewer.get("/api/bookings").json()

    assert f"purged account {ann.pk}" in output
    ann.refresh_from_db()
    assert (ann.first_name, ann.last_name, ann.email) == (FORMER_MEMBER_NAME, "", f"closed-{ann.pk}@invalid")
    assert ann.purged_at is not None and ann.is_active is False
    assert not firebase_has(ann.pk)
    assert not EmergencyContact.objects.filter(user=ann).exists()
    assert not ServiceRequest.objects.filter(pk=closed_ann["unbooked"].pk).exists()
    # The trace staff kept of a request she deleted goes with the rest.
    assert not ServiceRequest.all_objects.filter(pk=closed_ann["deleted"].pk).exists()
    assert not Message.objects.filter(receiver=ann, sender__isnull=True).exists()
    assert list(Message.objects.filter(sender=ann).values_list("content", flat=True)) == ["[deleted]"]
    assert Message.objects.filter(sender=provider.user, receiver=ann, content="Thanks Ann, see you").exists()
    review = Review.objects.get(booking=visit)
    assert (review.rating, review.comment) == (4, "")
    # The provider's booking history: amount, date, status and payment intact; the client unnamed.
    [row] = [b for b in bookings if b["id"] == visit.pk]
    assert row["totalAmount"] == 45.5
    assert row["scheduledDate"] == visit.scheduled_date.isoformat()
    assert (row["status"], row["paymentStatus"]) == ("completed", "paid")
    assert row["client"]["firstName"] == FORMER_MEMBER_NAME
    assert "ann@example.com" not in str(row) and "1 Ann Street" not in str(row)
    assert row["serviceRequest"]["title"] == "Tablet help"
    visit.refresh_from_db()
    assert (visit.payment_intent_id, visit.total_amount) == ("pi_test_kept", Decimal("45.50"))


def test_purging_again_changes_nothing(closed_ann):
    ann = closed_ann["ann"]
    with time_machine.travel(ann.closed_at + dt.timedelta(days=30), tick=False):
        run()
    ann.refresh_from_db()
    snapshot = (ann.updated_at, ann.purged_at, ann.email)

    with time_machine.travel(ann.closed_at + dt.timedelta(days=31), tick=False):
        output = run()

    assert "No account closed 30 or more days ago" in output
    ann.refresh_from_db()
    assert (ann.updated_at, ann.purged_at, ann.email) == snapshot


def test_dry_run_lists_the_account_and_changes_nothing(closed_ann):
    ann = closed_ann["ann"]
    messages = list(Message.objects.order_by("pk").values_list("pk", "content"))

    with time_machine.travel(ann.closed_at + dt.timedelta(days=45), tick=False):
        output = run("--dry-run")

    assert f"would purge account {ann.pk}" in output
    assert "nothing was changed" in output
    ann.refresh_from_db()
    assert (ann.first_name, ann.email, ann.purged_at) == ("Ann", "ann@example.com", None)
    assert firebase_has(ann.pk)
    assert list(Message.objects.order_by("pk").values_list("pk", "content")) == messages
    assert EmergencyContact.objects.filter(user=ann).count() == 1


def test_days_option_and_open_accounts_are_never_touched(closed_ann, client_user):
    ann = closed_ann["ann"]

    with time_machine.travel(ann.closed_at + dt.timedelta(days=7), tick=False):
        output = run("--days", "7")

    assert f"purged account {ann.pk}" in output
    client_user.refresh_from_db()
    assert (client_user.email, client_user.purged_at) == ("clara@example.com", None)
