"""a request sent to one provider directly.

Only that provider sees and may accept it for 24 hours (frozen time here), for good when the client
chose "only this helper"; they may decline with a reason, and the circle is told. When the window
lapses unanswered, a beat task opens it to all and tells the circle once; only then do other
providers hear of it as a new request.
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import pytest
import time_machine
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus
from bookings.tests.factories import BookingFactory
from circles.models import CircleRole
from circles.services import recipient_for_self
from circles.tests.factories import CircleMemberFactory
from core.listcache import forget
from core.notifications import NoticeKind
from marketplace.testing.api import call, valid_request_body
from marketplace.testing.pages import island_props
from messaging.models import Message, MessageType
from notifications import channels
from notifications import services as notices
from notifications.kinds import Frequency
from notifications.models import Delivery, Event
from providers.tests.factories import ProviderFactory, VerifiedProviderFactory
from requests_app import services
from requests_app.api.serializers import direct_window_max_age
from requests_app.models import DIRECT_WINDOW, RequestStatus, ServiceRequest
from requests_app.tasks import open_lapsed_direct_requests
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

NOW = dt.datetime(2027, 3, 1, 14, 0, tzinfo=dt.UTC)


@pytest.fixture
def clock():
    with time_machine.travel(NOW, tick=False) as traveller:
        yield traveller


@pytest.fixture
def vera(db):
    return VerifiedProviderFactory(user__first_name="Vera", user__last_name="Lind", specialties=["tech-support"])


@pytest.fixture
def otto(db):
    """Another verified provider of the same service."""
    return VerifiedProviderFactory(user__first_name="Otto", specialties=["tech-support"])


def _post(client, user, **overrides):
    client.force_login(user)
    return call(client, "POST", "/api/service-requests", valid_request_body(**overrides))


def _direct(client, client_user, provider, *, only=False) -> ServiceRequest:
    response = _post(client, client_user, requestedProviderId=provider.pk, onlyRequestedProvider=only)
    assert response.status_code == 201, response.json()
    return ServiceRequest.objects.get(pk=response.json()["id"])


def _open_ids(client, user) -> set[int]:
    client.force_login(user)
    return {item["id"] for item in call(client, "GET", "/api/service-requests").json()}


def _system_texts(user) -> list[str]:
    return list(
        Message.objects.filter(receiver=user, message_type=MessageType.SYSTEM).values_list("content", flat=True)
    )


# ---------------------------------------------------------------- create


def test_a_direct_request_names_the_provider_and_tells_them(client, client_user, vera, clock):
    response = _post(client, client_user, requestedProviderId=vera.pk)

    assert response.status_code == 201
    body = response.json()
    assert body["requestedProvider"] == {"id": vera.pk, "firstName": "Vera", "lastName": "Lind"}
    assert dt.datetime.fromisoformat(body["directUntil"]) == NOW + DIRECT_WINDOW
    assert body["onlyRequestedProvider"] is False
    assert body["declinedAt"] is None and body["declineReason"] is None
    [text] = _system_texts(vera.user)
    assert "Clara asked for you directly" in text
    assert "Only you can accept it until Tuesday, March 2 at" in text
    email = channels.email_message(
        Delivery.objects.get(recipient=vera.user, event__kind=NoticeKind.DIRECT_REQUEST, channel="email")
    )
    assert "Clara asked for you directly" in email.subject


def test_a_plain_request_has_no_provider(client, client_user):
    body = _post(client, client_user, onlyRequestedProvider=True).json()
    assert body["requestedProvider"] is None and body["directUntil"] is None
    assert body["onlyRequestedProvider"] is False  # only meaningful with a provider


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda client_user: ProviderFactory().pk, services.REQUESTED_PROVIDER_UNKNOWN),  # pending
        (lambda client_user: VerifiedProviderFactory(is_active=False).pk, services.REQUESTED_PROVIDER_UNKNOWN),
        (lambda client_user: 999_999, services.REQUESTED_PROVIDER_UNKNOWN),
        (lambda client_user: ProviderFactory(user=client_user).pk, services.REQUESTED_PROVIDER_SELF),
    ],
    ids=["pending", "inactive", "unknown", "themself"],
)
def test_only_a_verified_active_other_provider_can_be_asked(client, client_user, make, message):
    before = ServiceRequest.objects.count()
    response = _post(client, client_user, requestedProviderId=make(client_user))

    assert response.status_code == 400
    assert response.json()["errors"] == {"requestedProviderId": [message]}
    assert ServiceRequest.objects.count() == before


@pytest.mark.parametrize("bad", ["7", 0, True, 1.5])
def test_a_malformed_provider_id_is_a_400_on_its_field(client, client_user, bad):
    response = _post(client, client_user, requestedProviderId=bad)
    assert response.status_code == 400
    assert list(response.json()["errors"]) == ["requestedProviderId"]


# ---------------------------------------------------------------- the 24-hour window


def test_the_24_hour_window_with_frozen_time(client, client_user, vera, otto, clock):
    """Only Vera sees and may accept it for 24 hours; then it is a normal open request."""
    request = _direct(client, client_user, vera)
    url = f"/api/service-requests/{request.pk}"

    assert request.pk in _open_ids(client, vera.user)
    assert call(client, "GET", url).json()["requestedProvider"]["id"] == vera.pk
    assert request.pk not in _open_ids(client, otto.user)
    assert call(client, "GET", url).status_code == 404
    assert call(client, "POST", f"{url}/accept").status_code == 404
    assert not Booking.objects.exists()

    clock.move_to(NOW + DIRECT_WINDOW - dt.timedelta(seconds=1))
    forget()  # the cached lists expire by Redis's clock, which time_machine does not move
    assert request.pk not in _open_ids(client, otto.user)
    assert call(client, "POST", f"{url}/accept").status_code == 404

    clock.move_to(NOW + DIRECT_WINDOW)
    forget()
    assert request.pk in _open_ids(client, otto.user)
    assert call(client, "GET", url).status_code == 200
    response = call(client, "POST", f"{url}/accept")
    assert response.status_code == 201, response.json()
    assert Booking.objects.get().provider == otto


def test_the_asked_provider_may_accept_within_the_window(client, client_user, vera, clock):
    request = _direct(client, client_user, vera)
    client.force_login(vera.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept").status_code == 201
    assert Booking.objects.get().provider == vera


def test_only_this_helper_stays_private_after_the_window(client, client_user, vera, otto, clock):
    request = _direct(client, client_user, vera, only=True)
    clock.move_to(NOW + 3 * DIRECT_WINDOW)

    assert open_lapsed_direct_requests() == 0  # never opens: nobody is told
    assert request.pk not in _open_ids(client, otto.user)
    assert call(client, "POST", f"/api/service-requests/{request.pk}/accept").status_code == 404
    assert request.pk in _open_ids(client, vera.user)


def test_the_lists_expire_when_the_window_ends(client, client_user, vera, clock):
    """The client's list says "Sent to Vera" until the window ends, and other providers' lists
    lack it until then: the cached pages must not outlive the window (nothing is saved when the
    clock alone opens the request)."""
    request = _direct(client, client_user, vera)
    _direct(client, client_user, vera, only=True)  # never opens: no end of its own
    clock.move_to(NOW + DIRECT_WINDOW - dt.timedelta(seconds=30))
    client.force_login(client_user)
    items = call(client, "GET", "/api/service-requests").json()
    assert request.pk in {item["id"] for item in items}
    assert direct_window_max_age(items) == pytest.approx(30)
    assert direct_window_max_age([], provider_viewer=True) == pytest.approx(30)  # hidden from them
    clock.move_to(NOW + DIRECT_WINDOW + dt.timedelta(seconds=1))
    assert direct_window_max_age(items) is None
    assert direct_window_max_age([], provider_viewer=True) is None


# ---------------------------------------------------------------- decline


def _decline(client, user, request, reason="I am away that week, sorry."):
    client.force_login(user)
    return call(client, "POST", f"/api/service-requests/{request.pk}/decline", {"reason": reason})


def test_a_decline_opens_the_request_at_once_and_tells_the_circle(client, client_user, vera, otto, clock):
    daughter = UserFactory(first_name="Dana")
    request = _direct(client, client_user, vera)
    CircleMemberFactory(recipient=request.recipient, user=daughter, role=CircleRole.MEMBER)

    response = _decline(client, vera.user, request, "  I am away that week, sorry.  ")

    assert response.status_code == 200
    assert response.json()["declineReason"] == "I am away that week, sorry."
    request.refresh_from_db()
    assert request.status == RequestStatus.OPEN
    assert request.declined_at == NOW and request.direct_opened_at == NOW
    assert request.pk in _open_ids(client, otto.user)  # within the 24 hours, open to all
    for person, whose in ((client_user, "your request"), (daughter, "the request")):  # a member did not ask
        [text] = [t for t in _system_texts(person) if "declined" in t]
        assert f'Vera declined {whose} "' in text
        assert "I am away that week, sorry." in text and "now open to all helpers" in text
        email = channels.email_message(
            Delivery.objects.get(recipient=person, event__kind=NoticeKind.DIRECT_REQUEST_DECLINED, channel="email")
        )
        assert "Their reason: I am away that week, sorry." in email.body
    # The reason is for the circle, Vera and admins; another provider sees that she declined, not why.
    assert call(client, "GET", f"/api/service-requests/{request.pk}").json()["declineReason"] is None
    client.force_login(daughter)
    assert call(client, "GET", f"/api/service-requests/{request.pk}").json()["declineReason"] == (
        "I am away that week, sorry."
    )


def test_declining_only_this_helper_cancels_the_request(client, client_user, vera, clock):
    request = _direct(client, client_user, vera, only=True)
    response = _decline(client, vera.user, request)

    assert response.status_code == 200
    request.refresh_from_db()
    assert request.status == RequestStatus.CANCELLED
    [text] = [t for t in _system_texts(client_user) if "declined" in t]
    assert "Your request was cancelled, as you asked for only them." in text


def test_decline_rules(client, client_user, vera, otto, admin_user, clock):
    request = _direct(client, client_user, vera)
    url = f"/api/service-requests/{request.pk}/decline"

    assert _decline(client, otto.user, request).status_code == 404  # cannot see it in the window
    assert _decline(client, client_user, request).status_code == 403  # sees it, not theirs
    assert _decline(client, admin_user, request).status_code == 403
    for body in ({"reason": ""}, {"reason": "   "}, {"reason": "x" * 501}, {}, {"reason": 5}):
        client.force_login(vera.user)
        response = call(client, "POST", url, body)
        assert response.status_code == 400, body
        assert list(response.json()["errors"]) == ["reason"]
    request.refresh_from_db()
    assert request.declined_at is None
    assert _decline(client, vera.user, request, "x" * 500).status_code == 200
    assert _decline(client, vera.user, request).status_code == 409  # already declined
    assert _decline(client, otto.user, request).status_code == 403  # open to all now: sees it

    accepted = _direct(client, client_user, vera)
    client.force_login(vera.user)
    assert call(client, "POST", f"/api/service-requests/{accepted.pk}/accept").status_code == 201
    assert _decline(client, vera.user, accepted).status_code == 409  # booked: no longer open


def test_a_request_without_a_provider_cannot_be_declined(client, client_user, vera):
    request_id = _post(client, client_user).json()["id"]
    # Not placed in time: offered by town, to every helper of the service (Vera sees it).
    services.offers_send(service_request_id=request_id, now=timezone.now() + services.PLACE_WAIT)
    client.force_login(vera.user)
    response = call(client, "POST", f"/api/service-requests/{request_id}/decline", {"reason": "Busy"})
    assert response.status_code == 403


# ---------------------------------------------------------------- the lapse and the new-request notices


def test_the_lapse_tells_the_circle_once_and_then_providers_hear_of_it(client, client_user, vera, otto, clock):
    notices.contact_set(user=otto.user, new_requests=Frequency.INSTANT)
    notices.contact_set(user=vera.user, new_requests=Frequency.INSTANT)
    request = _direct(client, client_user, vera)

    # Within the window: Otto hears nothing of it (Vera was told directly).
    assert notices.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 0
    assert open_lapsed_direct_requests() == 0
    clock.move_to(NOW + DIRECT_WINDOW - dt.timedelta(minutes=1))
    assert open_lapsed_direct_requests() == 0
    assert notices.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 0

    clock.move_to(NOW + DIRECT_WINDOW + dt.timedelta(minutes=1))
    assert open_lapsed_direct_requests() == 1
    assert open_lapsed_direct_requests() == 0  # idempotent
    request.refresh_from_db()
    assert request.direct_opened_at == NOW + DIRECT_WINDOW + dt.timedelta(minutes=1)
    texts = [t for t in _system_texts(client_user) if "24 hours" in t]
    assert texts == [f'Vera has not answered in 24 hours; your request "{request.title}" is now open to all helpers.']
    assert Event.objects.filter(kind=NoticeKind.DIRECT_REQUEST_OPENED).count() == 1

    # Now providers get the normal notice (posted a day ago: announced from when it opened); not Vera.
    assert notices.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 1
    assert Delivery.objects.filter(event__kind=NoticeKind.NEW_REQUESTS, recipient=otto.user).exists()
    assert not Delivery.objects.filter(event__kind=NoticeKind.NEW_REQUESTS, recipient=vera.user).exists()


def test_the_lapse_leaves_answered_requests_alone(client, client_user, vera, clock):
    accepted = _direct(client, client_user, vera)
    declined = _direct(client, client_user, vera)
    client.force_login(vera.user)
    assert call(client, "POST", f"/api/service-requests/{accepted.pk}/accept").status_code == 201
    assert _decline(client, vera.user, declined).status_code == 200
    clock.move_to(NOW + 2 * DIRECT_WINDOW)

    assert open_lapsed_direct_requests() == 0
    assert not Event.objects.filter(kind=NoticeKind.DIRECT_REQUEST_OPENED).exists()


def test_a_plain_request_still_reaches_providers_at_once(client, client_user, otto, clock):
    notices.contact_set(user=otto.user, new_requests=Frequency.INSTANT)
    request_id = _post(client, client_user).json()["id"]
    # Its place is still pending: it waits for it (nobody sees it yet) ...
    assert services.offers_send(service_request_id=request_id) == services.WAITING_FOR_PLACE
    assert notices.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 0
    # ... then, not placed in time, it is offered by town: every helper of the service hears of it.
    assert services.offers_send(service_request_id=request_id, now=timezone.now() + services.PLACE_WAIT) == 0
    assert ServiceRequest.objects.get(pk=request_id).offered_by_town
    assert notices.new_request_notices_send(now=timezone.now(), frequency=Frequency.INSTANT) == 1


def test_the_circle_sees_the_request_as_sent_to_the_provider(client, client_user, vera, clock):
    recipient = recipient_for_self(user=client_user)
    request = _direct(client, client_user, vera, only=True)
    client.force_login(client_user)
    body = call(client, "GET", f"/api/service-requests/{request.pk}").json()
    assert body["recipient"]["id"] == recipient.pk
    assert body["requestedProvider"]["firstName"] == "Vera"
    assert body["onlyRequestedProvider"] is True


# ---------------------------------------------------------------- the form's props (Book again)


def _form_props(client, user, query):
    client.force_login(user)
    response = client.get(f"/request-service{query}")
    assert response.status_code == 200
    return island_props(response, "request-service-props")


def test_book_again_starts_from_the_bookings_request(client, client_user, vera):
    old = ServiceRequestFactory(
        client=client_user,
        title="Tablet lessons",
        description="Show me video calls again, please.",
        special_requirements="Ring twice.",
        estimated_duration=90,
        max_budget=Decimal("45.00"),
        status=RequestStatus.COMPLETED,
    )
    booking = BookingFactory(service_request=old, provider=vera, status=BookingStatus.COMPLETED)

    props = _form_props(client, client_user, f"?provider={vera.pk}&from={booking.pk}")

    assert props["askedProvider"]["id"] == vera.pk
    assert props["prefill"] == {
        "recipientId": old.recipient_id,
        "categoryId": old.category_id,
        "title": "Tablet lessons",
        "description": "Show me video calls again, please.",
        "location": old.location,
        "address": {"street": "12 Elm Street", "unit": "", "town": "Springfield", "state": "", "zipCode": ""},
        "specialRequirements": "Ring twice.",
        # Book again keeps the family's task list.
        "tasks": [],
        "estimatedDuration": 90,
        "maxBudget": 45.0,
        "preferredTime": old.preferred_time,
        "urgency": old.urgency,
    }
    assert "preferredDate" not in props["prefill"]


def test_book_again_ignores_a_booking_outside_the_users_circles(client, client_user, vera):
    booking = BookingFactory(provider=vera, status=BookingStatus.COMPLETED)  # someone else's
    assert _form_props(client, client_user, f"?provider={vera.pk}&from={booking.pk}")["prefill"] is None
    for bad in ("abc", "-1", "9" * 20, ""):
        assert _form_props(client, client_user, f"?from={bad}")["prefill"] is None


def test_a_circle_member_may_start_from_their_circles_booking(client, client_user, vera):
    daughter = UserFactory(first_name="Dana")
    booking = BookingFactory(
        service_request=ServiceRequestFactory(client=client_user, status=RequestStatus.COMPLETED),
        provider=vera,
        status=BookingStatus.COMPLETED,
    )
    CircleMemberFactory(recipient=booking.recipient, user=daughter, role=CircleRole.ORGANIZER)
    assert _form_props(client, daughter, f"?from={booking.pk}")["prefill"]["title"] == booking.service_request.title


def test_a_provider_is_not_asked_to_help_themself(client, vera):
    assert _form_props(client, vera.user, f"?provider={vera.pk}")["askedProvider"] is None
