"""A saved card, charged per visit (payments.cards): saving and removing a card, who may read it, each
visit of a series charged off-session when the helper accepts, one-off bookings she opts into, a
declined card (told to her alone, fixed on the checkout page), Stripe's webhook confirming the
charge (a replayed or unsigned one changes nothing), and no Stripe call inside a transaction."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus, PaymentStatus
from circles.models import CircleMember, CircleRole
from marketplace.testing.stripe import signed_webhook, stripe_event
from messaging.models import Message
from notifications.models import Delivery
from payments import cards
from payments.models import Earning, SavedCard, VisitCharge, VisitChargeState
from requests_app.models import Repeat
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

VISA = "4242 4242 4242 4242"
DECLINES_LATER = "4000 0000 0000 9995"
NEEDS_AUTHENTICATION = "4000 0027 6000 3184"


_commits: list = []


@pytest.fixture(autouse=True)
def _commit_callbacks(django_capture_on_commit_callbacks, request):
    """In a test inside one transaction, the work done on commit (the charge task) runs when the
    request's own commit would have happened (_committed)."""
    _commits[:] = [
        None
        if request.node.get_closest_marker("django_db").kwargs.get("transaction")
        else django_capture_on_commit_callbacks
    ]
    yield
    _commits.clear()


def _committed(call):
    capture = _commits[0] if _commits else None
    if capture is None:
        return call()
    with capture(execute=True):
        return call()


def _save(api_as, user, number: str = VISA):
    return api_as(user).post("/api/payment-method/test", {"cardNumber": number, "expiry": "12/34"}, format="json")


def _series(client_user, count: int = 3, **kwargs):
    first = timezone.localdate() + dt.timedelta(days=10)
    return ServiceRequestFactory(
        client=client_user,
        title="Weekly shopping",
        preferred_date=first,
        preferred_time="morning",
        repeat=Repeat.WEEKLY,
        repeat_count=count,
        **kwargs,
    )


def _accept(api_as, provider, request) -> list[Booking]:
    response = _committed(
        lambda: api_as(provider.user).post(f"/api/service-requests/{request.pk}/accept", {}, format="json")
    )
    assert response.status_code == 201, response.content
    return list(Booking.objects.filter(service_request=request).order_by("series_index", "pk"))


def _booking_json(api_as, user, booking) -> dict:
    response = api_as(user).get(f"/api/bookings/{booking.pk}")
    assert response.status_code == 200, response.content
    return response.json()


# ---------------------------------------------------------------- saving, reading, removing (test gateway)


def test_an_organizer_saves_a_card_and_only_she_reads_it(offline_backend, client_user, api_as):
    ServiceRequestFactory(client=client_user)  # she organizes her own circle
    assert api_as(client_user).get("/api/payment-method").json()["card"] is None

    response = _save(api_as, client_user)

    assert response.status_code == 200, response.content
    card = response.json()["card"]
    assert card == {"brand": "visa", "last4": "4242", "expMonth": 12, "expYear": 2034, "label": "Visa •••• 4242"}
    assert api_as(client_user).get("/api/payment-method").json()["card"]["last4"] == "4242"
    saved = SavedCard.objects.get(user=client_user)
    assert saved.customer_id.startswith("cus_test_") and saved.payment_method_id.startswith("pm_test_4242")


def test_a_card_the_bank_refuses_is_not_saved(offline_backend, client_user, api_as):
    ServiceRequestFactory(client=client_user)
    response = _save(api_as, client_user, "4000 0000 0000 0002")
    assert response.status_code == 400
    assert response.json()["errors"]["cardNumber"] == ["Your card was declined."]
    assert api_as(client_user).get("/api/payment-method").json()["card"] is None


def test_someone_who_organizes_no_circle_cannot_save_or_read_a_card(offline_backend, api_as, verified_provider):
    member = UserFactory()
    request = ServiceRequestFactory()
    CircleMember.objects.create(recipient=request.recipient, user=member, role=CircleRole.MEMBER)
    for user in (member, verified_provider.user):
        assert api_as(user).get("/api/payment-method").status_code == 403
        assert _save(api_as, user).status_code == 403
        assert api_as(user).post("/api/payment-method/setup").status_code == 403
    assert not SavedCard.objects.exists()


