"""A replacement, not a gap (bookings.services.replacement): a helper who leaves a visit (she cancels,
staff remove her, a re-check suspends her) hands it at once to the best helpers free then; the family
reads "Finding a replacement", then "Replacement confirmed: Ana will arrive at 2:00 PM"; the booking
keeps its id, tasks, series place and payment. Nobody by the deadline: staff are alerted and the
family is offered a full refund, or to keep waiting."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from adminpanel.models import AuditAction, AuditLog
from bookings import services
from bookings.models import (
    Booking,
    BookingStatus,
    PaymentStatus,
    RefundStatus,
    Replacement,
    ReplacementCause,
    ReplacementOffer,
    ReplacementOfferAnswer,
    ReplacementState,
)
from bookings.selectors import replacement_candidates, replacement_counts
from bookings.services.replacement import ROUND_NORMAL, ROUND_URGENT
from bookings.tests.factories import BookingFactory
from circles.models import CircleMember, CircleRole
from circles.services import recipient_for_self
from core.notifications import NoticeKind
from marketplace.testing.api import call
from messaging.models import Message
from notifications.models import Delivery
from providers.models import Provider, TimeOff
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app import services as requests
from requests_app.models import OfferedTo, TimeWindow, Urgency
from requests_app.tests.factories import ServiceRequestFactory
from vetting.services import provider_suspend

pytestmark = pytest.mark.django_db

HOME = (39.7817, -89.6501)  # Springfield, Illinois
MILE = 1 / 69.0


def _helper(name: str, miles_north: float, *, travel: int = 25, **fields) -> Provider:
    return VerifiedProviderFactory(
        user__first_name=name, latitude=HOME[0] + miles_north * MILE, longitude=HOME[1], travel_miles=travel, **fields
    )


@pytest.fixture
def family(client_user):
    recipient = recipient_for_self(user=client_user)
    recipient.street, recipient.town, recipient.state, recipient.zip_code = "1 Oak Lane", "Springfield", "IL", "62701"
    recipient.latitude, recipient.longitude = HOME
    recipient.place_status = "located"
    recipient.save()
    return client_user


@pytest.fixture
def member(family):
    from accounts.tests.factories import UserFactory

    mark = UserFactory(first_name="Mark")
    CircleMember.objects.create(recipient=family.care_recipient_self, user=mark, role=CircleRole.MEMBER)
    return mark


@pytest.fixture
def vera(db):
    return _helper("Vera", 0.5)


def _booking(family, vera, *, days: int = 1, paid: bool = True, **fields) -> Booking:
    """Vera's visit for the family, `days` ahead at 2:00 PM (afternoon window)."""
    request = ServiceRequestFactory(
        client=family,
        recipient=family.care_recipient_self,
        title="Tablet",
        preferred_date=timezone.localdate() + dt.timedelta(days=days),
        preferred_time=TimeWindow.AFTERNOON,
        status="booked",
        tasks=["Charge the tablet", "Set up video calls"],
    )
    values = {
        "status": BookingStatus.CONFIRMED if paid else BookingStatus.SCHEDULED,
        "payment_status": PaymentStatus.PAID if paid else PaymentStatus.PENDING,
        "arrival_time": dt.time(14, 0),
        "total_amount": Decimal("30.00"),
        "payment_intent_id": "pi_test_1" if paid else "",
    }
    return BookingFactory(service_request=request, provider=vera, **{**values, **fields})


def _offered(booking: Booking) -> list[str]:
    return list(
        ReplacementOffer.objects.filter(replacement__booking=booking)
        .order_by("round", "rank")
        .values_list("provider__user__first_name", flat=True)
    )


def _provider_cancel(client, user, booking, reason="I have the flu."):
    client.force_login(user)
    return call(client, "POST", f"/api/bookings/{booking.pk}/provider-cancel", {"reason": reason})


# ---------------------------------------------------------------- the helper leaves


