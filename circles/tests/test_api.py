"""The care-circle API per role: organizer, member, the recipient's own account, non-member
(404), a removed member, an expired invitation."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import EmergencyContactFactory, UserFactory
from circles import services
from circles.models import CareRecipient, CircleInvitation, CircleMember, CircleRole, InvitationStatus
from circles.tests.factories import CareRecipientFactory, CircleMemberFactory

pytestmark = pytest.mark.django_db

JSON = "application/json"


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


def member_id(circle, user) -> int:
    return CircleMember.objects.get(recipient=circle, user=user).pk


def test_signed_out_is_401(client):
    assert client.get("/api/care-circle").status_code == 401
    assert client.post("/api/care-recipients", {"firstName": "W"}, content_type=JSON).status_code == 401


def test_list_shows_the_circle_with_roles_invitations_for_organizers_and_contacts(
    circle, client_user, bob, walter, django_assert_max_num_queries
):
    EmergencyContactFactory(user=client_user, recipient=circle, name="Nora", is_primary=True)
    services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    other = CareRecipientFactory(first_name="Zelda")
    CircleMemberFactory(recipient=other, user=client_user, role=CircleRole.ORGANIZER)
    c = as_user(client_user)
    c.get("/api/care-circle")  # the session's first use
    with django_assert_max_num_queries(7):
        body = c.get("/api/care-circle").json()
    assert [r["firstName"] for r in body] == ["Walter", "Zelda"]
    walter_card = body[0]
    assert walter_card["myRole"] == "organizer" and walter_card["isSelf"] is False
    assert walter_card["notesForHelpers"] == "Hard of hearing, ring twice."
    assert [(m["user"]["firstName"], m["role"], m["isRecipient"]) for m in walter_card["members"]] == [
        ("Clara", "organizer", False),
        ("Bob", "member", False),
        ("Walter", "member", True),
    ]
    assert walter_card["members"][1]["user"]["email"] == "bob@example.com"
    [invitation] = walter_card["invitations"]
    assert invitation["email"] == "dan@example.com" and invitation["expired"] is False
    assert [c["name"] for c in walter_card["emergencyContacts"]] == ["Nora"]

    # A member sees the circle but not the pending invitations; Walter sees himself as the recipient.
    bob_card = as_user(bob).get("/api/care-circle").json()[0]
    assert bob_card["myRole"] == "member" and bob_card["invitations"] == []
    walter_view = as_user(walter).get("/api/care-circle").json()[0]
    assert walter_view["isSelf"] is True


def test_outsider_sees_nothing_and_gets_404(circle, outsider):
    c = as_user(outsider)
    assert c.get("/api/care-circle").json() == []
    assert c.patch(f"/api/care-recipients/{circle.pk}", {"phone": "1"}, content_type=JSON).status_code == 404
    assert (
        c.post(
            f"/api/care-recipients/{circle.pk}/invitations", {"email": "x@example.com"}, content_type=JSON
        ).status_code
        == 404
    )
    assert c.delete(f"/api/care-recipients/{circle.pk}/members/{circle.members.first().pk}").status_code == 404


def test_create_and_edit_a_recipient(client_user):
    c = as_user(client_user)
    created = c.post(
        "/api/care-recipients",
        {"firstName": "Walter", "lastName": "Stone", "address": "12 Elm", "notesForHelpers": "Ring twice"},
        content_type=JSON,
    )
    assert created.status_code == 201
    body = created.json()
    assert body["myRole"] == "organizer" and body["members"][0]["user"]["id"] == client_user.pk
    missing = c.post("/api/care-recipients", {"lastName": "Stone"}, content_type=JSON)
    assert missing.status_code == 400
    assert missing.json()["errors"] == {"firstName": ["Please enter a first name."]}
    assert c.post("/api/care-recipients", {"firstName": "W", "age": 3}, content_type=JSON).status_code == 400
    edited = c.patch(f"/api/care-recipients/{body['id']}", {"phone": "555-111-2222"}, content_type=JSON)
    assert edited.status_code == 200 and edited.json()["phone"] == "555-111-2222"
    myself = c.post("/api/care-recipients", {"firstName": "Clara", "isSelf": True}, content_type=JSON)
    assert myself.status_code == 201 and myself.json()["isSelf"] is True
    assert c.post("/api/care-recipients", {"firstName": "Clara", "isSelf": True}, content_type=JSON).status_code == 409


def test_provider_cannot_add_a_recipient(verified_provider):
    response = as_user(verified_provider.user).post("/api/care-recipients", {"firstName": "W"}, content_type=JSON)
    assert response.status_code == 403
    assert not CareRecipient.objects.filter(first_name="W").exists()


def test_member_gets_403_on_organizer_actions(circle, client_user, bob):
    c = as_user(bob)
    assert c.patch(f"/api/care-recipients/{circle.pk}", {"phone": "1"}, content_type=JSON).status_code == 403
    assert (
        c.post(
            f"/api/care-recipients/{circle.pk}/invitations", {"email": "x@example.com"}, content_type=JSON
        ).status_code
        == 403
    )
    clara = member_id(circle, client_user)
    assert (
        c.patch(f"/api/care-recipients/{circle.pk}/members/{clara}", {"role": "member"}, content_type=JSON).status_code
        == 403
    )
    assert c.delete(f"/api/care-recipients/{circle.pk}/members/{clara}").status_code == 403
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    assert c.delete(f"/api/care-invitations/{invitation.pk}").status_code == 403


def test_organizer_invites_revokes_changes_roles_and_removes(circle, client_user, bob, walter):
    c = as_user(client_user)
    invited = c.post(
        f"/api/care-recipients/{circle.pk}/invitations",
        {"email": "dan@example.com", "role": "organizer"},
        content_type=JSON,
    )
    assert invited.status_code == 201
    assert invited.json()["role"] == "organizer" and invited.json()["expired"] is False
    already = c.post(f"/api/care-recipients/{circle.pk}/invitations", {"email": "bob@example.com"}, content_type=JSON)
    assert already.status_code == 400 and "already in this care circle" in already.json()["errors"]["email"][0]
    pk = invited.json()["id"]
    assert c.delete(f"/api/care-invitations/{pk}").status_code == 204
    assert c.delete(f"/api/care-invitations/{pk}").status_code == 409
    assert c.delete("/api/care-invitations/999999").status_code == 404

    bob_pk = member_id(circle, bob)
    promoted = c.patch(f"/api/care-recipients/{circle.pk}/members/{bob_pk}", {"role": "organizer"}, content_type=JSON)
    assert promoted.status_code == 200 and promoted.json()["role"] == "organizer"
    bad = c.patch(f"/api/care-recipients/{circle.pk}/members/{bob_pk}", {"role": "king"}, content_type=JSON)
    assert bad.status_code == 400
    walter_pk = member_id(circle, walter)
    assert c.delete(f"/api/care-recipients/{circle.pk}/members/{walter_pk}").status_code == 409
    assert c.delete(f"/api/care-recipients/{circle.pk}/members/{bob_pk}").status_code == 204
    assert not CircleMember.objects.filter(recipient=circle, user=bob).exists()


def test_last_organizer_cannot_step_down_or_leave(circle, client_user):
    c = as_user(client_user)
    clara = member_id(circle, client_user)
    demote = c.patch(f"/api/care-recipients/{circle.pk}/members/{clara}", {"role": "member"}, content_type=JSON)
    assert demote.status_code == 409 and demote.json()["message"] == "A circle needs at least one organizer."
    assert c.delete(f"/api/care-recipients/{circle.pk}/members/{clara}").status_code == 409


def test_member_leaves_and_then_sees_404(circle, bob):
    c = as_user(bob)
    assert c.delete(f"/api/care-recipients/{circle.pk}/members/{member_id(circle, bob)}").status_code == 204
    assert c.get("/api/care-circle").json() == []
    assert c.patch(f"/api/care-recipients/{circle.pk}", {"phone": "1"}, content_type=JSON).status_code == 404


def test_recipient_account_cannot_leave(circle, walter):
    c = as_user(walter)
    response = c.delete(f"/api/care-recipients/{circle.pk}/members/{member_id(circle, walter)}")
    assert response.status_code == 409


def test_accept_joins_once(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    token = services.invitation_token(invitation)
    dan = UserFactory(first_name="Dan")
    joined = as_user(dan).post("/api/care-invitations/accept", {"token": token}, content_type=JSON)
    assert joined.status_code == 200
    assert joined.json()["id"] == circle.pk and joined.json()["myRole"] == "member"
    again = as_user(UserFactory()).post("/api/care-invitations/accept", {"token": token}, content_type=JSON)
    assert again.status_code == 409
    forged = as_user(UserFactory()).post("/api/care-invitations/accept", {"token": "abc"}, content_type=JSON)
    assert forged.status_code == 400


def test_expired_invitation_is_409_and_shows_as_expired(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    token = services.invitation_token(invitation)
    with time_machine.travel(timezone.now() + dt.timedelta(days=8)):
        response = as_user(UserFactory()).post("/api/care-invitations/accept", {"token": token}, content_type=JSON)
        assert response.status_code == 409
        assert response.json()["message"] == "This invitation has expired. Ask for a new one."
        card = as_user(client_user).get("/api/care-circle").json()[0]
        assert card["invitations"][0]["expired"] is True
    assert CircleInvitation.objects.get(pk=invitation.pk).status == InvitationStatus.PENDING


def test_invite_the_person_cared_for_through_the_api(client_user):
    c = as_user(client_user)
    recipient = c.post("/api/care-recipients", {"firstName": "Walter"}, content_type=JSON).json()
    invited = c.post(
        f"/api/care-recipients/{recipient['id']}/invitations",
        {"email": "walter@example.com", "forRecipient": True},
        content_type=JSON,
    )
    assert invited.status_code == 201 and invited.json()["forRecipient"] is True
    token = services.invitation_token(CircleInvitation.objects.get(pk=invited.json()["id"]))
    walter = UserFactory()
    joined = as_user(walter).post("/api/care-invitations/accept", {"token": token}, content_type=JSON).json()
    assert joined["isSelf"] is True
    assert [m["isRecipient"] for m in joined["members"] if m["user"]["id"] == walter.pk] == [True]
