"""Offers: a posted request offered round by round to the best few helpers near the person
cared for, their "Not for me", the telling, and the offers closed by an accept."""

from __future__ import annotations

import datetime as dt

from django.db import transaction
from django.utils import dateformat, timezone

from accounts.models import User
from circles.notices import notice_send
from core.errors import Conflict, InvalidInput, NotFound
from core.events import OffersMade, ServiceRequestPosted, publish
from core.geo import shown_miles
from core.geocoding import PlaceStatus
from core.notifications import NoticeKind
from providers.models import Provider
from requests_app import selectors
from requests_app.models import (
    OFFER_FIRST,
    OFFER_ROUNDS,
    OFFER_WIDEN,
    WINDOW_TIMES,
    Offer,
    OfferAnswer,
    OfferedTo,
    RequestStatus,
    ServiceRequest,
)
from requests_app.services.base import check_open, direct_until_text, service_request_lock
from requests_app.services.rules import DECLINE_REASON_MAX, DECLINE_REASON_TOO_LONG

# A request posted for a placed recipient is offered to the best few helpers who can take it
# (requests_app.selectors.offer_candidates), each told by email and text as she chose; only they see
# it and may accept it. Unanswered for offer_answer_time, it widens to the next few and staff are
# told; after OFFER_ROUNDS rounds, or when nobody near can take it, it opens to every helper who can
# (OfferedTo.ALL). A recipient who could not be placed: offered by town (every helper of the
# service), flagged to staff. Runs from Celery (requests_app.tasks), never in the request's create.

# How long a round waits for the recipient's place (its geocoding runs after her address is saved).
PLACE_WAIT = dt.timedelta(minutes=10)
WAITING_FOR_PLACE = -1


def on_service_request_posted(event: ServiceRequestPosted) -> None:
    """ServiceRequestPosted (on commit): its first round of offers, from Celery."""
    from requests_app.tasks import offer_request  # noqa: PLC0415 (the task module imports this one)

    offer_request.delay(event.service_request_id)


def _clock(moment: dt.time) -> str:
    return dateformat.time_format(moment, "g:i A")


def _when_words(service_request: ServiceRequest) -> str:
    """ "Tuesday, March 3, 8:00 AM to 12:00 PM" (the family's window, on the recipient's clock)."""
    start, end = WINDOW_TIMES[service_request.preferred_time or "flexible"]
    day = service_request.preferred_date
    times = f"{_clock(start)} to {_clock(end)}"
    return f"{day:%A}, {day:%B} {day.day}, {times}" if day else times


def _alert_staff(service_request: ServiceRequest, reason: str, *, round_: int = 0) -> None:
    notice_send(
        NoticeKind.MATCHING_ALERTS,
        facts={"title": service_request.title, "town": service_request.town, "reason": reason, "round": round_},
        key=f"request:{service_request.pk}:{reason}:{round_}",
    )


def _open_to_all(service_request: ServiceRequest, reason: str, *, by_town: bool = False) -> None:
    service_request.offered_to = OfferedTo.ALL
    service_request.offers_answer_by = None
    service_request.offered_by_town = by_town
    service_request.widened_at = timezone.now()  # providers hear of it from now (new-request notices)
    service_request.save(
        update_fields=["offered_to", "offers_answer_by", "offered_by_town", "widened_at", "updated_at"]
    )
    _alert_staff(service_request, reason)


def offers_send(*, service_request_id: int, now: dt.datetime | None = None) -> int:
    """The next round of offers of an open request offered to a few (OfferedTo.OFFERS) whose round
    is due (none made yet, or the last one unanswered by offers_answer_by): offers made, and
    OffersMade published (each helper told, and staff when it widens, from Celery after the commit:
    offers_made_tell). Returns how many helpers were offered it (0: none, or it was
    not due, or it opened to all), WAITING_FOR_PLACE while the recipient is still being placed.

    Safe to repeat and to race with an accept, an edit or a cancel: the row is re-read under lock."""
    now = now or timezone.now()
    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_for_update(of=("self",))
            .select_related("recipient", "category")
            .filter(pk=service_request_id)
            .first()
        )
        if (
            service_request is None
            or service_request.status != RequestStatus.OPEN
            or service_request.offered_to != OfferedTo.OFFERS
            or (service_request.offers_answer_by is not None and service_request.offers_answer_by > now)
        ):
            return 0
        recipient = service_request.recipient
        if recipient.latitude is None or recipient.longitude is None:
            if recipient.place_status == PlaceStatus.PENDING and service_request.created_at > now - PLACE_WAIT:
                return WAITING_FOR_PLACE
            _open_to_all(service_request, "not_placed", by_town=True)
            return 0
        round_ = service_request.offer_round + 1
        if round_ > OFFER_ROUNDS:
            _open_to_all(service_request, "no_helpers")
            return 0
        picks = selectors.offer_candidates(service_request, count=OFFER_FIRST if round_ == 1 else OFFER_WIDEN)
        if not picks:
            _open_to_all(service_request, "no_helpers")
            return 0
        answer_by = now + selectors.offer_answer_time(service_request)
        Offer.objects.bulk_create(
            [
                Offer(
                    service_request=service_request,
                    provider=provider,
                    round=round_,
                    rank=rank,
                    miles=miles,
                    offered_at=now,
                )
                for rank, (provider, miles) in enumerate(picks, start=1)
            ]
        )
        service_request.offer_round = round_
        service_request.offers_answer_by = answer_by
        service_request.save(update_fields=["offer_round", "offers_answer_by", "updated_at"])
        # The helpers (and staff, when it widens) are told from Celery after the commit: notices
        # write rows of their own and push to sockets, which the row lock need not wait for.
        publish(OffersMade(service_request_id=service_request.pk, round=round_))
    return len(picks)


