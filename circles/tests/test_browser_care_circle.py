"""/care-circle and the join page in Chromium: axe clean for each role (organizer, member, the
recipient, a new client, signed out), readable at 320 px with 44 px targets, and an organizer
invites and revokes with the keyboard only."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.utils import timezone
from playwright.sync_api import Page, expect

from accounts.tests.factories import UserFactory
from circles import services
from circles.models import CircleInvitation, InvitationStatus
from marketplace.testing.axe import axe_violations, format_violations
from marketplace.testing.browser import sign_in_browser
from marketplace.tests.test_browser_accessibility import _LAYOUT_PROBLEMS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def invited(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    return f"/care-circle/join/{services.invitation_token(invitation)}"


def _check(page: Page, url: str, problems: list[str], label: str) -> None:
    page.goto(url, wait_until="networkidle")
    found = axe_violations(page)
    if found:
        problems.append(f"{label}:\n{format_violations(found)}")


def test_care_circle_pages_have_no_axe_violations_for_each_role(
    live_server, page: Page, circle, client_user, bob, walter, invited
):
    base = live_server.url
    problems: list[str] = []
    _check(page, base + invited, problems, "join, signed out")
    expect(page.get_by_role("link", name="Sign in or create an account to join")).to_be_visible()

    sign_in_browser(page, base, client_user)
    _check(page, base + "/care-circle", problems, "organizer")
    expect(page.get_by_role("heading", name="Walter Stone")).to_be_visible()
    expect(page.get_by_text("dan@example.com")).to_be_visible()
    page.get_by_role("button", name="Remove Bob Stone").click()
    expect(page.get_by_role("dialog")).to_be_visible()
    found = axe_violations(page)
    if found:
        problems.append(f"remove dialog:\n{format_violations(found)}")

    for who, label in ((bob, "member"), (walter, "recipient")):
        page.context.clear_cookies()
        sign_in_browser(page, base, who)
        _check(page, base + "/care-circle", problems, label)
    expect(page.get_by_role("button", name="Leave this circle")).to_have_count(0)  # Walter always stays

    page.context.clear_cookies()
    newcomer = UserFactory(first_name="Nina")
    sign_in_browser(page, base, newcomer)
    _check(page, base + "/care-circle", problems, "no recipients yet")
    expect(page.get_by_test_id("care-circle-empty")).to_contain_text("Add the person you care for, or yourself")
    _check(page, base + invited, problems, "join, signed in")
    expect(page.get_by_role("button", name="Join Walter's care circle")).to_be_visible()
    with time_machine.travel(timezone.now() + dt.timedelta(days=8)):
        _check(page, base + invited, problems, "join, expired")
        expect(page.get_by_text("This invitation has expired. Ask for a new one.")).to_be_visible()
    assert problems == [], "\n\n".join(problems)


# A select whose chosen option is wider than the box shows it cut off ("Organizer: also books, pa"):
# the text, in the select's font, must fit inside it (less its padding and the arrow, about 24 px).
_CLIPPED_SELECTS = """() => [...document.querySelectorAll('select')].filter((el) => {
  if (el.getBoundingClientRect().width === 0) return false;
  const style = getComputedStyle(el), probe = document.createElement('span');
  probe.style.font = style.font;
  probe.style.whiteSpace = 'nowrap';
  probe.style.position = 'absolute';
  probe.textContent = el.options[el.selectedIndex].text;
  document.body.append(probe);
  const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
  const clipped = probe.getBoundingClientRect().width > room;
  probe.remove();
  return clipped;
}).map((el) => `${el.id}: "${el.options[el.selectedIndex].text}" in ${el.clientWidth}px`)"""


def test_care_circle_reads_at_320px_with_44px_targets(live_server, page: Page, circle, client_user, bob, invited):
    page.set_viewport_size({"width": 320, "height": 720})
    sign_in_browser(page, live_server.url, client_user)
    page.goto(live_server.url + "/care-circle", wait_until="networkidle")
    expect(page.get_by_role("heading", name="Walter Stone")).to_be_visible()
    expect(page.get_by_label("Role of Bob Stone")).to_be_visible()
    assert page.evaluate(_LAYOUT_PROBLEMS) == []
    assert page.evaluate(_CLIPPED_SELECTS) == []
    page.get_by_label("Role of Bob Stone").select_option("organizer")
    assert page.evaluate(_CLIPPED_SELECTS) == []
    page.goto(live_server.url + invited, wait_until="networkidle")
    assert page.evaluate(_LAYOUT_PROBLEMS) == []


def test_organizer_invites_and_revokes_with_the_keyboard(live_server, page: Page, circle, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(live_server.url + "/care-circle", wait_until="networkidle")
    email = page.get_by_label("Email address")
    email.focus()
    page.keyboard.type("dan@example.com")
    page.keyboard.press("Tab")  # the role
    expect(page.get_by_label("Role", exact=True)).to_be_focused()
    page.keyboard.press("ArrowDown")  # organizer
    page.keyboard.press("Tab")  # the email's language: the page's (English) unless chosen
    expect(page.get_by_label("Language of the email")).to_be_focused()
    expect(page.get_by_label("Language of the email")).to_have_value("en")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Send invitation")).to_be_focused()
    page.keyboard.press("Enter")
    revoke = page.get_by_role("button", name="Revoke the invitation to dan@example.com")
    expect(revoke).to_be_visible()
    invitation = CircleInvitation.objects.get(email="dan@example.com")
    assert invitation.status == InvitationStatus.PENDING and invitation.role == "organizer"
    assert invitation.language == "en"

    revoke.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_test_id("no-invitations")).to_be_visible()
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.REVOKED


def test_organizer_edits_the_details_and_the_open_form_passes_axe(live_server, page: Page, circle, client_user):
    sign_in_browser(page, live_server.url, client_user)
    page.goto(live_server.url + "/care-circle", wait_until="networkidle")
    page.get_by_role("button", name="Edit Walter's details").click()
    form = page.get_by_test_id("edit-recipient")
    found = axe_violations(page)
    assert found == [], format_violations(found)
    form.get_by_label("Phone").fill("555-777-8888")
    form.get_by_role("button", name="Save details").click()
    expect(page.get_by_test_id("edit-recipient")).to_have_count(0)
    expect(page.get_by_text("555-777-8888")).to_be_visible()
    circle.refresh_from_db()
    assert circle.phone == "555-777-8888"


def test_the_user_menu_leads_clients_to_their_care_circle(
    live_server, page: Page, circle, client_user, verified_provider
):
    base = live_server.url
    sign_in_browser(page, base, client_user)
    page.goto(f"{base}/dashboard", wait_until="networkidle")
    page.get_by_test_id("usermenu-trigger").click()
    page.get_by_role("menuitem", name="Care circle").click()
    expect(page).to_have_url(f"{base}/care-circle")
    expect(page.get_by_role("heading", name="Care circle", level=1)).to_be_visible()

    page.context.clear_cookies()
    sign_in_browser(page, base, verified_provider.user)
    page.goto(f"{base}/dashboard", wait_until="networkidle")
    page.get_by_test_id("usermenu-trigger").click()
    expect(page.get_by_role("menuitem", name="Settings")).to_be_visible()
    expect(page.get_by_role("menuitem", name="Care circle")).to_have_count(0)


def test_organizer_adds_and_removes_an_emergency_contact_members_only_read(
    live_server, page: Page, circle, client_user, bob
):
    from accounts.models import EmergencyContact

    base = live_server.url
    sign_in_browser(page, base, client_user)
    page.goto(base + "/care-circle", wait_until="networkidle")
    form = page.get_by_test_id("contact-form")
    form.get_by_label("Name").fill("Nora Stone")
    form.get_by_label("Relationship").fill("Niece")
    form.get_by_label("Phone number").fill("555-123-4567")
    form.get_by_role("button", name="Add contact").click()
    expect(page.get_by_test_id("emergency-contact")).to_contain_text("Nora Stone, Niece: 555-123-4567")
    assert EmergencyContact.objects.get(name="Nora Stone").recipient_id == circle.pk

    page.context.clear_cookies()
    sign_in_browser(page, base, bob)
    page.goto(base + "/care-circle", wait_until="networkidle")
    expect(page.get_by_test_id("emergency-contact")).to_contain_text("Nora Stone")
    expect(page.get_by_role("button", name="Remove Nora Stone")).to_have_count(0)
    expect(page.get_by_test_id("contact-form")).to_have_count(0)

    page.context.clear_cookies()
    sign_in_browser(page, base, client_user)
    page.goto(base + "/care-circle", wait_until="networkidle")
    page.get_by_role("button", name="Remove Nora Stone").click()
    page.get_by_role("dialog").get_by_role("button", name="Remove", exact=True).click()
    expect(page.get_by_test_id("no-emergency-contacts")).to_be_visible()
    assert not EmergencyContact.objects.filter(name="Nora Stone").exists()


def test_an_expired_invitation_is_sent_again_with_a_fresh_week(live_server, page: Page, circle, client_user):
    services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    sign_in_browser(page, live_server.url, client_user)
    with time_machine.travel(timezone.now() + dt.timedelta(days=8)):
        page.goto(live_server.url + "/care-circle", wait_until="networkidle")
        invitation = page.get_by_test_id("pending-invitation")
        expect(invitation).to_contain_text("This invitation has expired.")
        page.get_by_role("button", name="Send again to dan@example.com").click()
        expect(invitation).to_contain_text("The link works until")
        renewed = CircleInvitation.objects.get(email="dan@example.com")
        assert renewed.status == InvitationStatus.PENDING and not renewed.expired
