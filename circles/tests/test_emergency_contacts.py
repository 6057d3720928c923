"""Emergency contacts of a care recipient: the circle reads them, organizers change them."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import EmergencyContact
from accounts.tests.factories import EmergencyContactFactory

pytestmark = pytest.mark.django_db

URL = "/api/emergency-contacts"
JSON = "application/json"


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def contact(circle, client_user):
    return EmergencyContactFactory(user=client_user, recipient=circle, name="Nora", phone="555-123-0000")


def test_members_read_the_recipients_contacts(circle, contact, bob, walter):
    for user in (bob, walter):
        listed = as_user(user).get(f"{URL}?recipientId={circle.pk}")
        assert listed.status_code == 200 and [c["name"] for c in listed.json()] == ["Nora"]
        assert as_user(user).get(f"{URL}/{contact.pk}").json()["recipientId"] == circle.pk


def test_walters_own_list_is_his_recipients(circle, contact, walter):
    assert [c["name"] for c in as_user(walter).get(URL).json()] == ["Nora"]


def test_outsider_gets_404(circle, contact, outsider):
    c = as_user(outsider)
    assert c.get(f"{URL}?recipientId={circle.pk}").status_code == 404
    assert c.get(f"{URL}/{contact.pk}").status_code == 404
    assert c.patch(f"{URL}/{contact.pk}", {"name": "X"}, content_type=JSON).status_code == 404
    assert (
        c.post(URL, {"name": "X", "phone": "555-123-4567", "recipientId": circle.pk}, content_type=JSON).status_code
        == 404
    )


def test_members_cannot_change_them(circle, contact, bob):
    c = as_user(bob)
    assert c.patch(f"{URL}/{contact.pk}", {"name": "X"}, content_type=JSON).status_code == 403
    assert c.delete(f"{URL}/{contact.pk}").status_code == 403
    assert (
        c.post(URL, {"name": "X", "phone": "555-123-4567", "recipientId": circle.pk}, content_type=JSON).status_code
        == 403
    )
    contact.refresh_from_db()
    assert contact.name == "Nora"


def test_organizer_adds_a_primary_for_the_recipient(circle, contact, client_user):
    c = as_user(client_user)
    contact.is_primary = True
    contact.save()
    created = c.post(
        URL, {"name": "Sam", "phone": "555-123-4567", "recipientId": circle.pk, "isPrimary": True}, content_type=JSON
    )
    assert created.status_code == 201 and created.json()["recipientId"] == circle.pk
    assert list(EmergencyContact.objects.filter(recipient=circle, is_primary=True).values_list("name", flat=True)) == [
        "Sam"
    ]
    # Clara's own contacts (her own recipient) are another list.
    assert c.get(URL).json() == []
    assert c.delete(f"{URL}/{contact.pk}").status_code == 204