def test_removing_the_card_forgets_it_and_its_visits_not_charged_yet_wait_for_pay_now(
    offline_backend, client_user, verified_provider, api_as
):
    request = _series(client_user)
    _save(api_as, client_user)
    card = SavedCard.objects.get(user=client_user)
    booking = _series_booking_pending(request, verified_provider, card)

    assert api_as(client_user).delete("/api/payment-method").status_code == 204

    assert api_as(client_user).get("/api/payment-method").json()["card"] is None
    card.refresh_from_db()
    assert (card.payment_method_id, card.last4) == ("", "")
    assert VisitCharge.objects.get(booking=booking).state == VisitChargeState.CANCELLED
    assert _booking_json(api_as, client_user, booking)["autoCharge"] is None  # Pay now again
    assert api_as(client_user).delete("/api/payment-method").status_code == 404


def _series_booking_pending(request, provider, card) -> Booking:
    """A visit whose charge was recorded but not sent yet (the task has not run)."""
    from bookings.tests.factories import BookingFactory

    booking = BookingFactory(service_request=request, provider=provider, series_index=1)
    VisitCharge.objects.create(
        booking=booking,
        card=card,
        payer=card.user,
        gateway=card.gateway,
        card_label=card.label,
        amount_cents=3000,
        idempotency_key=cards.visit_charge_key(booking.pk),
    )
    return booking


# ---------------------------------------------------------------- each visit of a series is charged


