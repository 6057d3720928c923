"""A family shares the care of their father, in Chromium: a daughter signs
up, adds her father and invites her brother; the invitation email arrives at the test SMTP server;
the brother signs up through its link and joins; the daughter posts a request for the father; a
provider accepts it; the brother sees the booking and the provider's message live.

Real pieces only: Daphne (HTTP and websockets) on the PostgreSQL test database, Redis (channel
layer and Celery broker), a real Celery worker sending through Django's SMTP backend to the test
SMTP server, the Firebase Auth emulator for both sign-ups, Chromium via Playwright.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
import time
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import Browser, Page, expect

from accounts.models import User
from bookings.models import Booking
from circles.models import CareRecipient, CircleInvitation, CircleMember, CircleRole, InvitationStatus
from marketplace.testing.axe import assert_no_axe_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.testing.mail import body_text
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import ServiceRequest

pytestmark = [pytest.mark.browser, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

PASSWORD = "journey-pass-1"
SHOTS = Path("/work/scratch/shots")
PHONE = {"width": 375, "height": 812}


@pytest.fixture
def server(transactional_db, firebase_auth, settings, fresh_channel_layer, daphne_servers):
    """Daphne on the test database, started after the emulator (it inherits its address); the
    links in emails (built by the Celery worker in this process) point at it."""
    daphne = daphne_servers()
    settings.SITE_URL = daphne.url
    yield daphne
    sys.stdout.write(daphne.output())  # pytest shows it when the test failed


def toast(page: Page):
    return page.get_by_test_id("toast")


def sign_up_here(page: Page, first: str, last: str, email: str) -> None:
    """On /login (the sign-in card first): switch to sign-up and create the account."""
    page.get_by_role("button", name="Sign up").click()
    page.get_by_label("First name").fill(first)
    page.get_by_label("Last name").fill(last)
    page.get_by_label("Email").fill(email)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Create Account").click()
    expect(toast(page)).to_contain_text("Welcome to Kindly!")


def wait_for_mail(smtp_server, address: str, timeout: float = 20.0):
    """The first email to `address` (others, e.g. a welcome email, may arrive around it)."""
    deadline = time.monotonic() + timeout
    count = 1
    while True:
        found = smtp_server.to(address)
        if found:
            return found[0]
        smtp_server.wait_for(count, timeout=max(0.1, deadline - time.monotonic()))
        count = len(smtp_server.messages) + 1


def open_live(page: Page, url: str) -> None:
    """Open `url` and wait until its websocket is connected: the server sends the unread count
    first thing on connect (messaging.consumers), after joining the user's group."""
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    page.goto(url)
    deadline = time.monotonic() + 15
    while not any("unread.count" in f for f in frames):
        assert time.monotonic() < deadline, f"no websocket connection on {url}"
        page.wait_for_timeout(50)


