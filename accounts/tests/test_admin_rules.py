"""The Django admin holds an emergency contact's phone to the services' rule (10+ digits)."""

import pytest

from accounts.models import EmergencyContact
from accounts.tests.factories import EmergencyContactFactory

pytestmark = pytest.mark.django_db

ADD = "/django-admin/accounts/emergencycontact/add/"


def _form(user, **overrides) -> dict:
    form = {"user": user.pk, "name": "Maya Lee", "relationship": "Daughter", "phone": "555-123-4567", "email": ""}
    form.update(overrides)
    return form


@pytest.mark.parametrize(
    ("phone", "message"),
    [
        ("555-1234", "Phone number must be at least 10 digits"),
        ("call my cell", "Phone number can contain only digits, spaces, dashes, dots, parentheses and a leading +."),
    ],
)
def test_the_django_admin_refuses_a_contact_phone_that_breaks_the_rule(client, admin_user, client_user, phone, message):
    client.force_login(admin_user)
    refused = client.post(ADD, _form(client_user, phone=phone))
    assert refused.status_code == 200
    assert message in refused.content.decode()
    assert not EmergencyContact.objects.exists()
    assert client.post(ADD, _form(client_user)).status_code == 302
    assert EmergencyContact.objects.get().phone == "555-123-4567"


def test_an_unchanged_old_phone_does_not_block_other_changes(client, admin_user):
    contact = EmergencyContactFactory(phone="555-12", name="Old name")
    client.force_login(admin_user)
    url = f"/django-admin/accounts/emergencycontact/{contact.pk}/change/"
    response = client.post(url, _form(contact.user, phone="555-12", name="New name"))
    assert response.status_code == 302
    contact.refresh_from_db()
    assert contact.name == "New name"
