"""/messages: login required; conversations derived from bookings are in the island's props."""

from __future__ import annotations

import pytest

from bookings.tests.factories import BookingFactory
from marketplace.testing.pages import island_props
from messaging.tests.factories import MessageFactory, SystemMessageFactory

pytestmark = pytest.mark.django_db


def page_props(response) -> dict:
    return island_props(response, "messages-props")


def test_signed_out_visitor_is_sent_to_login(client):
    res = client.get("/messages")

    assert res.status_code == 302
    assert res["Location"] == "/login?next=%2Fmessages"


def test_client_sees_the_provider_of_each_booking(client, booking, client_user, verified_provider):
    client.force_login(client_user)

    res = client.get("/messages")

    assert res.status_code == 200
    props = page_props(res)
    assert [c["user"]["id"] for c in props["conversations"]] == [verified_provider.user.pk]
    conv = props["conversations"][0]
    assert conv["role"] == "provider"
    assert conv["bookingId"] == booking.pk
    assert conv["bookings"][0]["title"] == "Tablet video calls"
    assert "email" not in conv["user"]
    assert props["me"]["id"] == client_user.pk


def test_provider_sees_one_conversation_per_recipient_named_after_it(
    client, booking, client_user, verified_provider, stranger
):
    second = BookingFactory(service_request__client=client_user, provider=verified_provider)
    third = BookingFactory(service_request__client=stranger, provider=verified_provider)
    client.force_login(verified_provider.user)

    props = page_props(client.get("/messages"))

    convs = props["conversations"]
    # Clara's two visits (the same recipient) are one conversation; the stranger's is another.
    assert len(convs) == 2
    assert all(c["thread"] and c["role"] == "client" for c in convs)
    by_user = {c["user"]["id"]: c for c in convs}
    assert sorted(b["id"] for b in by_user[client_user.pk]["bookings"]) == sorted([booking.pk, second.pk])
    assert [b["id"] for b in by_user[stranger.pk]["bookings"]] == [third.pk]
    assert by_user[client_user.pk]["recipient"] == {
        "id": booking.recipient_id,
        "fullName": booking.recipient.full_name,
        "timeZone": booking.recipient.time_zone,
    }


def test_people_without_a_booking_are_not_listed_but_support_threads_are(
    client, booking, client_user, stranger, admin_user
):
    MessageFactory(sender=admin_user, receiver=stranger, content="Welcome")
    client.force_login(stranger)

    props = page_props(client.get("/messages"))

    assert [(c["user"]["id"], c["role"]) for c in props["conversations"]] == [(admin_user.pk, "support")]
    assert props["support"]["id"] == admin_user.pk


def test_unread_summary_is_in_the_props(client, booking, client_user, verified_provider):
    MessageFactory(sender=verified_provider.user, receiver=client_user)
    SystemMessageFactory(receiver=client_user)
    client.force_login(client_user)

    props = page_props(client.get("/messages"))

    assert props["unread"] == {
        "count": 2,
        "systemCount": 1,
        "bySender": {verified_provider.user.pk: 1},
        "byBooking": {},
    }
    assert props["maxLength"] == 2000


def test_page_runs_a_fixed_number_of_queries(client, verified_provider, django_assert_max_num_queries):
    for _ in range(6):
        BookingFactory(provider=verified_provider)
    client.force_login(verified_provider.user)

    with django_assert_max_num_queries(12):
        res = client.get("/messages")

    assert len(page_props(res)["conversations"]) == 6