def test_a_family_shares_the_care_of_their_father(browser: Browser, server, smtp_server, celery_worker):
    base = server.url
    visit_day = timezone.localdate() + dt.timedelta(days=10)
    vera = VerifiedProviderFactory(
        user__first_name="Vera",
        user__last_name="Helper",
        user__email="vera@example.com",
        specialties=["tech-support"],
    ).user
    SHOTS.mkdir(parents=True, exist_ok=True)
    daughter_ctx = browser.new_context(base_url=base)
    brother_ctx = browser.new_context(base_url=base, viewport=PHONE)
    provider_ctx = browser.new_context(base_url=base)
    try:
        # 1. The daughter signs up, adds her father and invites her brother.
        dana = daughter_ctx.new_page()
        dana.goto("/login")
        sign_up_here(dana, "Dana", "Berg", "dana@example.com")
        dana.wait_for_url(f"{base}/", timeout=15000)
        dana.goto("/care-circle")
        expect(dana.get_by_test_id("care-circle-empty")).to_be_visible()
        assert_no_axe_violations(dana, context="/care-circle, nobody added yet")
        add = dana.get_by_test_id("add-recipient")
        add.get_by_label("First name").fill("Walter")
        add.get_by_label("Last name").fill("Berg")
        add.get_by_label("Street address").fill("7 Linden Way")
        add.get_by_label("Town").fill("Springfield")
        add.get_by_label("Phone").fill("555-010-7788")
        add.get_by_label("Notes for helpers").fill("Hard of hearing, ring twice.")
        add.get_by_role("button", name="Add to my care circles").click()
        card = dana.get_by_test_id("care-recipient").filter(has=dana.get_by_role("heading", name="Walter Berg"))
        expect(card).to_contain_text("7 Linden Way, Springfield")
        expect(card).to_contain_text("555-010-7788")
        expect(card).to_contain_text("Hard of hearing, ring twice.")
        walter = CareRecipient.objects.get(first_name="Walter", last_name="Berg")
        assert walter.account_id is None
        invite = card.get_by_test_id("invite-form")
        invite.get_by_label("Email address").fill("ben@example.com")
        expect(invite.get_by_label("Role", exact=True)).to_have_value("member")
        invite.get_by_role("button", name="Send invitation").click()
        expect(toast(dana)).to_contain_text("Invitation sent")
        expect(card.get_by_test_id("pending-invitation")).to_contain_text("ben@example.com")
        assert_no_axe_violations(dana, context="/care-circle, the organizer after inviting")

        # 2. The invitation email arrives; its link leads to the join page.
        message = wait_for_mail(smtp_server, "ben@example.com")
        assert message["Subject"] == "Dana Berg invites you to help care for Walter on Kindly"
        link = body_text(message).split("Join Walter's care circle: ")[1].split()[0]
        assert link.startswith(f"{base}/care-circle/join/"), link

        # 3. The brother opens it signed out, signs up, comes back and joins.
        ben = brother_ctx.new_page()
        ben.goto(link)
        expect(ben.get_by_role("heading", name="Join Walter's care circle")).to_be_visible()
        expect(ben.get_by_test_id("join-who")).to_have_text(
            "Dana Berg invites you to join Walter Berg's care circle as a member."
        )
        assert_no_axe_violations(ben, context="the join page, signed out")
        ben.get_by_role("link", name="Sign in or create an account to join").click()
        expect(ben).to_have_url(re.compile(r"/login\?"))
        # The login page says where it leads back to.
        expect(ben.get_by_test_id("login-next")).to_have_text(
            "Next, you'll come back to your invitation to join the care circle."
        )
        # He has no account yet: the sign-up card opens, his invited email already in it.
        expect(ben.get_by_role("heading", name="Create Account")).to_be_visible()
        expect(ben.get_by_label("Email")).to_have_value("ben@example.com")
        ben.get_by_label("First name").fill("Ben")
        ben.get_by_label("Last name").fill("Berg")
        ben.get_by_label("Password").fill(PASSWORD)
        ben.get_by_role("button", name="Create Account").click()
        expect(toast(ben)).to_contain_text("Welcome to Kindly!")
        ben.wait_for_url(link, timeout=15000)
        join = ben.get_by_role("button", name="Join Walter's care circle")
        expect(join).to_be_visible()
        assert_no_axe_violations(ben, context="the join page, signed in")
        # Joining with the keyboard alone: Tab reaches the button, Enter joins.
        for _ in range(30):
            ben.keyboard.press("Tab")
            if join.evaluate("el => el === document.activeElement"):
                break
        expect(join).to_be_focused()
        ben.keyboard.press("Enter")
        expect(ben).to_have_url(f"{base}/care-circle")
        ben_card = ben.get_by_test_id("care-recipient").filter(has=ben.get_by_role("heading", name="Walter Berg"))
        expect(ben_card).to_contain_text("You are member")
        me = ben_card.get_by_test_id("circle-member").filter(has_text="Ben Berg")
        expect(me).to_contain_text("(you)")
        expect(me).to_contain_text("Member")
        expect(ben_card.get_by_test_id("invite-form")).to_have_count(0)  # members do not invite
        assert_no_axe_violations(ben, context="/care-circle, the member")
        ben_user = User.objects.get(email="ben@example.com")
        assert CircleMember.objects.get(recipient=walter, user=ben_user).role == CircleRole.MEMBER
        assert CircleInvitation.objects.get(email="ben@example.com").status == InvitationStatus.ACCEPTED
        # The organizer's page shows him too, and the invitation is no longer waiting.
        dana.reload()
        expect(card.get_by_test_id("circle-member").filter(has_text="Ben Berg")).to_contain_text("Member")
        expect(card.get_by_test_id("no-invitations")).to_be_visible()

        # The brother keeps his dashboard open from here on (nothing booked yet).
        open_live(ben, "/dashboard")
        expect(ben.get_by_test_id("booking-item")).to_have_count(0)

        # 4. The daughter posts a request for her father: his address is the location.
        dana.goto("/request-service")
        who = dana.get_by_label("Who is this for?")
        expect(who).to_have_value(str(walter.pk))
        expect(dana.get_by_label("Street address")).to_have_value("7 Linden Way")
        expect(dana.get_by_label("Town")).to_have_value("Springfield")
        dana.get_by_label("Service category").select_option(label="Technology Support")
        dana.get_by_label("Title").fill("Video calls with the grandchildren")
        dana.get_by_label("Description").fill("Please help Dad set up video calls on his new tablet.")
        dana.get_by_label("Preferred date").fill(visit_day.isoformat())
        dana.get_by_label("Preferred time").select_option(label="Morning (8AM - 12PM)")
        dana.get_by_role("button", name="Submit Request").click()
        expect(toast(dana)).to_contain_text("Service Request Created!")
        request = ServiceRequest.objects.get(title="Video calls with the grandchildren")
        assert (request.recipient_id, request.client.email) == (walter.pk, "dana@example.com")
        assert request.location == "7 Linden Way, Springfield"

        # 5. A verified provider accepts it from the request page.
        vera_page = provider_ctx.new_page()
        sign_in_browser(vera_page, base, vera)
        vera_page.goto(f"/service-request-details?id={request.pk}")
        expect(vera_page.get_by_role("heading", name="Video calls with the grandchildren")).to_be_visible()
        vera_page.get_by_role("button", name="Accept Request").click()
        expect(toast(vera_page)).to_contain_text("Service request accepted!")
        booking = Booking.objects.get(service_request=request)
        assert booking.recipient_id == walter.pk
        # Booked: she sees whom she visits and whom to contact (the organizers), never their emails
        # nor his phone number (she calls through the booking's Kindly line).
        about = vera_page.get_by_test_id("care-details")
        expect(about.get_by_role("heading", name="About Walter Berg")).to_be_visible()
        expect(about).to_contain_text("7 Linden Way, Springfield")
        expect(vera_page.get_by_role("main")).not_to_contain_text("555-010-7788")
        expect(about).to_contain_text("Hard of hearing, ring twice.")
        expect(about.get_by_role("listitem")).to_have_text(["Dana Berg"])
        expect(about).not_to_contain_text("@example.com")

        # 6. The brother's dashboard, never reloaded, shows the booking for his father.
        item = ben.get_by_test_id("booking-item")
        expect(item).to_have_count(1)
        expect(item).to_contain_text("Video calls with the grandchildren")
        expect(item.get_by_test_id("item-recipient")).to_have_text("For Walter Berg")
        expect(item.get_by_test_id("booking-helper-name")).to_have_text("Vera Helper")
        expect(item.get_by_role("link", name="Pay now")).to_have_count(0)  # organizers pay
        expect(item.get_by_test_id("status-note")).to_have_text("Waiting for an organizer of the circle to pay")
        ben.screenshot(path=str(SHOTS / "brother-dashboard-375.png"), full_page=True)

        # The brother opens the booking's conversation; the provider writes in it from hers.
        thread = f"conversation-booking-{booking.pk}"
        ben.goto("/messages")
        expect(ben.locator('[data-island="messages"]')).to_have_attribute("data-connected", "true")
        ben.get_by_test_id(thread).focus()
        ben.keyboard.press("Enter")
        expect(ben.get_by_text("No messages yet. Say hello!")).to_be_visible()
        vera_page.goto("/messages")
        expect(vera_page.locator('[data-island="messages"]')).to_have_attribute("data-connected", "true")
        vera_page.get_by_test_id(thread).click()
        vera_page.get_by_label(re.compile("Message to")).fill("Hello! I will ring twice on Tuesday morning.")
        vera_page.get_by_role("button", name="Send").click()

        said = ben.get_by_test_id("message").filter(has_text="Hello! I will ring twice on Tuesday morning.")
        expect(said).to_have_count(1)
        # The name shows; ": " after it is for screen readers only.
        expect(said.get_by_test_id("message-sender")).to_have_text(re.compile(r"^Vera Helper:\s*$"))
        # He has the conversation open: it is read at once, no badge on it.
        expect(ben.get_by_test_id(f"unread-booking-{booking.pk}")).to_have_count(0)
        ben.screenshot(path=str(SHOTS / "brother-messages-375.png"), full_page=True)
    finally:
        for context in (daughter_ctx, brother_ctx, provider_ctx):
            context.close()