def test_a_helper_who_cancels_hands_the_visit_at_once_to_the_best_helpers_free_then(client, family, member, vera):
    ana = _helper("Ana", 1)
    _helper("Otto", 2)
    _helper("Bea", 3)
    _helper("Dan", 4)  # fourth best: not in the first round
    _helper("Far", 40)  # beyond her own 25 miles
    _helper("Garden", 1.5, specialties=["light-errands"])  # not the service
    ProviderFactory(user__first_name="Pending", latitude=HOME[0], longitude=HOME[1])  # not verified
    away = _helper("Away", 0.2)  # the nearest, but on time off that day
    booking = _booking(family, vera)
    TimeOff.objects.create(provider=away, first_day=booking.scheduled_date, last_day=booking.scheduled_date)

    response = _provider_cancel(client, vera.user, booking)

    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert booking.status == BookingStatus.REPLACING
    assert booking.provider == vera  # until someone takes it; she holds nothing of it meanwhile
    assert _offered(booking) == ["Ana", "Otto", "Bea"]
    replacement = Replacement.objects.get(booking=booking)
    assert (replacement.cause, replacement.reason, replacement.state, replacement.round) == (
        ReplacementCause.HELPER_CANCELLED,
        "I have the flu.",
        ReplacementState.SEEKING,
        1,
    )
    # Less than 48 hours ahead: a short round.
    assert replacement.answer_by - timezone.now() <= ROUND_URGENT
    assert ReplacementOffer.objects.get(replacement=replacement, provider=ana).miles == pytest.approx(1.0, abs=0.05)
    # Each helper offered is told, in the catalogue's words, without the street.
    told = Delivery.objects.filter(event__kind=NoticeKind.REPLACEMENT_OFFERED, channel="email")
    assert sorted(told.values_list("recipient__first_name", flat=True)) == ["Ana", "Bea", "Otto"]
    assert "Oak Lane" not in str(told.first().event.context)
    # The family (organizer and plain member) reads it on the booking, and by email.
    for person in (family, member):
        client.force_login(person)
        shown = call(client, "GET", f"/api/bookings/{booking.pk}").json()
        assert shown["status"] == "replacing"
        assert shown["replacement"]["note"] == "Finding a replacement"
        listed = call(client, "GET", "/api/bookings").json()
        rows = listed["results"] if isinstance(listed, dict) else listed
        assert [r["replacement"]["note"] for r in rows if r["id"] == booking.pk] == ["Finding a replacement"]
    family_mail = Delivery.objects.filter(event__kind=NoticeKind.REPLACEMENT_UPDATES, channel="email")
    assert sorted(family_mail.values_list("recipient__first_name", flat=True)) == sorted([family.first_name, "Mark"])
    # The helper who left: told in the app, and no longer holds the address or the visit.
    assert Message.objects.filter(receiver=vera.user, content__contains="You cancelled your visit").exists()
    client.force_login(vera.user)
    mine = call(client, "GET", f"/api/bookings/{booking.pk}").json()
    assert mine["careDetails"] is None
    assert "Oak Lane" not in str(mine)
    rows = call(client, "GET", "/api/replacement-offers").json()
    assert rows == []


def test_at_48_hours_or_more_the_search_is_the_same_with_longer_rounds(client, family, vera):
    _helper("Ana", 1)
    booking = _booking(family, vera, days=6)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    replacement = Replacement.objects.get(booking=booking)
    assert replacement.answer_by - timezone.now() == pytest.approx(ROUND_NORMAL, abs=dt.timedelta(seconds=5))
    assert replacement.deadline == booking.visit_start - dt.timedelta(hours=2)


