"""One person, one conversation: every visit of a care recipient by the same provider is one
conversation (the list, the thread, the unread count, marking read), each message keeping the
visit it was written about so the page marks each visit inside it."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from bookings.tests.factories import BookingFactory
from marketplace.testing.pages import island_props
from messaging import selectors
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db


def post(api, **body):
    return api.post("/api/messages", body, format="json")


def visit(client_user, provider, recipient, *, days: int, title: str, status: str = "scheduled"):
    return BookingFactory(
        service_request=ServiceRequestFactory(
            client=client_user,
            recipient=recipient,
            status="booked",
            title=title,
            preferred_date=timezone.localdate() + dt.timedelta(days=days),
        ),
        provider=provider,
        status=status,
    )


@pytest.fixture
def three_visits(client_user, verified_provider, harold, bob):
    """Vera's three visits to Harold: one done last week, one in two days, one in nine."""
    return [
        visit(client_user, verified_provider, harold, days=-7, title="Technology Support", status="completed"),
        visit(client_user, verified_provider, harold, days=2, title="Technology Support"),
        visit(client_user, verified_provider, harold, days=9, title="Home Organization"),
    ]


def test_three_visits_by_one_helper_are_one_conversation_listing_every_visit(
    api_for, client_user, verified_provider, three_visits
):
    past, soon, later = three_visits
    for user in (client_user, verified_provider.user):
        listed = api_for(user).get("/api/messages/conversations").json()
        threads = [c for c in listed if c["thread"]]
        assert len(threads) == 1
        assert [b["id"] for b in threads[0]["bookings"]] == [later.pk, soon.pk, past.pk]
        # New messages are about the next visit to come.
        assert threads[0]["bookingId"] == soon.pk


def test_another_helper_or_another_recipient_is_another_conversation(
    api_for, client_user, verified_provider, harold, three_visits
):
    from circles.services import recipient_for_self
    from providers.tests.factories import VerifiedProviderFactory

    visit(client_user, VerifiedProviderFactory(), harold, days=3, title="Gardening")
    visit(client_user, verified_provider, recipient_for_self(user=client_user), days=4, title="Errands")

    listed = api_for(client_user).get("/api/messages/conversations").json()
    assert len([c for c in listed if c["thread"]]) == 3


def test_the_thread_of_any_visit_is_the_whole_conversation_and_reading_it_reads_all(
    api_for, client_user, bob, verified_provider, three_visits
):
    past, soon, later = three_visits
    vera = verified_provider.user
    for booking, text in ((past, "Thanks for today"), (soon, "See you Tuesday"), (later, "About the closet")):
        assert post(api_for(client_user), receiverId=vera.pk, content=text, bookingId=booking.pk).status_code == 201

    vera_api = api_for(vera)
    assert vera_api.get("/api/messages/unread-count").json()["count"] == 3
    seen = [(m["content"], m["bookingId"]) for m in vera_api.get(f"/api/messages/booking/{past.pk}").json()]
    assert seen == [("Thanks for today", past.pk), ("See you Tuesday", soon.pk), ("About the closet", later.pk)]
    # Opening the conversation read all of it, whichever visit it was opened by.
    assert vera_api.get("/api/messages/unread-count").json()["count"] == 0
    # Bob, in Harold's circle, sees the same conversation from another visit.
    bobs = api_for(bob).get(f"/api/messages/booking/{later.pk}").json()
    assert [m["content"] for m in bobs] == ["Thanks for today", "See you Tuesday", "About the closet"]


def test_a_stranger_still_cannot_read_the_conversation(api_for, stranger, three_visits):
    assert api_for(stranger).get(f"/api/messages/booking/{three_visits[0].pk}").status_code == 404


def test_a_conversation_with_only_past_visits_writes_about_the_newest(client_user, verified_provider, harold, bob):
    older = visit(client_user, verified_provider, harold, days=-9, title="A", status="completed")
    newer = visit(client_user, verified_provider, harold, days=-2, title="B", status="completed")
    (conv,) = selectors.conversation_list(user=client_user)
    assert conv.thread == newer and conv.bookings == [newer, older]


def test_messages_page_props_hold_one_conversation_per_pair(client, client_user, three_visits):
    client.force_login(client_user)
    props = island_props(client.get("/messages"), "messages-props")
    assert len([c for c in props["conversations"] if c["thread"]]) == 1