def test_each_visit_of_a_series_is_charged_to_the_saved_card_when_the_helper_accepts(
    offline_backend, client_user, verified_provider, api_as
):
    request = _series(client_user)
    _save(api_as, client_user)

    visits = _accept(api_as, verified_provider, request)

    assert len(visits) == 3
    for visit in visits:
        assert (visit.status, visit.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
        charge = VisitCharge.objects.get(booking=visit)
        assert charge.state == VisitChargeState.SUCCEEDED
        assert charge.idempotency_key == f"visit-charge-{visit.pk}"
        assert charge.amount_cents == 3000  # the booking's total, from the server
        assert visit.payment_intent_id == charge.intent_id
        assert Earning.objects.get(booking=visit).gross == visit.total_amount
        body = _booking_json(api_as, client_user, visit)
        assert body["autoCharge"] == {"state": "succeeded", "note": "Paid with Visa •••• 4242"}
    # A receipt by email for each visit, to her.
    receipts = Delivery.objects.filter(event__kind="payment_received", channel="email", recipient=client_user)
    assert receipts.count() == 3


def test_a_one_off_booking_is_charged_only_when_she_chose_every_booking(
    offline_backend, client_user, verified_provider, api_as
):
    first = ServiceRequestFactory(client=client_user)
    assert _save(api_as, client_user).status_code == 200
    [not_chosen] = _accept(api_as, verified_provider, first)
    assert not VisitCharge.objects.filter(booking=not_chosen).exists()
    assert not_chosen.payment_status == PaymentStatus.PENDING

    response = api_as(client_user).patch("/api/payment-method", {"chargeEveryBooking": True}, format="json")
    assert response.status_code == 200 and response.json()["chargeEveryBooking"] is True
    [chosen] = _accept(api_as, verified_provider, ServiceRequestFactory(client=client_user))
    assert (chosen.status, chosen.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_she_can_have_one_booking_waiting_for_payment_charged_automatically(
    offline_backend, client_user, verified_provider, api_as
):
    [booking] = _accept(api_as, verified_provider, ServiceRequestFactory(client=client_user))
    url = f"/api/bookings/{booking.pk}/auto-charge"
    assert api_as(client_user).post(url).status_code == 409  # no card yet
    _save(api_as, client_user)

    response = _committed(lambda: api_as(client_user).post(url))

    assert response.status_code == 200, response.content
    assert response.json()["state"] == "pending"  # charged once the choice has committed
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PAID
    assert api_as(client_user).post(url).status_code == 409  # nothing waits for payment now


def test_a_series_without_a_saved_card_waits_for_pay_now(offline_backend, client_user, verified_provider, api_as):
    visits = _accept(api_as, verified_provider, _series(client_user))
    assert not VisitCharge.objects.exists()
    assert {v.payment_status for v in visits} == {PaymentStatus.PENDING}
    assert _booking_json(api_as, client_user, visits[0])["autoCharge"] is None


def test_members_and_the_helper_never_read_the_card(offline_backend, client_user, verified_provider, api_as):
    request = _series(client_user, count=2)
    member, organizer = UserFactory(), UserFactory(first_name="Olga")
    CircleMember.objects.create(recipient=request.recipient, user=member, role=CircleRole.MEMBER)
    CircleMember.objects.create(recipient=request.recipient, user=organizer, role=CircleRole.ORGANIZER)
    _save(api_as, client_user)
    visit = _accept(api_as, verified_provider, request)[0]

    assert _booking_json(api_as, member, visit)["autoCharge"] is None
    assert _booking_json(api_as, verified_provider.user, visit)["autoCharge"] is None
    other = _booking_json(api_as, organizer, visit)["autoCharge"]
    assert other == {"state": "succeeded", "note": "Paid with Clara's saved card"}
    # Her card is hers: another organizer reads only her own (none).
    assert api_as(organizer).get("/api/payment-method").json()["card"] is None
    for user in (member, organizer, verified_provider.user):
        texts = " ".join(Message.objects.filter(receiver=user).values_list("content", flat=True))
        assert "4242" not in texts


# ---------------------------------------------------------------- a declined card


@pytest.mark.parametrize(
    ("number", "state", "words"),
    [
        (DECLINES_LATER, VisitChargeState.FAILED, "Your bank declined the payment."),
        (NEEDS_AUTHENTICATION, VisitChargeState.ACTION_NEEDED, "Your bank asks you to confirm this payment."),
    ],
)
def test_a_declined_charge_tells_her_alone_with_a_way_to_fix_it_and_the_helper_waits(
    offline_backend, client_user, verified_provider, api_as, number, state, words
):
    request = _series(client_user, count=2)
    organizer = UserFactory()
    CircleMember.objects.create(recipient=request.recipient, user=organizer, role=CircleRole.ORGANIZER)
    _save(api_as, client_user, number)

    visit = _accept(api_as, verified_provider, request)[0]

    assert (visit.status, visit.payment_status) == (BookingStatus.SCHEDULED, PaymentStatus.FAILED)
    charge = VisitCharge.objects.get(booking=visit)
    assert charge.state == state
    told = Message.objects.filter(content__contains="We could not charge your Visa •••• ")
    assert set(told.values_list("receiver_id", flat=True)) == {client_user.pk}
    [notice] = [m.content for m in told if f"/checkout/{visit.pk}" in m.content]
    assert words in notice
    emails = Delivery.objects.filter(event__kind="card_charge_failed", channel="email")
    assert set(emails.values_list("recipient_id", flat=True)) == {client_user.pk} and emails.count() == 2
    # The helper reads that the visit waits for payment, not why.
    helper = _booking_json(api_as, verified_provider.user, visit)
    assert (helper["paymentStatus"], helper["autoCharge"]) == ("failed", None)
    # She pays on the checkout page: the same intent, with another card.
    assert _booking_json(api_as, client_user, visit)["autoCharge"]["state"] == state
    response = api_as(client_user).post("/api/create-payment-intent", {"bookingId": visit.pk}, format="json")
    assert response.status_code == 200
    assert response.json()["clientSecret"].startswith(charge.intent_id)
    paid = api_as(client_user).post(
        "/api/payments/test/confirm", {"bookingId": visit.pk, "cardNumber": VISA}, format="json"
    )
    assert paid.status_code == 200
    visit.refresh_from_db()
    assert (visit.status, visit.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    assert VisitCharge.objects.get(booking=visit).state == VisitChargeState.SUCCEEDED


def test_pay_now_is_refused_while_the_automatic_charge_is_under_way(
    offline_backend, client_user, verified_provider, api_as
):
    request = _series(client_user)
    _save(api_as, client_user)
    booking = _series_booking_pending(request, verified_provider, SavedCard.objects.get(user=client_user))

    response = api_as(client_user).post("/api/create-payment-intent", {"bookingId": booking.pk}, format="json")

    assert response.status_code == 409
    assert response.json()["message"] == cards.WILL_BE_CHARGED
    body = _booking_json(api_as, client_user, booking)
    assert body["autoCharge"] == {"state": "pending", "note": "Will be charged to Visa •••• 4242 when confirmed"}
    # The checkout page has nothing to pay and says why.
    page = api_as(client_user).get(f"/checkout/{booking.pk}").content.decode()
    assert '"payable": false' in page and "Will be charged to Visa" in page


def test_the_charge_task_charges_a_visit_once_and_skips_a_cancelled_one(
    offline_backend, client_user, verified_provider, api_as
):
    request = _series(client_user)
    _save(api_as, client_user)
    booking = _series_booking_pending(request, verified_provider, SavedCard.objects.get(user=client_user))
    Booking.objects.filter(pk=booking.pk).update(status=BookingStatus.CANCELLED)

    assert cards.visit_charge_send(booking_id=booking.pk) == "ignored"
    assert VisitCharge.objects.get(booking=booking).state == VisitChargeState.CANCELLED
    assert cards.visit_charge_send(booking_id=booking.pk) == "ignored"
    booking.refresh_from_db()
    assert booking.payment_status == PaymentStatus.PENDING and not booking.payment_intent_id


# ---------------------------------------------------------------- Stripe (the fake, at its HTTP boundary)


def _save_with_stripe(fake, api_as, user, *, last4: str = "4242") -> str:
    started = api_as(user).post("/api/payment-method/setup")
    assert started.status_code == 200, started.content
    setup_id = started.json()["setupIntentId"]
    assert started.json()["clientSecret"] == f"{setup_id}_secret_fake"
    # Before Stripe says the card is saved, nothing is.
    early = api_as(user).post("/api/payment-method/setup/finish", {"setupIntentId": setup_id}, format="json")
    assert early.status_code == 409
    method_id = fake.setup_succeed(setup_id, last4=last4)
    finished = api_as(user).post("/api/payment-method/setup/finish", {"setupIntentId": setup_id}, format="json")
    assert finished.status_code == 200, finished.content
    assert finished.json()["card"]["label"] == f"Visa •••• {last4}"
    return method_id


@pytest.mark.django_db(transaction=True)
def test_with_stripe_a_saved_card_is_charged_off_session_and_the_webhook_confirms_it(
    stripe_backend, client_user, verified_provider, api_as
):
    request = _series(client_user, count=2)
    method_id = _save_with_stripe(stripe_backend, api_as, client_user)
    [setup] = stripe_backend.posts("/v1/setup_intents")
    assert setup.params["usage"] == "off_session"

    visits = _accept(api_as, verified_provider, request)

    charges = [r for r in stripe_backend.posts("/v1/payment_intents") if r.params.get("off_session") == "true"]
    assert sorted(r.idempotency_key for r in charges) == sorted(f"visit-charge-{v.pk}" for v in visits)
    for r in charges:
        assert (r.params["confirm"], r.params["payment_method"], r.params["amount"]) == ("true", method_id, "3000")
    # Charged, not yet confirmed: Stripe's webhook says so.
    for visit in visits:
        assert (visit.status, visit.payment_status) == (BookingStatus.SCHEDULED, PaymentStatus.PENDING)
        assert VisitCharge.objects.get(booking=visit).state == VisitChargeState.SUBMITTED
    first = visits[0]
    event = stripe_event("payment_intent.succeeded", {"id": first.payment_intent_id, "object": "payment_intent"})
    unsigned = api_as(None).post("/api/payments/stripe/webhook", event, format="json")
    assert unsigned.status_code == 400
    first.refresh_from_db()
    assert first.payment_status == PaymentStatus.PENDING

    assert signed_webhook(api_as(None), event).json()["outcome"] == "paid"
    assert signed_webhook(api_as(None), event).json()["outcome"] == "duplicate"

    first.refresh_from_db()
    assert (first.status, first.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)
    assert VisitCharge.objects.get(booking=first).state == VisitChargeState.SUCCEEDED
    receipt = Delivery.objects.get(event__kind="payment_received", channel="email", recipient=client_user)
    assert receipt.event.context.get("last4") == "4242"
    # The task again: the same key, so Stripe charges the visit once (and Kindly asks nothing new).
    assert cards.visit_charge_send(booking_id=first.pk) == "ignored"

    # Removing the card detaches it at Stripe.
    assert api_as(client_user).delete("/api/payment-method").status_code == 204
    assert stripe_backend.posts(f"/v1/payment_methods/{method_id}/detach")
    assert stripe_backend.payment_methods[method_id]["customer"] is None


@pytest.mark.django_db(transaction=True)
def test_with_stripe_a_card_needing_authentication_is_told_once_and_fixed_with_the_same_intent(
    stripe_backend, client_user, verified_provider, api_as
):
    request = _series(client_user, count=2)
    method_id = _save_with_stripe(stripe_backend, api_as, client_user)
    stripe_backend.declines[method_id] = "authentication_required"

    visit = _accept(api_as, verified_provider, request)[0]

    assert visit.payment_status == PaymentStatus.FAILED
    charge = VisitCharge.objects.get(booking=visit)
    assert (charge.state, charge.decline_code) == (VisitChargeState.ACTION_NEEDED, "authentication_required")
    assert Message.objects.filter(receiver=client_user, content__contains="We could not charge").count() == 2
    # Stripe's own word on the failure changes nothing more, and tells her nothing twice.
    failed = stripe_event(
        "payment_intent.payment_failed",
        {
            "id": visit.payment_intent_id,
            "object": "payment_intent",
            "last_payment_error": {"code": "authentication_required", "message": "Authentication required."},
        },
    )
    assert signed_webhook(api_as(None), failed).json()["outcome"] == "ignored"
    assert Message.objects.filter(receiver=client_user, content__contains="We could not charge").count() == 2
    # The fix: the checkout page confirms the same intent (its client secret) in Stripe Elements.
    secret = api_as(client_user).post("/api/create-payment-intent", {"bookingId": visit.pk}, format="json")
    assert secret.json()["clientSecret"] == f"{visit.payment_intent_id}_secret_fake"
    assert len(stripe_backend.posts("/v1/payment_intents")) == 2  # one per visit: no second intent
    stripe_backend.succeed(visit.payment_intent_id)
    succeeded = stripe_event("payment_intent.succeeded", {"id": visit.payment_intent_id, "object": "payment_intent"})
    assert signed_webhook(api_as(None), succeeded).json()["outcome"] == "paid"
    visit.refresh_from_db()
    assert (visit.status, visit.payment_status) == (BookingStatus.CONFIRMED, PaymentStatus.PAID)


def test_the_amount_charged_is_the_bookings_in_cents(offline_backend, client_user, verified_provider, api_as):
    verified_provider.hourly_rate = Decimal("33.33")
    verified_provider.save()
    request = _series(client_user, count=2, estimated_duration=90)
    _save(api_as, client_user)
    visit = _accept(api_as, verified_provider, request)[0]
    assert visit.total_amount == Decimal("50.00")  # 33.33 x 1.5 = 49.995, rounded half up
    assert VisitCharge.objects.get(booking=visit).amount_cents == 5000


@pytest.mark.django_db(transaction=True)
def test_closing_the_account_forgets_the_card_and_detaches_it_outside_any_transaction(stripe_backend, firebase_auth):
    from django.test import Client

    from accounts.models import User
    from marketplace.testing.firebase import emulator_sign_in, emulator_user

    emulator_user("ivy@example.com", "close-pass-1", "Ivy Irving")
    browser = Client()
    emulator_sign_in(browser, "ivy@example.com", "close-pass-1")
    ivy = User.objects.get(email="ivy@example.com")
    ServiceRequestFactory(client=ivy)  # she organizes her own circle
    started = browser.post("/api/payment-method/setup", {}, content_type="application/json").json()
    method_id = stripe_backend.setup_succeed(started["setupIntentId"])
    body = {"setupIntentId": started["setupIntentId"]}
    assert browser.post("/api/payment-method/setup/finish", body, content_type="application/json").status_code == 200
    ivy.refresh_from_db()
    assert ivy.stripe_customer_id == SavedCard.objects.get(user=ivy).customer_id  # the spec's field

    response = browser.post("/api/account/close", {"confirm": "CLOSE"}, content_type="application/json")

    assert response.status_code == 200, response.content
    assert not SavedCard.objects.get(user=ivy).ready
    assert stripe_backend.payment_methods[method_id]["customer"] is None  # detached (fake_stripe: outside)


def test_staff_read_a_visit_charge_in_the_django_admin_without_the_payment_method(
    offline_backend, client_user, verified_provider, api_as, admin_user
):
    request = _series(client_user, count=2)
    _save(api_as, client_user, DECLINES_LATER)
    visit = _accept(api_as, verified_provider, request)[0]
    charge = VisitCharge.objects.get(booking=visit)
    staff = api_as(admin_user)

    listed = staff.get("/django-admin/payments/visitcharge/")
    page = staff.get(f"/django-admin/payments/visitcharge/{charge.pk}/change/")

    assert listed.status_code == 200 and "card_declined" in listed.content.decode()
    assert page.status_code == 200
    assert SavedCard.objects.get(user=client_user).payment_method_id not in page.content.decode()
