"""Every notice kind reaches its declared audience, each person in the words of their part.

The circle of Walter (who has no account): Clara, organizer, posted the requests; Olga, a second
organizer; Mark, a plain member. Vera is the booked helper, Otto another helper, Ada is staff. For
each kind the real service that sends it runs once; then who got an email, and what it says to
each of them, is checked. A kind without a scenario here fails, so a new kind must say who hears it.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from decimal import Decimal

import pytest
from django.core import mail
from django.test import TestCase
from django.utils import timezone

from accounts.tests.factories import AdminUserFactory, UserFactory
from bookings import services as bookings
from bookings.models import BookingStatus, PaymentStatus, VisitAlertKind
from bookings.tests.factories import BookingFactory
from circles import services as circles
from circles.models import CareRecipient, CircleMember, CircleRole
from circles.tokens import invitation_token
from core.notifications import AUDIENCE, Audience, NoticeKind
from marketplace.testing.vetting import with_evidence
from messaging.models import Message
from messaging.services import message_send
from notifications import channels, services
from notifications.kinds import ADMIN_KINDS, CLIENT_KINDS, PROVIDER_KINDS, Frequency
from notifications.models import Delivery
from notifications.tasks import send_circle_invitation
from payments import cards
from payments.services import payment_intent_create, payment_test_confirm
from providers.models import Provider
from providers.services import provider_set_status
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app import services as requests
from requests_app.models import OfferedTo
from requests_app.tests.factories import ServiceCategoryFactory, ServiceRequestFactory
from vetting.services import checks_renewals_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(settings):
    settings.PAYMENTS_BACKEND = "test"
    clara = UserFactory(first_name="Clara", last_name="Stone")
    olga = UserFactory(first_name="Olga", last_name="Stone")
    mark = UserFactory(first_name="Mark", last_name="Stone")
    walter = CareRecipient.objects.create(first_name="Walter", last_name="Stone", address="12 Oak Lane")
    for user, role in ((clara, CircleRole.ORGANIZER), (olga, CircleRole.ORGANIZER), (mark, CircleRole.MEMBER)):
        CircleMember.objects.create(recipient=walter, user=user, role=role)
    vera = VerifiedProviderFactory(user__first_name="Vera", user__last_name="Helper")
    otto = VerifiedProviderFactory(user__first_name="Otto", user__last_name="Helper")
    services.contact_set(user=otto.user, new_requests=Frequency.OFF)
    return {
        "clara": clara,
        "olga": olga,
        "mark": mark,
        "walter": walter,
        "vera": vera,
        "otto": otto,
        "ada": AdminUserFactory(first_name="Ada", last_name="Admin"),
    }


def _user(p, name):
    person = p[name]
    return person.user if isinstance(person, Provider) else person


def _request(p, **kwargs):
    return ServiceRequestFactory(client=p["clara"], recipient=p["walter"], title="Tablet", **kwargs)


def _booking(p, **kwargs):
    values = {"status": BookingStatus.CONFIRMED, "payment_status": PaymentStatus.PAID, "total_amount": Decimal("30.00")}
    return BookingFactory(service_request=_request(p), provider=p["vera"], **{**values, **kwargs})


def _direct(p):
    return requests.service_request_create(
        client=p["clara"],
        category=ServiceCategoryFactory(),
        title="Tablet",
        description="Help with the new tablet, please.",
        preferred_date=timezone.localdate() + dt.timedelta(days=10),
        location="12 Oak Lane, Springfield",
        recipient=p["walter"],
        requested_provider_id=p["vera"].pk,
    )


# Each scenario runs the service that sends the kind; it returns what is expected: for each person
# who gets the email, (its subject, a line it must contain, a line it must not contain or "").


def accepted(p):
    request = _request(p)
    bookings.service_request_accept(service_request_id=request.pk, actor=p["vera"].user)
    return {
        "clara": ("Vera accepted your request", "Pay now", ""),
        "olga": ("Vera accepted the request", "Pay now", "your request"),
        "mark": ("Vera will visit Walter", "An organizer of the care circle pays", "Pay now"),
    }


def _pay(p):
    booking = _booking(p, status=BookingStatus.SCHEDULED, payment_status=PaymentStatus.PENDING)
    payment_intent_create(actor=p["olga"], booking_id=booking.pk)
    payment_test_confirm(actor=p["olga"], booking_id=booking.pk, card_number="4242 4242 4242 4242")
    return booking


def payment_received(p):
    _pay(p)
    return {
        "olga": ("Your payment was received", "Thank you: your payment was received.", ""),
        "clara": ("Olga Stone paid for \u201cTablet\u201d", "Olga Stone paid $30.00", "Thank you"),
    }


def card_charge_failed(p):
    # Clara's saved card is declined for a visit charged automatically: she alone hears it, with the fix.
    booking = _booking(p, status=BookingStatus.SCHEDULED, payment_status=PaymentStatus.PENDING)
    cards.card_test_save(actor=p["clara"], card_number="4000 0000 0000 9995", exp_month=12, exp_year=2034)
    cards.booking_auto_charge(actor=p["clara"], booking_id=booking.pk)
    assert cards.visit_charge_send(booking_id=booking.pk) == "declined"
    return {"clara": ("We could not charge your card for a visit", "Fix the payment", "")}


def booking_paid(p):
    _pay(p)
    return {"vera": ("A booking is confirmed", "paid for \u201cTablet\u201d", "")}


def cancelled(p):
    booking = _booking(p, scheduled_date=timezone.localdate() + dt.timedelta(days=10))
    bookings.booking_cancel_by_client(booking_id=booking.pk, actor=p["clara"], reason="")
    return {
        "clara": ("A booking was cancelled", "Cancelled by: you.", ""),
        "olga": ("A booking was cancelled", "Refund: $30.00", "Cancelled by: you."),
        "mark": ("A booking was cancelled", "Cancelled by: Clara Stone.", "Refund"),
        "vera": ("A booking was cancelled", "Cancelled by: the client.", "Refund"),
    }


def reassigned(p):
    booking = _booking(p)
    bookings.booking_reassign(booking_id=booking.pk, actor=p["ada"], new_provider_id=p["otto"].pk)
    circle = ("Your booking has a new provider", "Otto will now visit Walter for \u201cTablet\u201d.", "assigned")
    return {
        "otto": ("You have a new booking", "You have been assigned the booking", ""),
        "clara": circle,
        "olga": circle,
        "mark": circle,
    }


def reminder(p):
    booking = _booking(p)
    assert services.visit_reminder_send(booking_id=booking.pk, now=booking.visit_start - dt.timedelta(hours=12))
    circle = ("Reminder: a visit is tomorrow", "Helper: Vera.", "With: your client")
    return {
        "vera": ("Reminder: your visit is tomorrow", "With: Walter.", ""),
        "clara": circle,
        "olga": circle,
        "mark": circle,
    }


def expired(p):
    request = _request(p, preferred_date=timezone.localdate() - dt.timedelta(days=1))
    assert requests.service_request_expire(service_request_id=request.pk, today=timezone.localdate())
    return {
        "clara": ("Your request ended without a provider", "Post a new request", ""),
        "olga": ("The request ended without a provider", "Post a new request", "your request"),
        "mark": ("A request ended without a provider", "no provider accepted it", "Post a new request"),
    }


def visit_updates(p):
    booking = _booking(p, scheduled_date=timezone.localdate())
    bookings.booking_check_in(booking_id=booking.pk, actor=p["vera"].user, now=booking.visit_start)
    circle = ("Vera has arrived", "Vera checked in for \u201cTablet\u201d", "")
    return {"clara": circle, "olga": circle, "mark": circle}


def visit_alerts(p):
    booking = _booking(p)
    assert bookings.visit_alert_raise(
        booking_id=booking.pk, kind=VisitAlertKind.LATE, now=booking.starts_at + dt.timedelta(hours=6)
    )
    circle = ("A visit may be late or missed", "care circle of Walter Stone", "Kindly admin")
    return {
        "clara": circle,
        "olga": circle,
        "mark": circle,
        "ada": ("A visit may be late or missed", "you are a Kindly admin", "care circle"),
    }


def circle_joined(p):
    invitation = circles.invitation_create(actor=p["clara"], recipient_id=p["walter"].pk, email="ben@example.com")
    ben = UserFactory(first_name="Ben", last_name="Stone", email="ben@example.com")
    circles.invitation_accept(user=ben, token=invitation_token(invitation))
    joined = ("Ben Stone joined Walter Stone's care circle", "They joined as member.", "")
    return {"clara": joined, "olga": joined}


def declined(p):
    request = _direct(p)
    requests.service_request_decline(service_request_id=request.pk, actor=p["vera"].user, reason="Away that week.")
    member = ("Vera cannot take the request", "Their reason: Away that week.", "your request")
    return {"clara": ("Vera cannot take your request", "Your request is now open", ""), "olga": member, "mark": member}


def opened(p):
    request = _direct(p)
    assert requests.service_request_open_to_all(
        service_request_id=request.pk, now=request.direct_until + dt.timedelta(minutes=1)
    )
    member = ("The request is now open to all helpers", "has not answered in 24 hours", "your request")
    return {
        "clara": ("Your request is now open to all helpers", "has not answered in 24 hours", ""),
        "olga": member,
        "mark": member,
    }


def direct(p):
    _direct(p)
    return {"vera": ("Clara asked for you directly", "Only you can accept it until", "")}


def decided(p):
    applicant = with_evidence(ProviderFactory(user__first_name="Anna"))
    p["anna"] = applicant.user
    provider_set_status(provider_id=applicant.pk, actor=p["ada"], status="verified")
    return {"anna": ("Your provider application was approved", "You can now accept service requests.", "")}


def renewal_due(p):
    # Vera's checks expire in 20 days: the yearly renewal asks her, and only her.
    Provider.objects.filter(pk=p["vera"].pk).update(checks_due_by=timezone.now() + dt.timedelta(days=20))
    assert checks_renewals_start() == 1
    return {"vera": ("Your yearly background check is due", "Renew my check", "")}


def new_requests(p):
    services.contact_set(user=p["vera"].user, new_requests=Frequency.INSTANT)
    _request(p)
    assert services.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 1
    return {"vera": ("A new request matches your services", "Tablet", "")}


def offered(p):
    # Walter and Vera placed 2 miles apart (Otto nowhere): the request is offered to Vera alone.
    CareRecipient.objects.filter(pk=p["walter"].pk).update(latitude=39.78, longitude=-89.65)
    Provider.objects.filter(pk=p["vera"].pk).update(latitude=39.80, longitude=-89.67, travel_miles=10)
    request = _request(p, offered_to=OfferedTo.OFFERS)
    with TestCase.captureOnCommitCallbacks(execute=True):  # she is told once the round has committed
        assert requests.offers_send(service_request_id=request.pk) == 1
    return {"vera": ("A request near you was offered to you", "miles away, and you are free then", "")}


def _replaced(p):
    """Walter and Otto placed 2 miles apart; Vera cancels her paid visit of tomorrow: Otto is offered it."""
    CareRecipient.objects.filter(pk=p["walter"].pk).update(latitude=39.78, longitude=-89.65)
    Provider.objects.filter(pk=p["otto"].pk).update(latitude=39.80, longitude=-89.67, travel_miles=10)
    booking = _booking(p, scheduled_date=timezone.localdate() + dt.timedelta(days=1))
    bookings.booking_cancel_by_provider(booking_id=booking.pk, actor=p["vera"].user, reason="I am unwell.")
    return booking


def replacement_updates(p):
    # The whole circle hears who is coming (or that Kindly is finding someone); never Vera, who left.
    _replaced(p)
    seeking = ("Finding a replacement", "Kindly is finding a replacement.", "refund")
    return {"clara": seeking, "olga": seeking, "mark": seeking}


def replacement_offered(p):
    _replaced(p)
    return {"otto": ("A visit near you needs a new helper", "miles away, and you are free then", "Oak Lane")}


def matching(p):
    # Walter was never placed: the request goes to every helper of the service, and staff hear of it.
    request = _request(p, offered_to=OfferedTo.OFFERS)
    assert requests.offers_send(service_request_id=request.pk, now=timezone.now() + requests.PLACE_WAIT) == 0
    return {"ada": ("A request needs a helper", "could not be placed on the map", "")}


def unread(p):
    booking = _booking(p)
    message_send(sender=p["vera"].user, receiver_id=p["clara"].pk, content="Hello!", booking_id=booking.pk)
    # Whoever the message reached (the booking's conversation), each hears of it by email.
    readers = set(Message.objects.filter(content="Hello!").values_list("receiver_id", flat=True))
    assert services.message_digests_send(now=timezone.now() + dt.timedelta(minutes=11)) >= 1
    names = [name for name in ("clara", "olga", "mark") if p[name].pk in readers]
    assert "clara" in names
    return {name: ("Vera sent you a message", "You have 1 unread message from Vera.", "") for name in names}


def applications(p):
    ProviderFactory(user__first_name="Penny", user__last_name="Pending")
    assert services.provider_application_digest_send(now=timezone.now())
    return {"ada": ("1 provider application waiting for review", "Penny Pending", "")}


def invitation(p):
    sent = circles.invitation_create(actor=p["clara"], recipient_id=p["walter"].pk, email="dan@example.com")
    assert send_circle_invitation.apply(args=[sent.pk]).get() == "sent"
    return {}  # checked below: the invited address alone, by email, with no account


SCENARIOS: dict[str, Callable] = {
    NoticeKind.REQUEST_ACCEPTED: accepted,
    NoticeKind.PAYMENT_RECEIVED: payment_received,
    NoticeKind.CARD_CHARGE_FAILED: card_charge_failed,
    NoticeKind.BOOKING_REASSIGNED: reassigned,
    NoticeKind.REQUEST_EXPIRED: expired,
    NoticeKind.VISIT_UPDATES: visit_updates,
    NoticeKind.CIRCLE_JOINED: circle_joined,
    NoticeKind.DIRECT_REQUEST_DECLINED: declined,
    NoticeKind.DIRECT_REQUEST_OPENED: opened,
    NoticeKind.APPLICATION_DECIDED: decided,
    NoticeKind.CHECKS_RENEWAL_DUE: renewal_due,
    NoticeKind.NEW_REQUESTS: new_requests,
    NoticeKind.BOOKING_PAID: booking_paid,
    NoticeKind.DIRECT_REQUEST: direct,
    NoticeKind.REQUEST_OFFERED: offered,
    NoticeKind.MATCHING_ALERTS: matching,
    NoticeKind.REPLACEMENT_UPDATES: replacement_updates,
    NoticeKind.REPLACEMENT_OFFERED: replacement_offered,
    NoticeKind.BOOKING_CANCELLED: cancelled,
    NoticeKind.VISIT_REMINDER: reminder,
    NoticeKind.UNREAD_MESSAGES: unread,
    NoticeKind.VISIT_ALERTS: visit_alerts,
    NoticeKind.PROVIDER_APPLICATIONS: applications,
    NoticeKind.CIRCLE_INVITATION: invitation,
}


@pytest.mark.parametrize("kind", list(NoticeKind), ids=lambda k: k.value)
def test_each_kind_reaches_its_audience_in_their_words(kind, people):
    if kind not in SCENARIOS:
        pytest.fail(f"{kind}: no scenario says who hears it (declare its audience and add one here)")
    expected = SCENARIOS[kind](people)
    emails = {
        d.recipient_id: channels.email_message(d)
        for d in Delivery.objects.filter(event__kind=kind, channel="email").select_related("event", "recipient")
    }
    names = {_user(people, name).pk: name for name in people if name != "walter"}
    assert sorted(names.get(pk, pk) for pk in emails) == sorted(expected), kind
    for name, (subject, says, never) in expected.items():
        email = emails[_user(people, name).pk]
        assert email.subject == subject, (kind, name)
        assert says in email.body, (kind, name, email.body)
        if never:
            assert never not in email.body, (kind, name, email.body)
    if kind == NoticeKind.CIRCLE_INVITATION:
        [message] = mail.outbox
        assert message.to == ["dan@example.com"]
        assert message.subject == "Clara Stone invites you to help care for Walter on Kindly"


def test_each_kind_declares_an_audience_and_the_settings_offer_it_to_exactly_that_audience():
    assert set(AUDIENCE) == set(NoticeKind.values)
    family = {Audience.PAYER, Audience.ORGANIZERS, Audience.CIRCLE}

    def reaching(parts: set[str]) -> set[str]:
        return {kind for kind, audience in AUDIENCE.items() if parts & set(audience)}

    assert set(CLIENT_KINDS) == reaching(family | {Audience.ADDRESSEE})
    assert set(PROVIDER_KINDS) == reaching({Audience.HELPER, Audience.ADDRESSEE})
    assert set(ADMIN_KINDS) == reaching({Audience.STAFF, Audience.ADDRESSEE})


def test_a_plain_member_never_gets_a_payment_or_the_helpers_assignment_in_the_app(people):
    """The in-app messages follow the same audience as the emails."""
    _pay(people)
    booking = _booking(people)
    bookings.booking_reassign(booking_id=booking.pk, actor=people["ada"], new_provider_id=people["otto"].pk)
    texts = list(Message.objects.filter(receiver=people["mark"]).values_list("content", flat=True))
    assert texts and not any("payment" in t.lower() or "paid" in t or "You have been assigned" in t for t in texts)
    olga = list(Message.objects.filter(receiver=people["olga"]).values_list("content", flat=True))
    clara = list(Message.objects.filter(receiver=people["clara"]).values_list("content", flat=True))
    assert any(t.startswith("Thank you: your payment of $30.00") for t in olga)
    assert any(t.startswith("Olga Stone paid $30.00") for t in clara)
    assert not any(t.startswith("Thank you") for t in clara)


def test_only_organizers_are_asked_for_a_review_when_a_visit_is_completed(people):
    """Organizers review a visit; a plain member is told it was completed, not asked to review."""
    booking = _booking(people, scheduled_date=timezone.localdate())
    bookings.booking_check_in(booking_id=booking.pk, actor=people["vera"].user, now=booking.visit_start)
    bookings.booking_check_out(
        booking_id=booking.pk, actor=people["vera"].user, now=booking.visit_start + dt.timedelta(hours=1)
    )

    def completed(name):
        return [
            t
            for t in Message.objects.filter(receiver=people[name]).values_list("content", flat=True)
            if "completed" in t
        ]

    assert completed("mark") == ['Your booking for "Tablet" was marked completed.']
    assert all("leave a review" in t for t in completed("clara") + completed("olga")) and completed("olga")


def test_a_text_message_carries_the_persons_own_words(people):
    """The text says what the app says to that person: the payer is thanked, the other organizer told who paid."""
    _pay(people)
    texts = {
        d.recipient_id: channels.sms_body(d)
        for d in Delivery.objects.filter(event__kind=NoticeKind.PAYMENT_RECEIVED).select_related("event", "recipient")
    }
    assert texts[people["olga"].pk].startswith("Kindly: Thank you: your payment of $30.00")
    assert texts[people["clara"].pk].startswith("Kindly: Olga Stone paid $30.00")


def test_a_declined_card_is_news_for_the_one_who_tried_only(people):
    booking = _booking(people, status=BookingStatus.SCHEDULED, payment_status=PaymentStatus.PENDING)
    payment_intent_create(actor=people["olga"], booking_id=booking.pk)
    payment_test_confirm(actor=people["olga"], booking_id=booking.pk, card_number="4000 0000 0000 0002")
    declined = Message.objects.filter(content__contains="did not go through")
    assert list(declined.values_list("receiver_id", flat=True)) == [people["olga"].pk]


def test_the_refund_question_goes_to_those_who_pay_and_the_news_of_who_comes_to_all(people):
    """A search past its deadline: organizers are asked (refund or wait), the plain member only told;
    then a helper takes it and everyone reads "Replacement confirmed"."""
    booking = _replaced(people)
    replacement = booking.replacements.get()
    later = replacement.deadline + dt.timedelta(seconds=1)
    assert bookings.replacement_offers_send(replacement_id=replacement.pk, now=later) == "unfilled"
    unfilled = {
        d.recipient_id: channels.email_message(d).body
        for d in Delivery.objects.filter(
            event__kind=NoticeKind.REPLACEMENT_UPDATES, event__context__stage="unfilled", channel="email"
        ).select_related("event", "recipient")
    }
    assert set(unfilled) == {people["clara"].pk, people["olga"].pk, people["mark"].pk}
    assert "full refund" in unfilled[people["clara"].pk] and "full refund" in unfilled[people["olga"].pk]
    assert "refund" not in unfilled[people["mark"].pk]
    bookings.booking_replacement_accept(booking_id=booking.pk, actor=people["otto"].user)
    found = Delivery.objects.filter(
        event__kind=NoticeKind.REPLACEMENT_UPDATES, event__context__stage="found", channel="email"
    ).select_related("event", "recipient")
    assert sorted(d.recipient_id for d in found) == sorted(people[n].pk for n in ("clara", "olga", "mark"))
    assert {channels.email_message(d).subject for d in found} == {"Replacement confirmed: Otto is coming"}
    assert not Delivery.objects.filter(event__kind=NoticeKind.REPLACEMENT_UPDATES, recipient=people["vera"].user)
