"""The invitation email end to end: the invitation commits, the task is enqueued on commit, a
real Celery worker sends it through Django's SMTP backend, the test SMTP server receives it;
then the invitee joins and the organizer's "joined" email arrives too."""

from __future__ import annotations

import pytest
from django.conf import settings

from accounts.tests.factories import UserFactory
from circles import services
from circles.models import CircleRole
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory
from marketplace.testing.mail import body_html, body_text

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_invitation_reaches_the_invited_address_and_the_join_reaches_the_organizer(celery_worker, smtp_server):
    clara = UserFactory(first_name="Clara", last_name="Stone", email="clara@example.com")
    walter = CareRecipientFactory(first_name="Walter", last_name="Stone")
    CircleMemberFactory(recipient=walter, user=clara, role=CircleRole.ORGANIZER)

    services.invitation_create(actor=clara, recipient_id=walter.pk, email="bob@example.com", role="member")

    [message] = smtp_server.wait_for(1)
    assert message["To"] == "bob@example.com"
    assert message["Subject"] == "Clara Stone invites you to help care for Walter on Kindly"
    text, html = body_text(message), body_html(message)
    assert "You are invited as a member." in text
    assert "This invitation expires in 7 days and works once." in text
    link = text.split("Join Walter's care circle: ")[1].split()[0]
    assert link.startswith(f"{settings.SITE_URL}/care-circle/join/")
    assert f'href="{link}"' in html
    assert "List-Unsubscribe" not in message  # an address, not an account: nothing to unsubscribe from

    bob = UserFactory(first_name="Bob", last_name="Stone", email="bob@example.com")
    services.invitation_accept(user=bob, token=link.rsplit("/", 1)[1])
    [_, joined] = smtp_server.wait_for(2)
    assert joined["To"] == "clara@example.com"
    assert joined["Subject"] == "Bob Stone joined Walter Stone's care circle"
    assert f"{settings.SITE_URL}/care-circle" in body_text(joined)