OFFER_DECLINE_NOT_YOURS = "This request was not offered to you."
OFFER_ANSWERED = "You have already answered this offer."


def offer_decline(*, service_request_id: int, actor: User, reason: str = "") -> int:
    """A helper says "Not for me" to a request offered to her (an optional reason, at most
    DECLINE_REASON_MAX characters): her offer is answered (it counts in her answer speed), the
    request leaves her list, and the next best helper free then is offered it at once in the same
    round (told from Celery after the commit, OffersMade). With nobody left to offer it and nobody
    else waiting, the round ends now and the sweep widens it (offers_send). Returns how many
    helpers were offered it in her place (0 or 1). 404: not offered to her; 409: answered already,
    or the request is no longer open."""
    reason = (reason or "").strip()
    if len(reason) > DECLINE_REASON_MAX:
        raise InvalidInput(DECLINE_REASON_TOO_LONG, errors={"reason": [DECLINE_REASON_TOO_LONG]})
    now = timezone.now()
    with transaction.atomic():
        service_request = service_request_lock(service_request_id=service_request_id)
        offer = (
            Offer.objects.select_for_update()
            .filter(service_request_id=service_request.pk, provider__user_id=actor.pk)
            .first()
        )
        if offer is None:
            raise NotFound(OFFER_DECLINE_NOT_YOURS)
        if offer.answer != OfferAnswer.WAITING:
            raise Conflict(OFFER_ANSWERED)
        check_open(service_request, "answered")
        offer.answer, offer.answered_at, offer.decline_reason = OfferAnswer.DECLINED, now, reason
        offer.save(update_fields=["answer", "answered_at", "decline_reason"])
        if service_request.offered_to != OfferedTo.OFFERS:
            return 0  # open to every helper already: nobody to offer it to in her place
        service_request = ServiceRequest.objects.select_related("recipient", "category").get(pk=service_request.pk)
        picks = selectors.offer_candidates(service_request, count=1)
        if picks:
            provider, miles = picks[0]
            last = Offer.objects.filter(service_request_id=service_request.pk).order_by("-rank").first()
            Offer.objects.create(
                service_request=service_request,
                provider=provider,
                round=offer.round,
                rank=(last.rank if last else 0) + 1,
                miles=miles,
                offered_at=now,
            )
            publish(OffersMade(service_request_id=service_request.pk, round=offer.round))
        elif not Offer.objects.filter(service_request_id=service_request.pk, answer=OfferAnswer.WAITING).exists():
            # Nobody else is considering it: its round is over now (beat's sweep, requests_to_offer).
            service_request.offers_answer_by = now
            service_request.save(update_fields=["offers_answer_by", "updated_at"])
    return len(picks)


def on_offers_made(event: OffersMade) -> None:
    """OffersMade (on commit): the helpers of the round are told, from Celery."""
    from requests_app.tasks import offers_tell  # noqa: PLC0415 (the task module imports this one)

    offers_tell.delay(event.service_request_id, event.round)


def offers_made_tell(*, service_request_id: int, round_: int) -> int:
    """Tell each helper offered the request in this round (the catalogue's request_offered notice,
    in the app and by email and text as she chose), and staff when the round widened it. Only while
    the request is open and her offer unanswered: one accepted before the task ran tells nobody more.
    Safe to repeat (each notice's key is its request and helper). Returns how many were told."""
    with transaction.atomic():
        service_request = (
            ServiceRequest.objects.select_related("client")
            .filter(pk=service_request_id, status=RequestStatus.OPEN)
            .first()
        )
        if service_request is None:
            return 0
        offers = list(
            Offer.objects.filter(service_request=service_request, round=round_, answer=OfferAnswer.WAITING)
            .select_related("provider__user")
            .order_by("rank")
        )
        if not offers:
            return 0
        when = _when_words(service_request)
        # When the round ends, as offers_send set it (a helper offered it in another's place since
        # has until then too).
        answer_by = service_request.offers_answer_by or offers[0].offered_at + selectors.offer_answer_time(
            service_request
        )
        for offer in offers:
            notice_send(
                NoticeKind.REQUEST_OFFERED,
                helpers=[offer.provider.user],
                facts={
                    "title": service_request.title,
                    "when": when,
                    "town": service_request.town or service_request.zip_code,
                    "miles": miles_words(offer.miles),
                    "request_id": service_request.pk,
                    "answer_by": direct_until_text(answer_by),
                },
                key=f"request:{service_request.pk}:provider:{offer.provider_id}",
            )
        if round_ > 1:
            _alert_staff(service_request, "unanswered", round_=round_)
    return len(offers)


def miles_words(miles: float | None) -> str:
    """ "3.2 miles away" as the pages say it (frontend/lib/format.ts milesAway), "" when unknown."""
    if miles is None:
        return ""
    shown = shown_miles(miles)
    if shown < 0.1:
        return "Less than 0.1 miles away"
    return f"{shown:g} {'mile' if shown == 1 else 'miles'} away"


def offer_accepted(*, service_request: ServiceRequest, provider: Provider, now: dt.datetime) -> None:
    """Her accept answers her offer; the others' offers close unanswered (inside the accept's
    transaction, which holds the request's row)."""
    Offer.objects.filter(service_request=service_request, provider=provider, answered_at__isnull=True).update(
        answered_at=now, answer=OfferAnswer.ACCEPTED
    )
    Offer.objects.filter(service_request=service_request, answer=OfferAnswer.WAITING).exclude(provider=provider).update(
        answer=OfferAnswer.CLOSED
    )
    if service_request.offers_answer_by is not None:
        ServiceRequest.objects.filter(pk=service_request.pk).update(offers_answer_by=None)
