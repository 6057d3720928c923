"""Honest trust signals: "What Families Say" shows real published reviews (first name and last
initial, the service) once there are enough, else samples labelled as examples; support contacts
come from settings and read the same on every page, email and error page; "Contact support"
always leads somewhere that answers; no "24/7" unless a setting says so."""

from __future__ import annotations

import pytest
from django.test import RequestFactory

from accounts.tests.factories import UserFactory
from bookings.tests.factories import ReviewFactory
from circles.models import CircleMember, CircleRole
from circles.services import invitation_create
from circles.tests.factories import CareRecipientFactory
from marketplace.testing.pages import island_props
from marketplace.views import server_error
from notifications.channels import invitation_email
from providers.tests.factories import VerifiedProviderFactory

pytestmark = pytest.mark.django_db

MADE_UP = ("support@example.com", "privacy@example.com", "(555) 010-0000", "123 Main Street")


def _testimonials(html: str) -> list[str]:
    return html.split('data-testid="testimonial"')[1:]


def _review(provider, *, first: str, last: str, rating: int = 5, comment: str = "Kind and patient."):
    reviewer = UserFactory(first_name=first, last_name=last)
    return ReviewFactory(
        booking__provider=provider,
        booking__service_request__client=reviewer,
        reviewer=reviewer,
        rating=rating,
        comment=comment,
    )


def test_with_few_real_reviews_the_samples_are_labelled_as_examples(client):
    provider = VerifiedProviderFactory()
    _review(provider, first="Clara", last="Whitfield")
    _review(provider, first="Omar", last="Said")
    _review(provider, first="Nell", last="Price", rating=3)  # under 4 stars: not featured

    html = client.get("/landing").content.decode()

    cards = _testimonials(html)
    assert len(cards) == 3
    assert all("Example" in card for card in cards)
    assert 'data-testid="sample-testimonials-note"' in html
    for invented in ("Robert K.", "Client, 78", "Linda M.", "James T."):
        assert invented not in html


def test_with_enough_real_reviews_they_are_shown_with_first_name_last_initial_and_service(client):
    provider = VerifiedProviderFactory()
    _review(provider, first="Clara", last="Whitfield", comment="She set up my video calls.")
    _review(provider, first="Omar", last="Said", rating=4)
    _review(provider, first="Nell", last="Price")
    _review(provider, first="Silent", last="Reviewer", comment="")  # no words: not featured

    html = client.get("/landing").content.decode()

    cards = _testimonials(html)
    assert len(cards) == 3
    assert not any("Example" in card for card in cards)
    assert 'data-testid="sample-testimonials-note"' not in html
    assert "Clara W." in html and "Omar S." in html and "Nell P." in html
    assert "Whitfield" not in html and "Silent" not in html
    assert "She set up my video calls." in html
    assert "Technology Support" in cards[0]


def test_sample_providers_are_labelled_as_examples_not_verified(client):
    html = client.get("/landing").content.decode()
    blocks = html.split('data-testid="featured-provider"')[1:]
    assert len(blocks) == 3
    assert all("Example" in block and "Verified</span>" not in block for block in blocks)
    assert 'data-testid="sample-providers-note"' in html


def test_no_24_7_claim_and_no_made_up_contacts_by_default(client, settings):
    settings.SUPPORT_EMAIL = settings.SUPPORT_PHONE = settings.SUPPORT_HOURS = ""
    settings.SUPPORT_ALWAYS_OPEN = False
    for path in ("/landing", "/terms-of-service.html", "/privacy-policy", "/no-such-page"):
        html = client.get(path).content.decode()
        assert "24/7" not in html, path
        for text in MADE_UP:
            assert text not in html, (path, text)
        # A visitor without a support email is led to sign in, then to the support conversation.
        assert 'href="/login?next=%2Fmessages%3Fwith%3Dsupport"' in html, path


def test_24_7_is_claimed_only_when_the_setting_says_so(client, settings):
    settings.SUPPORT_ALWAYS_OPEN = True
    assert "24/7 support" in client.get("/landing").content.decode()


@pytest.fixture
def contacts(settings):
    settings.SUPPORT_EMAIL = "help@kindly.test"
    settings.SUPPORT_PHONE = "+1 (800) 555-0199"
    settings.SUPPORT_HOURS = "Monday to Friday, 9 AM to 5 PM Eastern"
    settings.SUPPORT_ALWAYS_OPEN = False


@pytest.mark.parametrize("path", ["/landing", "/terms-of-service.html", "/privacy-policy", "/no-such-page"])
def test_the_support_contacts_from_settings_read_the_same_on_every_page(client, contacts, path):
    html = client.get(path).content.decode()
    assert 'href="mailto:help@kindly.test"' in html
    assert 'href="tel:+18005550199"' in html
    assert "Hours: Monday to Friday, 9 AM to 5 PM Eastern" in html
    assert "24/7" not in html
    for text in MADE_UP:
        assert text not in html


def test_contact_support_leads_a_visitor_to_the_email_and_a_member_to_the_support_conversation(
    client, contacts, client_user
):
    visitor = client.get("/terms-of-service.html").content.decode()
    assert 'href="mailto:help@kindly.test" data-testid="contact-support-link"' in visitor
    client.force_login(client_user)
    member = client.get("/terms-of-service.html").content.decode()
    assert 'href="/messages?with=support" data-testid="contact-support-link"' in member


def test_the_error_page_shows_the_support_contacts(contacts):
    response = server_error(RequestFactory().get("/broken"))
    html = response.content.decode()
    assert response.status_code == 500
    assert 'href="mailto:help@kindly.test"' in html and "+1 (800) 555-0199" in html


def test_the_messages_page_gives_its_help_card_the_contacts_from_settings(client, contacts, client_user):
    client.force_login(client_user)
    props = island_props(client.get("/messages"), "messages-props")
    assert props["supportContacts"] == {
        "email": "help@kindly.test",
        "phone": "+1 (800) 555-0199",
        "phoneHref": "tel:+18005550199",
        "availability": "Monday to Friday, 9 AM to 5 PM Eastern",
        "alwaysOpen": False,
        "conversation": "/messages?with=support",
    }


def test_emails_say_how_to_reach_support(contacts, client_user):
    recipient = CareRecipientFactory(first_name="Walter", last_name="Stone")
    CircleMember.objects.create(recipient=recipient, user=client_user, role=CircleRole.ORGANIZER)
    invitation = invitation_create(actor=client_user, recipient_id=recipient.pk, email="dan@example.com")

    message = invitation_email(invitation, key="test")

    assert "help@kindly.test" in message.body and "+1 (800) 555-0199" in message.body
    assert "/messages?with=support" in message.body
    html = message.alternatives[0][0]
    assert 'href="mailto:help@kindly.test"' in html and "24/7" not in html
