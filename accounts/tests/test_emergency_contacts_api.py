"""Emergency contacts as before care circles: the signed-in user's own, at most one primary.

(The circle's view of them, with recipientId, is in circles/tests/test_emergency_contacts.py.)
"""

import threading

import pytest
from django.db import connection

from accounts.models import EmergencyContact
from accounts.tests.factories import EmergencyContactFactory, UserFactory
from circles.services import emergency_contact_update

pytestmark = pytest.mark.django_db

URL = "/api/emergency-contacts"


@pytest.fixture
def signed_in(client, client_user):
    client.force_login(client_user)
    return client


def test_signed_out_is_401(client):
    assert client.get(URL).status_code == 401
    assert client.post(URL, {"name": "A", "phone": "555-123-4567"}, content_type="application/json").status_code == 401


def test_create_returns_camel_case_and_defaults(signed_in, client_user):
    response = signed_in.post(URL, {"name": "Maya Lee", "phone": "555-123-4567"}, content_type="application/json")
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "name", "relationship", "phone", "email", "isPrimary", "recipientId", "createdAt"}
    assert body["isPrimary"] is False
    contact = EmergencyContact.objects.get(pk=body["id"])
    # Without a recipientId the contact is for the caller themself (their own recipient).
    assert contact.user == client_user and contact.recipient.account == client_user
    assert body["recipientId"] == contact.recipient_id


def test_list_shows_only_own_contacts_primary_first(signed_in, client_user, django_assert_max_num_queries):
    EmergencyContactFactory(user=client_user, name="Zed")
    EmergencyContactFactory(user=client_user, name="Amy")
    EmergencyContactFactory(user=client_user, name="Pri", is_primary=True)
    EmergencyContactFactory(name="Someone else's")
    with django_assert_max_num_queries(4):
        response = signed_in.get(URL)
    assert response.status_code == 200
    assert [c["name"] for c in response.json()] == ["Pri", "Amy", "Zed"]
    assert response["X-Total-Count"] == "3"


def test_another_users_contact_is_404_for_every_method(signed_in):
    other = EmergencyContactFactory(name="Theirs", phone="555-000-1111")
    url = f"{URL}/{other.pk}"
    assert signed_in.get(url).status_code == 404
    body = {"name": "X", "phone": "555-123-4567"}
    assert signed_in.put(url, body, content_type="application/json").status_code == 404
    assert signed_in.patch(url, {"name": "X"}, content_type="application/json").status_code == 404
    assert signed_in.delete(url).status_code == 404
    other.refresh_from_db()
    assert (other.name, other.phone) == ("Theirs", "555-000-1111")


def test_get_put_patch_delete_own_contact(signed_in, client_user):
    contact = EmergencyContactFactory(user=client_user, name="Old", relationship="Son", email="old@example.com")
    url = f"{URL}/{contact.pk}"
    assert signed_in.get(url).json()["name"] == "Old"

    patched = signed_in.patch(url, {"relationship": "Nephew"}, content_type="application/json").json()
    assert (patched["name"], patched["relationship"]) == ("Old", "Nephew")

    replaced = signed_in.put(url, {"name": "New", "phone": "+1 (555) 222-3333"}, content_type="application/json")
    assert replaced.status_code == 200
    contact.refresh_from_db()
    # PUT replaces: fields left out go back to their defaults.
    assert (contact.name, contact.phone, contact.relationship, contact.email) == ("New", "+1 (555) 222-3333", "", "")

    assert signed_in.delete(url).status_code == 204
    assert not EmergencyContact.objects.filter(pk=contact.pk).exists()
    assert signed_in.get(url).status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"phone": "555-123-4567"}, "name"),
        ({"name": "  ", "phone": "555-123-4567"}, "name"),
        ({"name": "A"}, "phone"),
        ({"name": "A", "phone": "call me"}, "phone"),
        ({"name": "A", "phone": "555-123-4567", "email": "nope"}, "email"),
        ({"name": "A", "phone": "555-123-4567", "isPrimary": "maybe"}, "isPrimary"),
        ({"name": "A" * 201, "phone": "555-123-4567"}, "name"),
        ({"name": "A", "phone": "555-123-4567", "userId": "x"}, "userId"),
        ({"name": ["A"], "phone": "555-123-4567"}, "name"),
    ],
)
def test_invalid_input_is_400_with_field_errors(signed_in, body, field):
    response = signed_in.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not EmergencyContact.objects.exists()


def test_non_object_body_and_bad_ids_are_400_or_404(signed_in):
    assert signed_in.post(URL, [1, 2], content_type="application/json").status_code == 400
    assert signed_in.get(f"{URL}/999999").status_code == 404


def test_new_primary_replaces_the_old_one(signed_in, client_user):
    first = signed_in.post(
        URL, {"name": "First", "phone": "555-123-4567", "isPrimary": True}, content_type="application/json"
    ).json()
    second = signed_in.post(
        URL, {"name": "Second", "phone": "555-123-4568", "isPrimary": True}, content_type="application/json"
    ).json()
    assert EmergencyContact.objects.get(pk=first["id"]).is_primary is False
    assert EmergencyContact.objects.get(pk=second["id"]).is_primary is True

    signed_in.patch(f"{URL}/{first['id']}", {"isPrimary": True}, content_type="application/json")
    primaries = list(EmergencyContact.objects.filter(user=client_user, is_primary=True).values_list("name", flat=True))
    assert primaries == ["First"]


def test_primary_of_one_user_leaves_other_users_alone(signed_in):
    theirs = EmergencyContactFactory(is_primary=True)
    signed_in.post(URL, {"name": "Mine", "phone": "555-123-4567", "isPrimary": True}, content_type="application/json")
    theirs.refresh_from_db()
    assert theirs.is_primary is True


@pytest.mark.django_db(transaction=True)
def test_concurrent_primary_changes_leave_exactly_one_primary():
    user = UserFactory()
    contacts = [EmergencyContactFactory(user=user, name=f"C{i}") for i in range(6)]
    barrier = threading.Barrier(len(contacts))
    errors = []

    def make_primary(contact):
        try:
            barrier.wait()
            emergency_contact_update(actor=user, contact_id=contact.pk, is_primary=True)
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=make_primary, args=(c,)) for c in contacts]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert EmergencyContact.objects.filter(user=user, is_primary=True).count() == 1