def test_a_helper_offered_it_takes_it_and_the_family_reads_replacement_confirmed(client, family, member, vera):
    ana = _helper("Ana", 1)
    otto = _helper("Otto", 2)
    booking = _booking(family, vera)
    tasks = list(booking.service_request.tasks)
    assert _provider_cancel(client, vera.user, booking).status_code == 200

    client.force_login(ana.user)
    [offer] = call(client, "GET", "/api/replacement-offers").json()
    assert (offer["bookingId"], offer["town"], offer["arrival"]) == (booking.pk, "Springfield", "2:00 PM")
    response = call(client, "POST", f"/api/bookings/{booking.pk}/replacement/accept", {})

    assert response.status_code == 200, response.content
    assert response.json()["id"] == booking.pk
    assert response.json()["arrivalNote"] == "You will arrive at 2:00 PM"
    booking.refresh_from_db()
    assert (booking.provider, booking.status, booking.payment_status) == (ana, BookingStatus.CONFIRMED, "paid")
    assert booking.service_request.tasks == tasks  # the same request, its task list
    answers = dict(ReplacementOffer.objects.filter(replacement__booking=booking).values_list("provider_id", "answer"))
    assert answers == {ana.pk: ReplacementOfferAnswer.ACCEPTED, otto.pk: ReplacementOfferAnswer.CLOSED}
    for person in (family, member):
        client.force_login(person)
        shown = call(client, "GET", f"/api/bookings/{booking.pk}").json()
        assert shown["replacement"]["note"] == "Replacement confirmed: Ana will arrive at 2:00 PM"
        assert shown["arrivalNote"] == "Ana will arrive at 2:00 PM"
    found = Delivery.objects.filter(
        event__kind=NoticeKind.REPLACEMENT_UPDATES, event__context__stage="found", channel="email"
    )
    assert found.count() == 2
    assert Message.objects.filter(
        receiver=member, content__contains="Replacement confirmed: Ana will arrive at 2:00 PM"
    ).exists()
    # Otto comes second: it is taken (409); Vera no longer sees the visit at all.
    client.force_login(otto.user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/accept", {}).status_code == 409
    client.force_login(vera.user)
    assert call(client, "GET", f"/api/bookings/{booking.pk}").status_code == 404
    assert replacement_counts(since=timezone.now() - dt.timedelta(days=7)) == {"needed": 1, "found": 1}


def test_an_unpaid_booking_goes_back_to_scheduled_with_its_new_helper(client, family, vera):
    ana = _helper("Ana", 1)
    booking = _booking(family, vera, paid=False)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    client.force_login(ana.user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/accept", {}).status_code == 200
    booking.refresh_from_db()
    assert (booking.status, booking.payment_status, booking.provider) == (BookingStatus.SCHEDULED, "pending", ana)


def test_a_helper_never_offered_it_gets_404_and_one_no_longer_free_409(client, family, vera):
    ana = _helper("Ana", 1)
    stranger = _helper("Late", 60)  # beyond her own 25 miles: never offered it
    booking = _booking(family, vera)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    client.force_login(stranger.user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/accept", {}).status_code == 404
    # Ana took time off that day after she was offered it: her accept is refused in plain words.
    TimeOff.objects.create(provider=ana, first_day=booking.scheduled_date, last_day=booking.scheduled_date)
    client.force_login(ana.user)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/replacement/accept", {})
    assert response.status_code == 409
    assert "time off" in response.json()["message"]
    booking.refresh_from_db()
    assert booking.status == BookingStatus.REPLACING


# ---------------------------------------------------------------- who may, and when


def test_only_the_booked_helper_may_cancel_her_visit(client, family, member, vera):
    booking = _booking(family, vera)
    other = _helper("Other", 1)
    assert _provider_cancel(client, family, booking).status_code == 403  # the organizer
    assert _provider_cancel(client, member, booking).status_code == 403  # a plain member
    assert _provider_cancel(client, other.user, booking).status_code == 404  # another helper: not hers to see
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED
    assert not Replacement.objects.exists()


@pytest.mark.parametrize("body", [{}, {"reason": ""}, {"reason": "   "}, {"reason": "x" * 2001}, {"reason": 5}])
def test_a_reason_is_required_and_bounded(client, family, vera, body):
    booking = _booking(family, vera)
    client.force_login(vera.user)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/provider-cancel", body)
    assert response.status_code == 400
    assert "reason" in response.json()["errors"]
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CONFIRMED


@pytest.mark.parametrize("status", [BookingStatus.CANCELLED, BookingStatus.COMPLETED, BookingStatus.REPLACING])
def test_only_an_active_visit_can_be_handed_on(client, family, vera, status):
    booking = _booking(family, vera, status=status)
    assert _provider_cancel(client, vera.user, booking).status_code == 409
    assert not Replacement.objects.exists()


def test_a_visit_that_has_begun_cannot_be_handed_on(client, family, vera):
    booking = _booking(family, vera, days=0, scheduled_time=TimeWindow.MORNING, arrival_time=dt.time(0, 5))
    response = _provider_cancel(client, vera.user, booking)
    assert response.status_code == 409
    assert "already begun" in response.json()["message"]


def test_staff_remove_a_helper_and_the_visit_is_offered_on_audited(client, family, vera, admin_user):
    _helper("Ana", 1)
    booking = _booking(family, vera)
    client.force_login(family)
    path = f"/api/admin/bookings/{booking.pk}/remove-helper"
    assert call(client, "PUT", path, {"reason": "Complaint"}).status_code == 403
    client.force_login(admin_user)
    assert call(client, "PUT", path, {"reason": ""}).status_code == 400

    response = call(client, "PUT", path, {"reason": "Two late arrivals this month."})

    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert booking.status == BookingStatus.REPLACING
    assert _offered(booking) == ["Ana"]
    assert Replacement.objects.get(booking=booking).cause == ReplacementCause.STAFF_REMOVED
    log = AuditLog.objects.get(action=AuditAction.BOOKING_HELPER_REMOVED)
    assert (log.reason, log.details) == ("Two late arrivals this month.", {"fromProviderId": vera.pk})
    assert Message.objects.filter(receiver=vera.user, content__contains="took you off the visit").exists()
    assert call(client, "PUT", path, {"reason": "Again"}).status_code == 409
    assert call(client, "PUT", "/api/admin/bookings/999999/remove-helper", {"reason": "x"}).status_code == 404


def test_a_suspended_helpers_visits_ahead_are_offered_on(family, vera, admin_user):
    _helper("Ana", 1)
    soon = _booking(family, vera)
    later = _booking(family, vera, days=9)
    past = _booking(family, vera, days=-3, status=BookingStatus.COMPLETED)

    provider_suspend(provider=Provider.objects.select_for_update().get(pk=vera.pk), reason="A re-check came back.")

    statuses = dict(Booking.objects.values_list("pk", "status"))
    assert statuses == {
        soon.pk: BookingStatus.REPLACING,
        later.pk: BookingStatus.REPLACING,
        past.pk: BookingStatus.COMPLETED,
    }
    assert set(Replacement.objects.values_list("cause", flat=True)) == {ReplacementCause.SUSPENDED}
    assert _offered(soon) == ["Ana"] and _offered(later) == ["Ana"]
    flagged = Message.objects.filter(receiver=admin_user, content__contains="It is being offered to other helpers")
    assert flagged.count() == 2
    assert Message.objects.filter(receiver=family, content__contains="Kindly is finding a replacement").count() == 2


def test_a_foreign_booking_is_404_for_the_familys_choices(client, family, vera):
    from accounts.tests.factories import UserFactory

    booking = _booking(family, vera)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    client.force_login(UserFactory())
    for action in ("refund", "wait"):
        assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/{action}", {}).status_code == 404


# ---------------------------------------------------------------- nobody in time


def test_unanswered_rounds_widen_then_staff_are_alerted_and_the_family_offered_a_refund(
    client, family, member, vera, admin_user
):
    for i in range(1, 11):
        _helper(f"H{i}", i)
    booking = _booking(family, vera)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    replacement = Replacement.objects.get(booking=booking)
    assert services.replacement_offers_send(replacement_id=replacement.pk) == ""  # not yet
    later = replacement.answer_by + dt.timedelta(seconds=1)
    assert services.replacement_offers_send(replacement_id=replacement.pk, now=later) == "round"
    assert _offered(booking) == [f"H{i}" for i in range(1, 9)]

    past_deadline = replacement.deadline + dt.timedelta(seconds=1)
    assert services.replacement_offers_send(replacement_id=replacement.pk, now=past_deadline) == "unfilled"

    replacement.refresh_from_db()
    assert replacement.state == ReplacementState.UNFILLED
    staff = Delivery.objects.get(event__kind=NoticeKind.MATCHING_ALERTS, recipient=admin_user, channel="email")
    assert staff.event.context["reason"] == "no_replacement"
    asked = Delivery.objects.filter(
        event__kind=NoticeKind.REPLACEMENT_UPDATES, event__context__stage="unfilled", channel="email"
    )
    assert asked.count() == 2
    client.force_login(family)
    shown = call(client, "GET", f"/api/bookings/{booking.pk}").json()["replacement"]
    assert (shown["askFamily"], shown["canRefund"]) == (True, True)
    client.force_login(member)
    shown = call(client, "GET", f"/api/bookings/{booking.pk}").json()["replacement"]
    assert (shown["askFamily"], shown["canRefund"]) == (False, False)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/refund", {}).status_code == 403
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/wait", {}).status_code == 403

    # The organizer keeps waiting: the question is not asked again; offers go on.
    client.force_login(family)
    response = call(client, "POST", f"/api/bookings/{booking.pk}/replacement/wait", {})
    assert response.status_code == 200
    assert response.json()["replacement"]["askFamily"] is False
    assert response.json()["replacement"]["canRefund"] is True
    assert replacement_counts(since=timezone.now() - dt.timedelta(days=1)) == {"needed": 1, "found": 0}


def test_the_family_takes_the_full_refund_in_one_tap(client, family, vera):
    booking = _booking(family, vera)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    client.force_login(family)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/wait", {}).status_code == 409  # not asked yet

    response = call(client, "POST", f"/api/bookings/{booking.pk}/replacement/refund", {})

    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CANCELLED
    assert booking.refund_status in (RefundStatus.PENDING, RefundStatus.SUCCEEDED)
    from payments.models import Refund

    assert Refund.objects.get(booking=booking).amount is None  # all of it: no late fee kept
    assert Replacement.objects.get(booking=booking).state == ReplacementState.ENDED
    assert booking.service_request.status == "cancelled"
    # Vera, who left, hears nothing of its end.
    assert not Delivery.objects.filter(event__kind=NoticeKind.BOOKING_CANCELLED, recipient=vera.user).exists()
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/refund", {}).status_code == 409


def test_a_visit_whose_time_comes_without_a_helper_is_cancelled_and_refunded(client, family, vera):
    booking = _booking(family, vera)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    replacement = Replacement.objects.get(booking=booking)
    done = services.replacement_offers_send(replacement_id=replacement.pk, now=booking.visit_start)
    assert done == "ended"
    booking.refresh_from_db()
    assert (booking.status, booking.cancelled_by_id) == (BookingStatus.CANCELLED, None)
    assert booking.refund_status != RefundStatus.NONE


def test_beat_moves_the_searches_that_are_due(family, vera):
    from bookings import tasks

    booking = _booking(family, vera)
    services.booking_cancel_by_provider(booking_id=booking.pk, actor=vera.user, reason="Car broke down")
    Replacement.objects.update(answer_by=timezone.now() - dt.timedelta(minutes=1))
    assert tasks.replacements_due() == 1
    assert Replacement.objects.get().round == 2


# ---------------------------------------------------------------- the offers seam, through the real flow


def test_a_visit_booked_through_offers_is_handed_on_the_same_way(client, family):
    """Posted, offered and accepted as families and helpers do; then the helper cancels 30 hours ahead."""
    vera = _helper("Vera", 0.5)
    request = ServiceRequestFactory(
        client=family,
        recipient=family.care_recipient_self,
        offered_to=OfferedTo.OFFERS,
        urgency=Urgency.NORMAL,
        preferred_date=timezone.localdate() + dt.timedelta(days=1),
        preferred_time=TimeWindow.AFTERNOON,
    )
    assert requests.offers_send(service_request_id=request.pk, now=timezone.now() + requests.PLACE_WAIT) == 1
    ana = _helper("Ana", 1)  # joins after the request's round
    client.force_login(vera.user)
    accepted = call(client, "POST", f"/api/service-requests/{request.pk}/accept", {"arrivalTime": "14:00"})
    assert accepted.status_code == 201, accepted.content
    booking_id = accepted.json()["id"]

    assert _provider_cancel(client, vera.user, Booking.objects.get(pk=booking_id)).status_code == 200
    client.force_login(ana.user)
    assert call(client, "POST", f"/api/bookings/{booking_id}/replacement/accept", {}).status_code == 200
    client.force_login(family)
    shown = call(client, "GET", f"/api/bookings/{booking_id}").json()
    assert shown["replacement"]["note"] == "Replacement confirmed: Ana will arrive at 2:00 PM"
    request.refresh_from_db()
    assert request.status == "booked"


def test_staff_may_give_a_visit_waiting_for_a_helper_to_one_they_found(client, family, vera, admin_user):
    ana = _helper("Ana", 1)
    bea = VerifiedProviderFactory(user__first_name="Bea")  # not near: staff found her by phone
    booking = _booking(family, vera)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    client.force_login(admin_user)

    response = call(
        client, "PUT", f"/api/admin/bookings/{booking.pk}/reassign", {"newProviderId": bea.pk, "reason": "Found Bea"}
    )

    assert response.status_code == 200, response.content
    booking.refresh_from_db()
    assert (booking.provider, booking.status) == (bea, BookingStatus.CONFIRMED)
    replacement = Replacement.objects.get(booking=booking)
    assert (replacement.state, replacement.found_provider) == (ReplacementState.FOUND, bea)
    assert ReplacementOffer.objects.get(replacement=replacement, provider=ana).answer == ReplacementOfferAnswer.CLOSED
    client.force_login(ana.user)
    assert call(client, "POST", f"/api/bookings/{booking.pk}/replacement/accept", {}).status_code == 409
    client.force_login(family)
    note = call(client, "GET", f"/api/bookings/{booking.pk}").json()["replacement"]["note"]
    assert note == "Replacement confirmed: Bea will arrive at 2:00 PM"


def test_a_family_closing_its_account_cancels_a_visit_waiting_for_a_helper_and_the_leaver_is_not_told(
    client, family, vera
):
    """The closure (marketplace.account_lifecycle) finds the visit among the family's and cancels it
    through booking_cancel_on_account_closure; the helper who left has no part in it any more."""
    from marketplace.account_lifecycle.selectors import bookings_active_of

    booking = _booking(family, vera, days=6)
    assert _provider_cancel(client, vera.user, booking).status_code == 200
    assert list(bookings_active_of(user=family)) == [booking]
    assert list(bookings_active_of(user=vera.user)) == []

    services.booking_cancel_on_account_closure(booking_id=booking.pk, actor=family)

    booking.refresh_from_db()
    assert (booking.status, booking.refund_status) == (BookingStatus.CANCELLED, RefundStatus.PENDING)
    assert Replacement.objects.get(booking=booking).state == ReplacementState.ENDED
    assert not Delivery.objects.filter(event__kind=NoticeKind.BOOKING_CANCELLED, recipient=vera.user).exists()


@pytest.mark.parametrize("near", [2, 8])
def test_choosing_a_replacement_takes_the_same_queries_however_many_helpers_are_near(
    family, vera, near, django_assert_max_num_queries
):
    """No query per helper: the ranking, who of its nearest is free then (free_for_visit), the pool's
    answer speed and the rows of those chosen. Those off that day or booked then are left out."""
    booking = _booking(family, vera, days=3)
    day = booking.scheduled_date
    for i in range(near):
        helper = _helper(f"H{i}", 1 + i / 10)
        if i == 0:
            TimeOff.objects.create(provider=helper, first_day=day, last_day=day)
        if i == 1:
            BookingFactory(
                provider=helper,
                status="confirmed",
                scheduled_date=day,
                scheduled_time="afternoon",
                arrival_time=dt.time(14, 30),
            )
    booking = Booking.objects.select_related("recipient", "service_request__category").get(pk=booking.pk)
    with django_assert_max_num_queries(4):  # her name too: told by name, the users come with the rows
        picked = [p.user.first_name for p, _ in replacement_candidates(booking, count=3, excluded=[vera.pk])]
    assert picked == [f"H{i}" for i in range(2, min(near, 5))]
