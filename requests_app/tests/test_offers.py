"""Offers, not a pile: a request posted for a placed recipient is offered to the best few helpers who
can take it (verified, her service, her travel distance covering the recipient, free then), ranked by
distance, rating and answer speed; each is told; only they see it and may accept it. Unanswered in
time it widens and staff are told; nobody near: it opens to every helper of the service; a recipient
who could not be placed: offered by town, flagged."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
from django.utils import timezone

from bookings.selectors import provider_visit_problems
from bookings.tests.factories import BookingFactory
from circles.services import recipient_for_self
from core.notifications import NoticeKind
from marketplace.testing.api import call, valid_request_body
from notifications.models import Delivery, Event
from providers.models import Provider, TimeOff, WeeklyHours
from providers.selectors import free_for_visit
from providers.tests.factories import VerifiedProviderFactory
from requests_app import services, tasks
from requests_app.models import OFFER_ROUNDS, Offer, OfferAnswer, OfferedTo, ServiceRequest, Urgency
from requests_app.selectors import (
    answer_minutes_of,
    offer_candidates,
    offer_score,
    request_visit_intervals,
    requests_to_offer,
)
from requests_app.selectors import offers as offers_selectors
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

HOME = (39.7817, -89.6501)  # Springfield, Illinois
MILE = 1 / 69.0  # degrees of latitude in a mile, about


def _helper(name: str, miles_north: float, *, travel: int = 25, rating: str = "4.50", **fields) -> Provider:
    return VerifiedProviderFactory(
        user__first_name=name,
        latitude=HOME[0] + miles_north * MILE,
        longitude=HOME[1],
        travel_miles=travel,
        rating=Decimal(rating),
        **fields,
    )


@pytest.fixture
def family(client_user):
    recipient = recipient_for_self(user=client_user)
    recipient.street, recipient.town, recipient.state, recipient.zip_code = "1 Oak Lane", "Springfield", "IL", "62701"
    recipient.latitude, recipient.longitude = HOME
    recipient.place_status = "located"
    recipient.save()
    return client_user


def _request(family, **fields) -> ServiceRequest:
    values = {"offered_to": OfferedTo.OFFERS, "urgency": Urgency.NORMAL, **fields}
    return ServiceRequestFactory(client=family, recipient=family.care_recipient_self, **values)


def _offered(request: ServiceRequest) -> list[str]:
    return list(
        Offer.objects.filter(service_request=request)
        .order_by("rank")
        .values_list("provider__user__first_name", flat=True)
    )


def _list_ids(client, user) -> list[int]:
    client.force_login(user)
    response = call(client, "GET", "/api/service-requests?view=provider")
    assert response.status_code == 200
    body = response.json()
    return [row["id"] for row in (body["results"] if isinstance(body, dict) else body)]


@pytest.mark.sqlite
def test_the_best_few_who_can_take_it_are_offered_it_and_told(family, django_capture_on_commit_callbacks):
    ana = _helper("Ana", 1)
    vera = _helper("Vera", 2)
    _helper("Otto", 3)
    _helper("Far", 40)  # beyond her own 25 miles
    _helper("Short", 3, travel=2)  # travels 2 miles only
    _helper("Garden", 1.5, specialties=["light-errands"])  # not the service
    off = _helper("Away", 0.5)
    request = _request(family)
    TimeOff.objects.create(provider=off, first_day=request.preferred_date, last_day=request.preferred_date)

    with django_capture_on_commit_callbacks() as told_after_commit:
        assert services.offers_send(service_request_id=request.pk) == 3
    # Nobody is told inside the round's transaction (it holds the request's row lock): after it.
    assert not Event.objects.filter(kind=NoticeKind.REQUEST_OFFERED).exists()
    for callback in told_after_commit:
        callback()
    assert _offered(request) == ["Ana", "Vera", "Otto"]
    request.refresh_from_db()
    assert request.offer_round == 1
    assert request.offers_answer_by == pytest.approx(
        timezone.now() + dt.timedelta(hours=2), abs=dt.timedelta(seconds=5)
    )
    offer = Offer.objects.get(service_request=request, provider=ana)
    assert offer.miles == pytest.approx(1.0, abs=0.05)
    # Each is told (by email: her default), in the catalogue's words, with the distance.
    told = Event.objects.filter(kind=NoticeKind.REQUEST_OFFERED)
    assert told.count() == 3
    email = Delivery.objects.get(event__kind=NoticeKind.REQUEST_OFFERED, recipient=vera.user, channel="email")
    assert email.event.context["miles"] == "2 miles away"
    # A round already made is not made again before its time (a repeated task changes nothing).
    assert services.offers_send(service_request_id=request.pk) == 0
    assert Offer.objects.filter(service_request=request).count() == 3


def test_only_the_helpers_offered_see_it_and_may_accept_it(client, family):
    ana = _helper("Ana", 1)
    vera = _helper("Vera", 2)
    request = _request(family)
    stranger = _helper("Late", 3)  # joins after the round: not offered
    Offer.objects.filter(service_request=request).delete()
    assert services.offers_send(service_request_id=request.pk) == 3
    Offer.objects.filter(service_request=request, provider=stranger).delete()

    assert request.pk in _list_ids(client, ana.user)
    row = call(client, "GET", "/api/service-requests?view=provider").json()[0]
    assert row["distanceMiles"] == pytest.approx(1.0, abs=0.05)
    assert request.pk not in _list_ids(client, stranger.user)
    client.force_login(stranger.user)
    assert call(client, "GET", f"/api/service-requests/{request.pk}").status_code == 404
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept", {}).status_code == 404

    client.force_login(vera.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept", {}).status_code == 201
    answers = dict(Offer.objects.filter(service_request=request).values_list("provider_id", "answer"))
    assert answers[vera.pk] == OfferAnswer.ACCEPTED
    assert answers[ana.pk] == OfferAnswer.CLOSED
    assert Offer.objects.get(service_request=request, provider=vera).answered_at is not None


def test_unanswered_it_widens_to_the_next_helpers_and_staff_are_told(
    family, admin_user, django_capture_on_commit_callbacks
):
    helpers = [_helper(f"H{i}", i) for i in range(1, 11)]
    request = _request(family, urgency=Urgency.URGENT)
    assert services.offers_send(service_request_id=request.pk) == 3
    request.refresh_from_db()
    # Urgent: 15 minutes to answer, not 2 hours.
    assert request.offers_answer_by - timezone.now() <= dt.timedelta(minutes=15)
    assert services.offers_send(service_request_id=request.pk) == 0  # not yet
    later = request.offers_answer_by + dt.timedelta(seconds=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert services.offers_send(service_request_id=request.pk, now=later) == 5
    round_two = Offer.objects.filter(service_request=request, round=2).order_by("rank")
    assert [o.provider_id for o in round_two] == [h.pk for h in helpers[3:8]]
    alert = Delivery.objects.get(event__kind=NoticeKind.MATCHING_ALERTS, recipient=admin_user)
    assert alert.event.context["reason"] == "unanswered"
    # The beat sweep finds what is due.
    request.refresh_from_db()
    assert request.pk not in requests_to_offer(now=timezone.now(), posted_before=timezone.now())
    assert request.pk in requests_to_offer(now=request.offers_answer_by, posted_before=timezone.now())
    # After the last round it opens to every helper who can take it.
    third = request.offers_answer_by + dt.timedelta(seconds=1)
    assert services.offers_send(service_request_id=request.pk, now=third) == 2
    request.refresh_from_db()
    fourth = request.offers_answer_by + dt.timedelta(seconds=1)
    assert services.offers_send(service_request_id=request.pk, now=fourth) == 0
    request.refresh_from_db()
    assert request.offered_to == OfferedTo.ALL


def test_nobody_near_opens_it_to_every_helper_and_tells_staff(client, family, admin_user):
    far = _helper("Far", 60)
    request = _request(family)
    assert services.offers_send(service_request_id=request.pk) == 0
    request.refresh_from_db()
    assert request.offered_to == OfferedTo.ALL and not request.offered_by_town
    assert Delivery.objects.filter(event__kind=NoticeKind.MATCHING_ALERTS, recipient=admin_user).exists()
    assert request.pk in _list_ids(client, far.user)


def test_a_recipient_not_placed_is_offered_by_town_and_flagged(client, client_user, admin_user):
    anywhere = VerifiedProviderFactory()
    request = ServiceRequestFactory(client=client_user, offered_to=OfferedTo.OFFERS)
    request.recipient.place_status = "pending"
    request.recipient.save(update_fields=["place_status"])
    # Still being placed: it waits (the task asks again), nobody sees it yet.
    assert services.offers_send(service_request_id=request.pk) == services.WAITING_FOR_PLACE
    assert request.pk not in _list_ids(client, anywhere.user)
    # Not placed in time: offered by town, to every helper of the service, and flagged to staff.
    assert services.offers_send(service_request_id=request.pk, now=timezone.now() + services.PLACE_WAIT) == 0
    request.refresh_from_db()
    assert request.offered_by_town and request.offered_to == OfferedTo.ALL
    assert request.pk in _list_ids(client, anywhere.user)
    alert = Delivery.objects.get(event__kind=NoticeKind.MATCHING_ALERTS, recipient=admin_user)
    assert alert.event.context["reason"] == "not_placed"


def test_posting_offers_it_from_celery_after_the_commit(
    client, family, monkeypatch, django_capture_on_commit_callbacks
):
    ana = _helper("Ana", 1)
    ran = []
    monkeypatch.setattr(tasks.offer_request, "delay", lambda pk: ran.append(tasks.offer_request.apply(args=[pk]).get()))
    client.force_login(family)
    with django_capture_on_commit_callbacks(execute=True):
        response = call(client, "POST", "/api/service-requests", valid_request_body())
    assert response.status_code == 201, response.json()
    request = ServiceRequest.objects.get(pk=response.json()["id"])
    assert request.offered_to == OfferedTo.OFFERS
    assert ran == [1]
    assert _offered(request) == ["Ana"]
    assert ana.pk == Offer.objects.get(service_request=request).provider_id


def test_a_direct_request_still_goes_to_the_helper_asked(client, family):
    vera = _helper("Vera", 50)
    client.force_login(family)
    body = valid_request_body(requestedProviderId=vera.pk)
    response = call(client, "POST", "/api/service-requests", body)
    assert response.status_code == 201
    request = ServiceRequest.objects.get(pk=response.json()["id"])
    assert request.offered_to == OfferedTo.ALL
    assert request.pk in _list_ids(client, vera.user)


def _answers(provider: Provider, minutes: int, times: int = 3) -> None:
    now = timezone.now()
    for _ in range(times):
        Offer.objects.create(
            service_request=ServiceRequestFactory(),
            provider=provider,
            offered_at=now - dt.timedelta(days=1),
            answered_at=now - dt.timedelta(days=1) + dt.timedelta(minutes=minutes),
            answer=OfferAnswer.DECLINED,
        )


@pytest.mark.sqlite
def test_answer_speed_is_the_median_of_her_last_answers_and_counts_in_the_rank():
    vera = _helper("Vera", 1)
    for minutes in (5, 10, 60):
        _answers(vera, minutes, times=1)
    Offer.objects.create(service_request=ServiceRequestFactory(), provider=vera, offered_at=timezone.now())  # no answer
    assert answer_minutes_of([vera.pk]) == {vera.pk: pytest.approx(10)}
    # One star lower counts as a mile farther; 30 minutes slower to answer too.
    assert offer_score(miles=1, rating=4, answer_minutes=0) == offer_score(miles=2, rating=5, answer_minutes=0)
    assert offer_score(miles=1, rating=5, answer_minutes=30) == offer_score(miles=2, rating=5, answer_minutes=0)


@pytest.mark.parametrize("speed_read", [1, 2, 12])
def test_the_answer_speeds_read_are_only_those_that_could_change_the_choice(family, monkeypatch, speed_read):
    """_best reads answer speeds a few helpers at a time, lowest bound first (distance and rating:
    no answer is quicker than at once), and stops once nobody left could be chosen: the same helpers
    as reading everyone's, without reading the far ones'."""
    monkeypatch.setattr("requests_app.selectors.offers.SPEED_READ", speed_read)
    read: list[int] = []
    real = offers_selectors.answer_minutes_of
    monkeypatch.setattr("requests_app.selectors.offers.answer_minutes_of", lambda ids: read.extend(ids) or real(ids))
    slow = _helper("Slow", 1, rating="5.00")  # nearest, but answers after 10 hours: 21 miles in all
    _answers(slow, 600)
    quick = _helper("Quick", 2, rating="5.00")  # 2 miles and 6 minutes: 2.2
    _answers(quick, 6)
    new = _helper("New", 3, rating="5.00")  # 3 miles, never offered one: counted as 30 minutes, 4.0
    far = _helper("Far", 15, rating="5.00")  # 15 miles: could never beat 4.0, whatever her speed
    _answers(far, 1)
    request = _request(family)

    picks = offer_candidates(request, count=2)

    assert [p.user.first_name for p, _miles in picks] == ["Quick", "New"]
    # One at a time: Far's 15 miles is worse than New's 4.0 before her speed is read. Two or more
    # at a time: she comes in New's batch.
    assert sorted(read) == sorted([slow.pk, quick.pk, new.pk] + ([far.pk] if speed_read > 1 else []))


def test_her_card_says_how_quickly_she_usually_answers(client):
    vera = _helper("Vera", 1)
    new = _helper("Nina", 2)
    now = timezone.now()
    for minutes in (12, 14, 40):
        Offer.objects.create(
            service_request=ServiceRequestFactory(),
            provider=vera,
            offered_at=now - dt.timedelta(hours=3),
            answered_at=now - dt.timedelta(hours=3) + dt.timedelta(minutes=minutes),
            answer=OfferAnswer.ACCEPTED,
        )
    rows = {row["id"]: row for row in call(client, "GET", "/api/providers?verified=true").json()}
    assert rows[vera.pk]["answerMinutes"] == 14
    assert rows[new.pk]["answerMinutes"] is None  # her card says "New helper" (no reviews) and no speed


def test_a_helper_who_accepted_before_the_notices_went_is_not_told_again(
    client, family, django_capture_on_commit_callbacks
):
    ana = _helper("Ana", 1)
    vera = _helper("Vera", 2)
    request = _request(family)
    with django_capture_on_commit_callbacks() as after_commit:
        assert services.offers_send(service_request_id=request.pk) == 2
    # Vera takes it before the task that tells them runs: the request is no longer open.
    client.force_login(vera.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept", {}).status_code == 201
    for callback in after_commit:
        callback()
    assert not Event.objects.filter(kind=NoticeKind.REQUEST_OFFERED).exists()
    assert services.offers_made_tell(service_request_id=request.pk, round_=1) == 0
    assert ana.pk in set(Offer.objects.filter(service_request=request).values_list("provider_id", flat=True))


@pytest.mark.parametrize("busy_helpers", [0, 6])
def test_choosing_whom_to_offer_takes_the_same_queries_however_many_helpers_are_near(
    family, busy_helpers, django_assert_max_num_queries
):
    """No query per helper: whether each is free then (her hours, time off and booked visits) is asked
    in the pool's own query, of the nearest in the ranking's order."""
    request = _request(family)
    day = request.preferred_date
    for i in range(busy_helpers + 4):
        helper = _helper(f"H{i}", 1 + i / 10)
        off = (day + dt.timedelta(days=3), day + dt.timedelta(days=4))  # not the visit's day
        TimeOff.objects.create(provider=helper, first_day=off[0], last_day=off[1])
        if i < busy_helpers:  # the nearest are booked then: the pool reads past them
            BookingFactory(
                provider=helper, status="confirmed", scheduled_date=day, scheduled_time=request.preferred_time
            )
    request.refresh_from_db()
    # The request's row and lock, the ranking, those of it free then, their answer speed, the rows of
    # the three chosen, the offers, the round.
    with django_assert_max_num_queries(9):  # and the savepoint and its release (the test is a transaction)
        assert services.offers_send(service_request_id=request.pk) == 3
    offered = set(Offer.objects.filter(service_request=request).values_list("provider__user__first_name", flat=True))
    assert offered == {f"H{i}" for i in range(busy_helpers, busy_helpers + 3)}


def test_a_round_reads_past_a_whole_batch_of_busy_helpers(family, monkeypatch):
    """The pool asks "free then?" of the ranking a batch at a time (OFFER_POOL_READ): when every
    helper of the first batch is booked then, the next batch is asked, not nobody offered."""
    monkeypatch.setattr("requests_app.selectors.offers.OFFER_POOL", 2)
    monkeypatch.setattr("requests_app.selectors.offers.OFFER_POOL_READ", 2)
    request = _request(family)
    for i in range(5):
        helper = _helper(f"H{i}", 1 + i / 10)
        if i < 3:  # the three nearest (a batch and a half) are booked then
            BookingFactory(
                provider=helper,
                status="confirmed",
                scheduled_date=request.preferred_date,
                scheduled_time=request.preferred_time,
            )
    request.refresh_from_db()

    picks = offer_candidates(request, count=3)

    assert [p.user.first_name for p, _miles in picks] == ["H3", "H4"]
    assert [round(miles, 1) for _p, miles in picks] == [1.3, 1.4]


@pytest.mark.sqlite
def test_the_database_says_who_is_free_as_visit_problems_does(family):
    """free_for_visit (the pool's EXISTS subqueries) keeps exactly the helpers visit_problems finds
    free: no hours set, hours covering it, hours another day or too short, time off over the day,
    a visit over it, a visit just before it."""
    request = _request(family, preferred_time="afternoon", estimated_duration=60)
    [(start, end)] = request_visit_intervals(request)
    local = timezone.localtime(start)
    weekday = local.weekday()
    helpers = {name: _helper(name, 1) for name in ("any", "covered", "other_day", "short", "off", "busy", "before")}
    WeeklyHours.objects.create(provider=helpers["covered"], weekday=weekday, start_time="09:00", end_time="18:00")
    WeeklyHours.objects.create(
        provider=helpers["other_day"], weekday=(weekday + 1) % 7, start_time="09:00", end_time="18:00"
    )
    WeeklyHours.objects.create(
        provider=helpers["short"],
        weekday=weekday,
        start_time=local.time(),
        end_time=(local + dt.timedelta(minutes=30)).time(),
    )
    TimeOff.objects.create(
        provider=helpers["off"], first_day=local.date() - dt.timedelta(days=1), last_day=local.date()
    )
    BookingFactory(
        provider=helpers["busy"], status="confirmed", scheduled_date=local.date(), scheduled_time="afternoon"
    )
    BookingFactory(
        provider=helpers["before"], status="confirmed", scheduled_date=local.date(), scheduled_time="morning"
    )

    everyone = Provider.objects.filter(pk__in=[p.pk for p in helpers.values()])
    in_database = set(free_for_visit(everyone, start=start, end=end).values_list("user__first_name", flat=True))
    in_python = {name for name, p in helpers.items() if provider_visit_problems(p, [(start, end)]) == [""]}
    assert in_database == in_python == {"any", "covered", "before"}


def test_a_series_is_offered_to_a_helper_free_for_one_of_its_visits(family):
    """A series (several visits): a helper who can make one of them is offered it (visit_problems on
    the pool's prefetched hours, time off and visits), one who can make none is not."""
    request = _request(family, repeat="weekly", repeat_count=2)
    first = request.preferred_date
    some = _helper("Some", 1)
    TimeOff.objects.create(provider=some, first_day=first, last_day=first)  # free the second week
    none_ = _helper("None", 2)
    TimeOff.objects.create(provider=none_, first_day=first, last_day=first + dt.timedelta(days=7))
    assert services.offers_send(service_request_id=request.pk) == 1
    assert _offered(request) == ["Some"]


def test_not_for_me_takes_it_off_her_list_and_offers_it_to_the_next_at_once(
    client, family, django_capture_on_commit_callbacks
):
    ana, vera, otto, next_ = _helper("Ana", 1), _helper("Vera", 2), _helper("Otto", 3), _helper("Next", 4)
    request = _request(family)
    assert services.offers_send(service_request_id=request.pk) == 3
    Offer.objects.filter(service_request=request).update(offered_at=timezone.now() - dt.timedelta(minutes=6))
    answer_by = ServiceRequest.objects.get(pk=request.pk).offers_answer_by

    client.force_login(ana.user)
    with django_capture_on_commit_callbacks(execute=True):
        response = call(client, "POST", f"/api/service-requests/{request.pk}/not-for-me", {"reason": "Too far"})
    assert response.status_code == 200 and response.json() == {"offeredNext": 1}
    mine = Offer.objects.get(service_request=request, provider=ana)
    assert (mine.answer, mine.decline_reason) == (OfferAnswer.DECLINED, "Too far")
    # Her answer counts in her answer speed (6 minutes).
    assert answer_minutes_of([ana.pk]) == {ana.pk: pytest.approx(6, abs=0.2)}
    # Off her list, and hers to accept no more.
    assert request.pk not in _list_ids(client, ana.user)
    client.force_login(ana.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept", {}).status_code == 404
    # The next helper free then has it at once, in the same round until the same time, and is told.
    assert _offered(request) == ["Ana", "Vera", "Otto", "Next"]
    assert ServiceRequest.objects.get(pk=request.pk).offers_answer_by == answer_by
    assert request.pk in _list_ids(client, next_.user)
    told = Event.objects.filter(kind=NoticeKind.REQUEST_OFFERED, context__request_id=request.pk)
    assert told.filter(key__endswith=f":provider:{next_.pk}").exists()
    # Twice is a 409; a helper it was never offered to gets 404.
    client.force_login(ana.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/not-for-me", {}).status_code == 409
    client.force_login(_helper("Stranger", 5).user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/not-for-me", {}).status_code == 404
    assert {vera.pk, otto.pk} <= set(Offer.objects.filter(answer="").values_list("provider_id", flat=True))


def test_with_nobody_left_not_for_me_ends_the_round_and_the_sweep_widens_it(client, family):
    ana = _helper("Ana", 1)
    request = _request(family)
    assert services.offers_send(service_request_id=request.pk) == 1
    client.force_login(ana.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/not-for-me", {})
    assert response.json() == {"offeredNext": 0}
    assert request.pk in requests_to_offer(now=timezone.now(), posted_before=timezone.now())
    services.offers_send(service_request_id=request.pk)  # the sweep: nobody left, so open to all
    assert ServiceRequest.objects.get(pk=request.pk).offered_to == OfferedTo.ALL


@pytest.mark.parametrize("body", [{"reason": "x" * 501}, {"reason": 5}, {"reason": ["Too far"]}])
def test_not_for_me_refuses_a_bad_reason_and_changes_nothing(client, family, body):
    ana = _helper("Ana", 1)
    request = _request(family)
    services.offers_send(service_request_id=request.pk)
    client.force_login(ana.user)
    response = call(client, "POST", f"/api/service-requests/{request.pk}/not-for-me", body)
    assert response.status_code == 400 and "reason" in response.json()["errors"]
    assert Offer.objects.get(service_request=request, provider=ana).answer == OfferAnswer.WAITING


def test_a_widened_request_reaches_the_helpers_who_chose_instant_notices_within_the_hour(family):
    """Opened to every helper after its rounds (here, hours after it was posted), it is told as a
    new request from then, like a direct request whose window lapsed; not to the helper it was
    offered to, who was told then."""
    from notifications import services as notices
    from notifications.kinds import Frequency, Kind

    ana = _helper("Ana", 1)
    far = _helper("Far", 60, travel=100)
    for helper in (ana, far):
        notices.contact_set(user=helper.user, new_requests=Frequency.INSTANT)
    request = _request(family)
    ServiceRequest.objects.filter(pk=request.pk).update(created_at=timezone.now() - dt.timedelta(hours=5))
    assert services.offers_send(service_request_id=request.pk) == 2  # Ana and Far, both in reach
    Offer.objects.filter(service_request=request, provider=far).delete()  # Far joined after the round
    ServiceRequest.objects.filter(pk=request.pk).update(offers_answer_by=timezone.now(), offer_round=OFFER_ROUNDS)
    services.offers_send(service_request_id=request.pk)  # the last round ran out: open to all
    assert ServiceRequest.objects.get(pk=request.pk).offered_to == OfferedTo.ALL

    assert notices.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 1
    told = Event.objects.filter(kind=Kind.NEW_REQUESTS).values_list("key", flat=True)
    assert list(told) == [f"{Kind.NEW_REQUESTS}:request:{request.pk}:provider:{far.pk}"]
