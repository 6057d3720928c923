"""Two people chat live in two Chromium contexts, through Daphne (websockets) and Redis."""

from __future__ import annotations

import re
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from playwright.sync_api import BrowserContext, Page, expect

from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.live import DaphneServer

_worker = ThreadPoolExecutor(max_workers=1)


def in_thread(fn, /, **kwargs):
    """Run a service as a request would: in a thread without an event loop (Playwright's sync
    API runs one in this thread, and the on-commit push uses async_to_sync)."""

    def call():
        try:
            return fn(**kwargs)
        finally:
            connection.close()

    return _worker.submit(call).result(timeout=10)


pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("fresh_channel_layer"),
]


@pytest.fixture
def server(transactional_db, daphne_servers):
    daphne = daphne_servers()
    yield daphne
    sys.stdout.write(daphne.output())  # pytest shows it when the test failed


@pytest.fixture
def signed_in_context(server: DaphneServer, new_context):
    """signed_in_context(user): a browser context on Daphne with `user` signed in. pytest-playwright's
    new_context closes it when the test ends, before Daphne stops (no page outlives its server)."""

    def make(user) -> BrowserContext:
        client = Client()
        client.force_login(user)
        context = new_context(base_url=server.url)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        context.add_cookies([{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": server.url}])
        return context

    return make


def open_messages(context: BrowserContext, query: str = "") -> Page:
    page = context.new_page()
    page.goto(f"/messages{query}")
    expect(page.locator('[data-island="messages"]')).to_have_attribute("data-connected", "true")
    return page


def test_client_and_provider_chat_live_without_reload(
    signed_in_context, server, booking, client_user, verified_provider
):
    vera = verified_provider.user
    thread = f"booking-{booking.pk}"
    clara_page = open_messages(signed_in_context(client_user))
    vera_page = open_messages(signed_in_context(vera))
    expect(vera_page.get_by_role("heading", name="Select a Conversation")).to_be_visible()
    expect(vera_page.get_by_text("Need Help?")).to_be_visible()
    assert vera_page.locator(".chat-pane").bounding_box()["height"] == 600
    expect(vera_page.get_by_test_id(f"unread-{thread}")).to_have_count(0)

    # Clara opens her conversation with Vera (the provider of her booking) and writes.
    clara_page.get_by_test_id(f"conversation-{thread}").click()
    expect(clara_page.get_by_role("heading", name=vera.full_name)).to_be_visible()
    send = clara_page.get_by_role("button", name="Send")
    expect(send).to_be_disabled()  # nothing to send yet
    clara_page.get_by_label(re.compile("Message to")).fill("   Hello Vera, see you Tuesday!   ")
    sent_at = time.monotonic()
    send.click()

    # Vera's page, never reloaded: the unread badges rise within a second.
    expect(vera_page.get_by_test_id(f"unread-{thread}")).to_contain_text("1", timeout=1000)
    expect(vera_page.get_by_test_id("total-unread")).to_contain_text("1", timeout=1000)
    assert time.monotonic() - sent_at < 1.5
    expect(clara_page.get_by_test_id("message")).to_have_text(re.compile(r"Hello Vera, see you Tuesday!\S"))

    # Vera opens it: the message is there, and reading it clears her badges (pushed count).
    vera_page.get_by_test_id(f"conversation-{thread}").click()
    expect(vera_page.get_by_test_id("message")).to_contain_text("Hello Vera, see you Tuesday!")
    expect(vera_page.get_by_test_id(f"unread-{thread}")).to_have_count(0)
    expect(vera_page.get_by_test_id("total-unread")).to_have_count(0)

    # Vera types: Clara sees the typing indicator, which goes away about 1 s later.
    vera_input = vera_page.get_by_label(re.compile("Message to"))
    vera_input.press_sequentially("Yes")
    expect(clara_page.get_by_test_id("typing")).to_have_text(f"{vera.first_name} is typing...", timeout=1000)
    expect(clara_page.get_by_test_id("typing")).to_have_text("", timeout=2500)

    # Vera replies with Enter; it appears on Clara's open conversation within a second.
    vera_input.fill("Looking forward to it.")
    sent_at = time.monotonic()
    vera_input.press("Enter")
    expect(clara_page.get_by_test_id("message").nth(1)).to_contain_text("Looking forward to it.", timeout=1000)
    assert time.monotonic() - sent_at < 1.5
    # Clara has it open, so it is read at once: no badge on her side.
    expect(clara_page.get_by_test_id(f"unread-{thread}")).to_have_count(0)
    expect(clara_page.get_by_test_id("total-unread")).to_have_count(0)
    # Time only for a message under 24 hours old (no date).
    expect(clara_page.locator("time").first).to_have_text(re.compile(r"^\d{1,2}:\d{2}(\s?[AP]M)?$"))

    # Both screens, mid-conversation, pass the WCAG A/AA rules.
    assert_no_axe_violations(clara_page, context="/messages with a conversation open")
    vera_page.get_by_label(re.compile("Message to")).fill("A draft")
    assert_no_axe_violations(vera_page, context="/messages while writing")


def test_failed_send_shows_the_spec_toast(signed_in_context, server, booking, client_user, verified_provider):
    vera = verified_provider.user
    page = open_messages(signed_in_context(client_user), f"?with={vera.pk}")
    vera.is_active = False  # she can no longer be written to: the server answers 404
    vera.save(update_fields=["is_active"])

    page.get_by_label(re.compile("Message to")).fill("Are you there?")
    page.get_by_role("button", name="Send").click()

    toast = page.get_by_test_id("toast")
    expect(toast).to_contain_text("Failed to send message. Please try again.")
    expect(page.get_by_label(re.compile("Message to"))).to_have_value("Are you there?")  # kept to retry


def test_system_notifications_appear_only_while_unread(signed_in_context, server, client_user):
    from messaging.services import system_notify

    page = open_messages(signed_in_context(client_user))
    expect(page.get_by_role("button", name=re.compile("System Notifications"))).to_have_count(0)

    in_thread(system_notify, receivers=[client_user], content="Your booking is confirmed.")

    entry = page.get_by_role("button", name=re.compile("System Notifications"))
    expect(entry).to_be_visible(timeout=1000)
    entry.click()
    expect(page.get_by_test_id("message")).to_contain_text("Your booking is confirmed.")
    expect(page.get_by_test_id("unread-system")).to_have_count(0)
    assert_no_axe_violations(page, context="/messages, System Notifications open")
    page.reload()
    expect(page.get_by_role("button", name=re.compile("System Notifications"))).to_have_count(0)


def test_polls_every_5_seconds_while_the_socket_is_down(
    signed_in_context, server, booking, client_user, verified_provider
):
    from messaging.services import message_send

    context = signed_in_context(client_user)
    page = context.new_page()
    # Every socket the page opens is closed at once: it must fall back to polling.
    page.route_web_socket(re.compile(r"/ws/events/$"), lambda ws: ws.close())
    page.goto(f"/messages?with={verified_provider.user.pk}")
    expect(page.get_by_text("No messages yet. Say hello!")).to_be_visible()
    expect(page.locator('[data-island="messages"]')).to_have_attribute("data-connected", "false")

    in_thread(
        message_send, sender=verified_provider.user, receiver_id=client_user.pk, content="Sent while you were offline"
    )

    expect(page.get_by_test_id("message")).to_contain_text("Sent while you were offline", timeout=7000)


def test_send_is_disabled_while_sending_and_old_messages_show_the_date(
    signed_in_context, server, booking, client_user, verified_provider
):
    from django.utils import timezone

    from messaging.models import Message
    from messaging.services import message_send

    vera = verified_provider.user
    message_send(sender=vera, receiver_id=client_user.pk, content="From last week", booking_id=booking.pk)
    Message.objects.filter(content="From last week").update(created_at=timezone.now() - timezone.timedelta(days=3))
    page = open_messages(signed_in_context(client_user), f"?with={vera.pk}")
    # Over 24 hours old: date and time.
    expect(page.locator("time").first).to_have_text(re.compile(r"\d{4}.*\d{1,2}:\d{2}"))

    held = []
    page.route("**/api/messages", lambda route: held.append(route))  # the POST waits until released
    page.get_by_label(re.compile("Message to")).fill("Thank you!")
    page.get_by_role("button", name="Send").click()

    sending = page.get_by_role("button", name="Sending...")
    expect(sending).to_be_disabled()
    while not held:
        page.wait_for_timeout(20)
    held[0].continue_()

    expect(page.get_by_test_id("message").nth(1)).to_contain_text("Thank you!")
    expect(page.get_by_role("button", name="Send")).to_be_disabled()  # the box is empty again
    expect(page.get_by_label(re.compile("Message to"))).to_have_value("")


def test_reconnects_after_the_socket_drops_and_is_live_again(
    signed_in_context, server, booking, client_user, verified_provider
):
    vera = verified_provider.user
    attempts = []

    def route(ws):
        attempts.append(ws)
        if len(attempts) == 1:
            ws.close()  # the first connection drops at once
        else:
            ws.connect_to_server()  # later ones reach Daphne

    context = signed_in_context(client_user)
    page = context.new_page()
    page.route_web_socket(re.compile(r"/ws/events/$"), route)
    page.goto(f"/messages?with={vera.pk}")

    expect(page.locator('[data-island="messages"]')).to_have_attribute("data-connected", "true", timeout=5000)
    assert len(attempts) == 2  # one reconnect, after a backoff of 0.5-1 s

    in_thread(message_send_from, sender=vera, receiver_id=client_user.pk, content="Back online")
    expect(page.get_by_test_id("message")).to_contain_text("Back online", timeout=1000)


def message_send_from(**kwargs):
    from messaging.services import message_send

    return message_send(**kwargs)


def test_a_provider_accepting_a_request_joins_the_open_list_live(
    signed_in_context, server, client_user, verified_provider
):
    from bookings.services import service_request_accept
    from requests_app.tests.factories import ServiceRequestFactory

    request = ServiceRequestFactory(client=client_user, title="Grocery run")
    page = open_messages(signed_in_context(client_user))
    expect(page.get_by_text("No conversations yet.", exact=False)).to_be_visible()

    in_thread(service_request_accept, service_request_id=request.pk, actor=verified_provider.user)

    from bookings.models import Booking

    booking = Booking.objects.get(service_request=request)
    partner = page.get_by_test_id(f"conversation-booking-{booking.pk}")
    expect(partner).to_contain_text("Grocery run", timeout=2000)
    expect(partner).to_contain_text("Provider")
    expect(page.get_by_role("button", name=re.compile("System Notifications"))).to_be_visible()


def test_a_circle_member_sees_the_providers_message_live_with_who_sent_it_and_who_it_is_for(
    signed_in_context, server, circle_booking, client_user, bob, verified_provider
):
    """Bob (a member of Harold's circle, not the one who booked) follows the thread."""
    vera = verified_provider.user
    thread = f"booking-{circle_booking.pk}"
    bob_page = open_messages(signed_in_context(bob), f"?booking={circle_booking.pk}")
    vera_page = open_messages(signed_in_context(vera), f"?booking={circle_booking.pk}")

    expect(bob_page.get_by_role("heading", name=vera.full_name)).to_be_visible()
    expect(bob_page.get_by_test_id("chat-for")).to_have_text("For Harold Smith")
    # The provider sees the thread named after the person the help is for.
    expect(vera_page.get_by_role("heading", name="Harold Smith")).to_be_visible()

    vera_input = vera_page.get_by_label(re.compile("Message to"))
    vera_input.press_sequentially("On")
    expect(bob_page.get_by_test_id("typing")).to_have_text("Vera is typing...", timeout=1000)
    vera_input.fill("I will bring the groceries at 10.")
    vera_input.press("Enter")

    message = bob_page.get_by_test_id("message").first
    expect(message).to_contain_text("I will bring the groceries at 10.", timeout=1000)
    expect(message.get_by_test_id("message-sender")).to_contain_text(vera.full_name)
    # Clara, who booked, writes too; both others see her name on it.
    in_thread(
        message_send_from,
        sender=client_user,
        receiver_id=vera.pk,
        content="Thank you!",
        booking_id=circle_booking.pk,
    )
    expect(bob_page.get_by_test_id("message").nth(1).get_by_test_id("message-sender")).to_contain_text(
        client_user.full_name, timeout=1000
    )
    expect(vera_page.get_by_test_id("message").nth(1).get_by_test_id("message-sender")).to_contain_text(
        client_user.full_name, timeout=1000
    )
    expect(bob_page.get_by_test_id(f"unread-{thread}")).to_have_count(0)  # he has it open
    assert_no_axe_violations(bob_page, context="/messages, a care circle's thread open")


def test_a_removed_member_opening_the_thread_sees_it_closed(
    signed_in_context, server, circle_booking, harold, bob, remove_member
):
    thread = f"booking-{circle_booking.pk}"
    page = open_messages(signed_in_context(bob))
    expect(page.get_by_test_id(f"conversation-{thread}")).to_be_visible()

    in_thread(remove_member, recipient=harold, user=bob)
    page.get_by_test_id(f"conversation-{thread}").click()

    expect(page.get_by_test_id("toast")).to_contain_text("You are no longer part of this conversation.")
    expect(page.get_by_test_id(f"conversation-{thread}")).to_have_count(0)
    expect(page.get_by_role("heading", name="Select a Conversation")).to_be_visible()


def test_three_visits_by_one_helper_are_one_conversation_with_each_visit_marked(
    signed_in_context, server, client_user, verified_provider, harold, bob
):
    """One person, one conversation: Clara sees one "Vera" entry for Harold's three visits, each
    visit marked inside it, and Vera's message about another visit arrives in it live."""
    import datetime as dt

    from django.utils import timezone

    from bookings.tests.factories import BookingFactory
    from requests_app.tests.factories import ServiceRequestFactory

    def visit(days: int, title: str):
        return BookingFactory(
            service_request=ServiceRequestFactory(
                client=client_user,
                recipient=harold,
                status="booked",
                title=title,
                preferred_date=timezone.localdate() + dt.timedelta(days=days),
            ),
            provider=verified_provider,
        )

    first, _second, third = (
        visit(1, "Technology Support"),
        visit(8, "Technology Support"),
        visit(15, "Home Organization"),
    )
    vera = verified_provider.user
    in_thread(message_send_from, sender=client_user, receiver_id=vera.pk, content="Tablet help", booking_id=first.pk)
    in_thread(message_send_from, sender=vera, receiver_id=client_user.pk, content="Sure", booking_id=first.pk)

    page = open_messages(signed_in_context(client_user), f"?booking={third.pk}")
    page.set_viewport_size({"width": 390, "height": 900})
    expect(page.locator(".conversation-list > li")).to_have_count(1)
    expect(page.get_by_test_id(f"conversation-booking-{first.pk}")).to_contain_text("3 visits")
    dividers = page.get_by_test_id("visit-divider")
    expect(dividers).to_have_count(1)
    expect(dividers.first).to_contain_text("Technology Support")

    in_thread(message_send_from, sender=vera, receiver_id=client_user.pk, content="Closet next?", booking_id=third.pk)
    expect(page.get_by_test_id("message")).to_have_count(3, timeout=2000)
    expect(dividers).to_have_count(2)
    expect(dividers.nth(1)).to_contain_text("Home Organization")
    assert_no_axe_violations(page, context="/messages, one conversation holding three visits")
