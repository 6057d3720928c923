"""POST /api/account/close: requests and future bookings cancelled (paid ones refunded once the
closure has committed), the provider profile hidden, the session ended, the Firebase account
disabled and sign-in refused."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from firebase_admin import auth
from rest_framework.test import APIClient

from accounts.firebase import firebase_user_set_disabled, get_app
from accounts.models import User
from accounts.services import ACCOUNT_CLOSED_MESSAGE
from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus, PaymentStatus, RefundStatus
from bookings.tests.factories import BookingFactory
from marketplace.account_lifecycle.services import ADMIN_CLOSE_MESSAGE, VISIT_TOO_SOON_MESSAGE
from marketplace.testing.firebase import emulator_id_token, emulator_sign_in, emulator_user
from marketplace.testing.stripe import pay_with_stripe
from messaging.models import Message
from payments.models import Refund
from providers.models import Provider
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import RequestStatus, ServiceRequest
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db
URL = "/api/account/close"
PASSWORD = "close-pass-1"


def post_json(client: Client, url: str, body: dict):
    return client.post(url, body, content_type="application/json")


def firebase_disabled(uid: str) -> bool:
    return auth.get_user(uid, app=get_app()).disabled


def in_days(days: int) -> dt.date:
    return timezone.localdate() + dt.timedelta(days=days)


@pytest.fixture
def ann(firebase_auth):
    """A client with a real emulator account, signed in through the session sync."""
    emulator_user("ann@example.com", PASSWORD, "Ann Archer")
    client = Client()
    emulator_sign_in(client, "ann@example.com", PASSWORD)
    user = User.objects.get(email="ann@example.com")
    user.browser = client
    return user


def pay(client: Client, booking: Booking) -> None:
    """Pay through the offline test gateway with the card that succeeds."""
    assert post_json(client, "/api/create-payment-intent", {"bookingId": booking.pk}).status_code == 200
    response = post_json(
        client, "/api/payments/test/confirm", {"bookingId": booking.pk, "cardNumber": "4242 4242 4242 4242"}
    )
    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PAID


@pytest.mark.parametrize(
    "body",
    [{}, {"confirm": ""}, {"confirm": "closed"}, {"confirm": "yes"}, {"confirm": "CLOSE", "extra": 1}],
)
def test_closing_needs_the_typed_confirmation(ann, body):
    open_request = ServiceRequestFactory(client=ann)

    response = post_json(ann.browser, URL, body)

    assert response.status_code == 400
    assert response.json()["errors"]
    ann.refresh_from_db()
    assert (ann.closed_at, ann.is_active) == (None, True)
    assert not firebase_disabled(ann.pk)
    assert ServiceRequest.objects.get(pk=open_request.pk).status == RequestStatus.OPEN
    assert ann.browser.get("/api/auth/user").status_code == 200


@pytest.mark.parametrize("typed", ["close", " Close ", "cLoSe"])
def test_the_confirmation_word_is_accepted_in_any_case(ann, typed):
    response = post_json(ann.browser, URL, {"confirm": typed})

    assert response.status_code == 200, response.content
    ann.refresh_from_db()
    assert ann.closed_at is not None


def test_closing_cancels_and_refunds_signs_out_and_disables_firebase(
    ann, verified_provider, django_capture_on_commit_callbacks
):
    open_request = ServiceRequestFactory(client=ann, title="Open one")
    paid = BookingFactory(
        service_request__client=ann,
        service_request__title="Paid visit",
        provider=verified_provider,
        scheduled_date=in_days(10),
        total_amount="45.50",
    )
    unpaid = BookingFactory(service_request__client=ann, provider=verified_provider, scheduled_date=in_days(5))
    pay(ann.browser, paid)
    other_session = Client()
    other_session.force_login(ann)
    token_before = emulator_id_token("ann@example.com", PASSWORD)

    with django_capture_on_commit_callbacks(execute=True):  # the refund is made after the commit
        response = post_json(ann.browser, URL, {"confirm": "CLOSE"})

    assert response.status_code == 200, response.content
    assert response.json() == {
        "closed": True,
        "cancelledRequestIds": [open_request.pk],
        "cancelledBookingIds": sorted([paid.pk, unpaid.pk]),
    }
    ann.refresh_from_db()
    assert ann.closed_at is not None and ann.is_active is False
    assert ServiceRequest.objects.get(pk=open_request.pk).status == RequestStatus.CANCELLED
    paid.refresh_from_db()
    unpaid.refresh_from_db()
    assert (paid.status, paid.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)
    assert paid.refund_status == RefundStatus.SUCCEEDED
    assert Refund.objects.get(booking=paid).refund_id.startswith("re_test_")
    assert Message.objects.filter(
        receiver=ann, booking=paid, content='Your payment of $45.50 for "Paid visit" has been refunded in full.'
    ).exists()
    assert (unpaid.status, unpaid.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.PENDING)
    assert paid.cancellation_reason == "The client closed their Kindly account."
    assert Message.objects.filter(
        receiver=verified_provider.user, booking=paid, content__startswith="The client cancelled the booking"
    ).exists()
    # Signed out here and in every other session.
    assert ann.browser.get("/api/auth/user").status_code in (401, 403)
    assert other_session.get("/api/auth/user").status_code in (401, 403)
    # Firebase refuses the account, and a token from before is refused at session sync.
    assert firebase_disabled(ann.pk)
    with pytest.raises(RuntimeError, match="USER_DISABLED"):
        emulator_id_token("ann@example.com", PASSWORD)
    refused = post_json(Client(), "/api/auth/session", {"idToken": token_before})
    assert refused.status_code == 403
    assert refused.json()["message"] == ACCOUNT_CLOSED_MESSAGE


def test_a_closed_account_cannot_sign_in_even_if_firebase_lets_it(ann):
    assert post_json(ann.browser, URL, {"confirm": "CLOSE"}).status_code == 200
    # Someone enables the Firebase account again by hand: the local closure still holds.
    firebase_user_set_disabled(ann.pk, disabled=False)
    token = emulator_id_token("ann@example.com", PASSWORD)

    response = post_json(Client(), "/api/auth/session", {"idToken": token})

    assert response.status_code == 403
    assert response.json()["message"] == ACCOUNT_CLOSED_MESSAGE
    ann.refresh_from_db()
    assert ann.email == "ann@example.com" and ann.is_active is False


def test_closing_with_a_visit_within_48_hours_is_refused_and_changes_nothing(ann, verified_provider):
    open_request = ServiceRequestFactory(client=ann)
    soon = BookingFactory(service_request__client=ann, provider=verified_provider, scheduled_date=in_days(1))

    response = post_json(ann.browser, URL, {"confirm": "CLOSE"})

    assert response.status_code == 409
    assert response.json()["message"] == VISIT_TOO_SOON_MESSAGE
    ann.refresh_from_db()
    assert ann.closed_at is None and ann.is_active
    assert ServiceRequest.objects.get(pk=open_request.pk).status == RequestStatus.OPEN
    assert Booking.objects.get(pk=soon.pk).status == BookingStatus.SCHEDULED
    assert not firebase_disabled(ann.pk)
    assert ann.browser.get("/api/auth/user").status_code == 200


def test_past_visits_are_left_for_the_provider_to_complete(ann, verified_provider):
    past = BookingFactory(
        service_request__client=ann,
        provider=verified_provider,
        scheduled_date=in_days(-2),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )

    assert post_json(ann.browser, URL, {"confirm": "CLOSE"}).status_code == 200

    past.refresh_from_db()
    assert (past.status, past.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_a_provider_closing_cancels_their_future_bookings_and_leaves_the_listings(
    firebase_auth, django_capture_on_commit_callbacks
):
    provider = VerifiedProviderFactory(user__first_name="Vic", user__last_name="Vale")
    booking = BookingFactory(
        provider=provider,
        service_request__title="Tablet help",
        scheduled_date=in_days(4),
        status=BookingStatus.CONFIRMED,
        payment_status=PaymentStatus.PAID,
    )
    client = Client()
    client.force_login(provider.user)

    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(client, URL, {"confirm": "CLOSE"})

    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status) == (BookingStatus.CANCELLED, PaymentStatus.REFUNDED)
    assert booking.cancellation_reason == "The provider closed their Kindly account."
    assert ServiceRequest.objects.get(pk=booking.service_request_id).status == RequestStatus.CANCELLED
    note = Message.objects.get(receiver=booking.client, booking=booking, content__contains="closed their Kindly")
    assert note.content.startswith('The booking for "Tablet help" on ')
    assert "refunded in full" in note.content
    assert Provider.objects.get(pk=provider.pk).is_active is False
    listed = Client()
    listed.force_login(booking.client)
    assert provider.pk not in [p["id"] for p in listed.get("/api/providers").json()]


def test_an_admin_cannot_close_their_own_account(firebase_auth, admin_user):
    client = Client()
    client.force_login(admin_user)

    response = post_json(client, URL, {"confirm": "CLOSE"})

    assert response.status_code == 403
    assert response.json()["message"] == ADMIN_CLOSE_MESSAGE
    admin_user.refresh_from_db()
    assert admin_user.closed_at is None and admin_user.is_active


def test_closing_needs_a_signed_in_user():
    response = post_json(Client(), URL, {"confirm": "CLOSE"})

    assert response.status_code in (401, 403)


def test_someone_elses_account_is_untouched(ann):
    bystander = UserFactory()
    request = ServiceRequestFactory(client=bystander)

    assert post_json(ann.browser, URL, {"confirm": "CLOSE"}).status_code == 200

    bystander.refresh_from_db()
    assert bystander.closed_at is None and bystander.is_active
    assert ServiceRequest.objects.get(pk=request.pk).status == RequestStatus.OPEN


def test_when_the_refund_fails_the_account_still_closes_and_the_refund_waits_for_an_admin(
    ann,
    verified_provider,
    stripe_backend,
    django_capture_on_commit_callbacks,
):
    """The refund is made after the closure commits: a refusal no longer undoes it."""
    paid = BookingFactory(service_request__client=ann, provider=verified_provider, scheduled_date=in_days(10))
    pay_with_stripe(paid, api_client_for)
    stripe_backend.fail_next.append((400, {"error": {"type": "invalid_request_error", "message": "charge disputed"}}))

    with django_capture_on_commit_callbacks(execute=True):
        response = post_json(ann.browser, URL, {"confirm": "CLOSE"})
        assert stripe_backend.posts("/v1/refunds") == []  # never inside the closure's transaction

    assert response.status_code == 200, response.content
    ann.refresh_from_db()
    assert ann.closed_at is not None and not ann.is_active
    assert firebase_disabled(ann.pk)
    paid.refresh_from_db()
    assert (paid.status, paid.payment_status, paid.refund_status) == (
        BookingStatus.CANCELLED,
        PaymentStatus.PAID,
        RefundStatus.FAILED,
    )
    assert Refund.objects.get(booking=paid).last_error

    call_command("retry_refunds")

    paid.refresh_from_db()
    assert (paid.payment_status, paid.refund_status) == (PaymentStatus.REFUNDED, RefundStatus.SUCCEEDED)


def api_client_for(user) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_login(user)
    return client


# ------------------------------------------------------------------ care circles


def test_an_organizer_who_closes_leaves_the_circle_to_the_family_and_the_visits_stay(ann):
    """Ann organizes her father's circle with her brother as a member: when she closes her account her
    brother becomes organizer (and is told), and the father's request and booking stay."""
    from circles.models import CareRecipient, CircleMember, CircleRole

    father = CareRecipient.objects.create(first_name="Walter", last_name="Archer", address="1 Oak Lane")
    CircleMember.objects.create(recipient=father, user=ann, role=CircleRole.ORGANIZER)
    brother = UserFactory(first_name="Ben")
    CircleMember.objects.create(recipient=father, user=brother, role=CircleRole.MEMBER)
    request = ServiceRequestFactory(client=ann, recipient=father, preferred_date=in_days(10))
    booking = BookingFactory(
        service_request__client=ann, service_request__recipient=father, service_request__preferred_date=in_days(12)
    )
    own = BookingFactory(service_request__client=ann, service_request__preferred_date=in_days(14))  # for herself

    response = post_json(ann.browser, URL, {"confirm": "CLOSE"})

    assert response.status_code == 200, response.content
    request.refresh_from_db()
    booking.refresh_from_db()
    own.refresh_from_db()
    assert request.status == RequestStatus.OPEN
    assert booking.status == BookingStatus.SCHEDULED
    assert own.status == BookingStatus.CANCELLED  # her own circle has nobody else in it
    assert list(CircleMember.objects.filter(recipient=father).values_list("user_id", "role")) == [
        (brother.pk, CircleRole.ORGANIZER)
    ]
    # She stays only in the circle of herself (nobody else in it; purged with her account).
    assert [m.recipient.account_id for m in CircleMember.objects.filter(user=ann)] == [ann.pk]
    assert Message.objects.filter(receiver=brother, content__contains="You now organize Walter Archer").exists()


def test_a_poster_who_is_no_longer_an_organizer_can_still_close(ann):
    """Ann posted for her father, then her brother took over as the organizer: closing works (no 403)
    and the father's booking stays with the brother."""
    from circles.models import CareRecipient, CircleMember, CircleRole

    father = CareRecipient.objects.create(first_name="Walter", last_name="Archer")
    brother = UserFactory(first_name="Ben")
    CircleMember.objects.create(recipient=father, user=brother, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=father, user=ann, role=CircleRole.MEMBER)
    booking = BookingFactory(
        service_request__client=ann, service_request__recipient=father, service_request__preferred_date=in_days(12)
    )

    assert post_json(ann.browser, URL, {"confirm": "CLOSE"}).status_code == 200
    booking.refresh_from_db()
    assert booking.status == BookingStatus.SCHEDULED
    assert list(CircleMember.objects.filter(recipient=father).values_list("user_id", flat=True)) == [brother.pk]
