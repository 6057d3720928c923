"""Every rule of circles.services: who may change a circle, and each refusal."""

from __future__ import annotations

import datetime as dt
import html

import pytest
import time_machine
from django.core import mail
from django.utils import timezone

from accounts.tests.factories import UserFactory
from circles import services, tokens
from circles.models import CareRecipient, CircleInvitation, CircleMember, CircleRole, InvitationStatus
from core import events
from core.errors import Conflict, InvalidInput, NotFound, PermissionDenied
from core.notifications import NoticeKind
from messaging.models import Message
from notifications.models import Delivery
from notifications.tasks import send_circle_invitation

pytestmark = pytest.mark.django_db


def member(recipient, user) -> CircleMember:
    return CircleMember.objects.get(recipient=recipient, user=user)


# ---------------------------------------------------------------- recipients


def test_client_adds_someone_and_organizes_their_circle(client_user):
    recipient = services.recipient_create(
        actor=client_user, first_name="  Walter ", last_name="Stone", address="12 Elm", notes_for_helpers="Ring twice"
    )
    assert recipient.first_name == "Walter" and recipient.account_id is None
    assert member(recipient, client_user).role == CircleRole.ORGANIZER


def test_client_adds_themself_once(client_user):
    recipient = services.recipient_create(actor=client_user, first_name="Clara", is_self=True)
    assert recipient.account_id == client_user.pk
    with pytest.raises(Conflict):
        services.recipient_create(actor=client_user, first_name="Clara", is_self=True)


def test_recipient_needs_a_first_name_and_short_fields(client_user):
    with pytest.raises(InvalidInput) as missing:
        services.recipient_create(actor=client_user, first_name="   ")
    assert missing.value.errors == {"firstName": ["Please enter a first name."]}
    with pytest.raises(InvalidInput) as long:
        services.recipient_create(actor=client_user, first_name="W", phone="5" * 41)
    assert long.value.errors == {"phone": ["Phone can be at most 40 characters long."]}
    assert not CareRecipient.objects.exists()


def test_provider_accounts_cannot_add_a_recipient(verified_provider):
    with pytest.raises(PermissionDenied):
        services.recipient_create(actor=verified_provider.user, first_name="Walter")


def test_only_organizers_edit_the_recipient(circle, client_user, bob, outsider):
    services.recipient_update(actor=client_user, recipient_id=circle.pk, phone="555-000-1111")
    circle.refresh_from_db()
    assert circle.phone == "555-000-1111"
    with pytest.raises(PermissionDenied):
        services.recipient_update(actor=bob, recipient_id=circle.pk, phone="1")
    with pytest.raises(NotFound):
        services.recipient_update(actor=outsider, recipient_id=circle.pk, phone="1")
    with pytest.raises(InvalidInput):
        services.recipient_update(actor=client_user, recipient_id=circle.pk, first_name="")
    circle.refresh_from_db()
    assert circle.phone == "555-000-1111" and circle.first_name == "Walter"


# ---------------------------------------------------------------- invitations


def test_organizer_invites_and_the_email_goes_out_on_commit(
    circle, client_user, django_capture_on_commit_callbacks, monkeypatch
):
    sent = []
    hear = events.Subscription(handler=lambda event: sent.append(event.invitation_id), when=events.When.ON_COMMIT)
    monkeypatch.setitem(events.SUBSCRIPTIONS, events.CircleInvitationSent, [hear])
    with django_capture_on_commit_callbacks() as callbacks:
        invitation = services.invitation_create(
            actor=client_user, recipient_id=circle.pk, email="Dan@Example.COM", role="member"
        )
    assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sent == [invitation.pk]
    assert invitation.email == "Dan@example.com" and invitation.status == InvitationStatus.PENDING


def test_the_senior_inviting_to_her_own_circle_is_not_named_twice(client_user, client):
    """Clara, the senior, organizes her own circle: her invitation reads "to their care circle",
    in the email and on the join page alike, never "Clara Senior invites you to Clara Senior's"."""
    own = services.recipient_for_self(user=client_user)
    invitation = services.invitation_create(actor=client_user, recipient_id=own.pk, email="dan@example.com")
    assert send_circle_invitation.apply(args=[invitation.pk]).get() == "sent"
    [message] = mail.outbox
    name = client_user.full_name
    assert message.subject == f"{name} invites you to their care circle on Kindly"
    assert f"{name} invites you to join their care circle." in message.body
    assert f"{name}'s care circle" not in message.subject + message.body
    token = message.body.split("/care-circle/join/")[1].split()[0]
    page = client.get(f"/care-circle/join/{token}").content.decode()
    assert f"{name} invites you to join their care circle as a member." in html.unescape(page)


def test_invitation_email_says_who_for_whom_role_link_and_expiry(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    assert send_circle_invitation.apply(args=[invitation.pk]).get() == "sent"
    [message] = mail.outbox
    assert message.to == ["dan@example.com"]
    assert message.subject == f"{client_user.full_name} invites you to help care for Walter on Kindly"
    body = message.body
    assert f"{client_user.full_name} invites you to join Walter Stone's care circle." in body
    assert "You are invited as a member." in body
    assert "expires in 7 days" in body
    assert "http://" in body and "/care-circle/join/" in body
    token = body.split("/care-circle/join/")[1].split()[0]
    assert tokens.invitation_from_token(token).pk == invitation.pk
    # Running the task again sends nothing more.
    assert send_circle_invitation.apply(args=[invitation.pk]).get() == "done"
    assert len(mail.outbox) == 1


def test_renewing_a_pending_invitation_keeps_one_and_sends_again(circle, client_user):
    first = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    send_circle_invitation.apply(args=[first.pk])
    with time_machine.travel(timezone.now() + dt.timedelta(days=3)):
        again = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="DAN@example.com")
        send_circle_invitation.apply(args=[again.pk])
    assert again.pk == first.pk and again.role == CircleRole.MEMBER
    assert CircleInvitation.objects.filter(recipient=circle).count() == 1
    assert len(mail.outbox) == 2


def test_a_new_role_is_sent_as_a_new_invitation_email(circle, client_user):
    first = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    send_circle_invitation.apply(args=[first.pk])
    again = services.invitation_create(
        actor=client_user, recipient_id=circle.pk, email="DAN@example.com", role="organizer"
    )
    send_circle_invitation.apply(args=[again.pk])
    assert again.pk != first.pk and again.role == CircleRole.ORGANIZER
    assert CircleInvitation.objects.filter(recipient=circle, status=InvitationStatus.PENDING).get() == again
    assert len(mail.outbox) == 2
    assert "You are invited as an organizer." in mail.outbox[1].body
    assert services.invitation_path(again) in mail.outbox[1].body
    assert services.invitation_path(first) not in mail.outbox[1].body


def test_invitation_refusals(circle, client_user, bob, outsider):
    with pytest.raises(PermissionDenied):
        services.invitation_create(actor=bob, recipient_id=circle.pk, email="dan@example.com")
    with pytest.raises(NotFound):
        services.invitation_create(actor=outsider, recipient_id=circle.pk, email="dan@example.com")
    with pytest.raises(InvalidInput) as already:
        services.invitation_create(actor=client_user, recipient_id=circle.pk, email="BOB@example.com")
    assert already.value.errors == {"email": ["BOB@example.com is already in this care circle."]}
    with pytest.raises(InvalidInput):
        services.invitation_create(actor=client_user, recipient_id=circle.pk, email="not an email")
    with pytest.raises(InvalidInput):
        services.invitation_create(actor=client_user, recipient_id=circle.pk, email="d@example.com", role="boss")
    assert not CircleInvitation.objects.exists()


def test_revoke_only_pending_and_only_by_organizers(circle, client_user, bob, outsider):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    with pytest.raises(PermissionDenied):
        services.invitation_revoke(actor=bob, invitation_id=invitation.pk)
    with pytest.raises(NotFound):
        services.invitation_revoke(actor=outsider, invitation_id=invitation.pk)
    services.invitation_revoke(actor=client_user, invitation_id=invitation.pk)
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.REVOKED
    with pytest.raises(Conflict):
        services.invitation_revoke(actor=client_user, invitation_id=invitation.pk)


def test_accept_joins_with_the_role_once_and_tells_the_organizers(circle, client_user):
    invitation = services.invitation_create(
        actor=client_user, recipient_id=circle.pk, email="dan@example.com", role="organizer"
    )
    dan = UserFactory(first_name="Dan", last_name="Stone", email="daniel.other@example.com")
    token = services.invitation_token(invitation)
    joined = services.invitation_accept(user=dan, token=token)
    assert joined.role == CircleRole.ORGANIZER and joined.recipient_id == circle.pk
    invitation.refresh_from_db()
    assert invitation.status == InvitationStatus.ACCEPTED and invitation.accepted_by_id == dan.pk
    # The organizer hears of it in the app and by email (the joiner does not).
    notice = Message.objects.get(receiver=client_user)
    assert notice.content == "Dan Stone joined Walter Stone's care circle as organizer."
    assert Delivery.objects.filter(recipient=client_user, event__kind=NoticeKind.CIRCLE_JOINED).exists()
    assert not Message.objects.filter(receiver=dan).exists()
    with pytest.raises(Conflict) as used:
        services.invitation_accept(user=UserFactory(), token=token)
    assert used.value.message == tokens.USED_MESSAGE


def test_accept_refuses_expired_revoked_and_forged_links(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    token = services.invitation_token(invitation)
    dan = UserFactory()
    with time_machine.travel(timezone.now() + dt.timedelta(days=7, minutes=1)):
        with pytest.raises(Conflict) as expired:
            services.invitation_accept(user=dan, token=token)
    assert expired.value.message == "This invitation has expired. Ask for a new one."
    with pytest.raises(InvalidInput):
        services.invitation_accept(user=dan, token=token[:-2] + "xx")
    services.invitation_revoke(actor=client_user, invitation_id=invitation.pk)
    with pytest.raises(Conflict) as revoked:
        services.invitation_accept(user=dan, token=token)
    assert revoked.value.message == tokens.REVOKED_MESSAGE
    assert not CircleMember.objects.filter(user=dan).exists()


def test_a_renewed_invitation_expires_7_days_after_its_renewal(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    with time_machine.travel(timezone.now() + dt.timedelta(days=6)):
        services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
        fresh = services.invitation_token(CircleInvitation.objects.get(pk=invitation.pk))
    with time_machine.travel(timezone.now() + dt.timedelta(days=10)):
        assert services.invitation_accept(user=UserFactory(), token=fresh).recipient_id == circle.pk


def test_a_changed_role_is_a_new_invitation_and_the_first_link_stops_working(circle, client_user):
    first = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    member_link = services.invitation_token(first)
    again = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    assert again.pk == first.pk  # the same role renews the same invitation

    second = services.invitation_create(
        actor=client_user, recipient_id=circle.pk, email="dan@example.com", role="organizer"
    )

    assert second.pk != first.pk and second.role == CircleRole.ORGANIZER
    first.refresh_from_db()
    assert first.status == InvitationStatus.REVOKED
    holder = UserFactory()
    with pytest.raises(Conflict) as refused:
        services.invitation_accept(user=holder, token=member_link)
    assert refused.value.message == tokens.REPLACED_MESSAGE
    assert not CircleMember.objects.filter(user=holder).exists()
    joined = services.invitation_accept(user=UserFactory(), token=services.invitation_token(second))
    assert joined.role == CircleRole.ORGANIZER


def test_a_link_never_grants_more_than_it_was_signed_for(circle, client_user):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    member_link = services.invitation_token(invitation)
    CircleInvitation.objects.filter(pk=invitation.pk).update(role=CircleRole.ORGANIZER)
    with pytest.raises(Conflict):
        services.invitation_accept(user=UserFactory(), token=member_link)


def test_provider_accounts_cannot_join(circle, client_user, verified_provider):
    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="vera@example.com")
    with pytest.raises(PermissionDenied):
        services.invitation_accept(user=verified_provider.user, token=services.invitation_token(invitation))


# ---------------------------------------------------------------- roles and removal


def test_organizer_changes_roles_but_the_last_organizer_stays(circle, client_user, bob):
    clara = member(circle, client_user)
    with pytest.raises(Conflict) as last:
        services.member_set_role(actor=client_user, recipient_id=circle.pk, member_id=clara.pk, role="member")
    assert last.value.message == "A circle needs at least one organizer."
    with pytest.raises(PermissionDenied):
        services.member_set_role(actor=bob, recipient_id=circle.pk, member_id=clara.pk, role="member")
    services.member_set_role(
        actor=client_user, recipient_id=circle.pk, member_id=member(circle, bob).pk, role="organizer"
    )
    services.member_set_role(actor=client_user, recipient_id=circle.pk, member_id=clara.pk, role="member")
    assert member(circle, client_user).role == CircleRole.MEMBER
    assert member(circle, bob).role == CircleRole.ORGANIZER


def test_remove_rules(circle, client_user, bob, walter, outsider, django_capture_on_commit_callbacks, monkeypatch):
    removed = []
    hear = events.Subscription(handler=removed.append, when=events.When.ON_COMMIT)
    monkeypatch.setitem(events.SUBSCRIPTIONS, events.CircleMemberRemoved, [hear])
    walter_member = member(circle, walter)
    bob_member = member(circle, bob)
    with pytest.raises(Conflict):  # the recipient's own account always stays
        services.member_remove(actor=client_user, recipient_id=circle.pk, member_id=walter_member.pk)
    with pytest.raises(Conflict):
        services.member_remove(actor=walter, recipient_id=circle.pk, member_id=walter_member.pk)
    with pytest.raises(PermissionDenied):  # a member removes nobody else
        services.member_remove(actor=bob, recipient_id=circle.pk, member_id=member(circle, client_user).pk)
    with pytest.raises(NotFound):
        services.member_remove(actor=outsider, recipient_id=circle.pk, member_id=bob_member.pk)
    with pytest.raises(Conflict) as last:  # the last organizer cannot leave
        services.member_remove(actor=client_user, recipient_id=circle.pk, member_id=member(circle, client_user).pk)
    assert last.value.message == "A circle needs at least one organizer."
    assert removed == []
    with django_capture_on_commit_callbacks(execute=True):
        services.member_remove(actor=client_user, recipient_id=circle.pk, member_id=bob_member.pk)
    assert removed == [events.CircleMemberRemoved(recipient_id=circle.pk, user_id=bob.pk)]
    assert not CircleMember.objects.filter(user=bob).exists()


def test_a_member_may_leave(circle, bob, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        services.member_remove(actor=bob, recipient_id=circle.pk, member_id=member(circle, bob).pk)
    assert not CircleMember.objects.filter(recipient=circle, user=bob).exists()
    # Once out, the circle is a 404 to them.
    with pytest.raises(NotFound):
        services.recipient_update(actor=bob, recipient_id=circle.pk, phone="1")


def test_an_invitation_whose_email_task_was_lost_is_sent_by_the_sweep(circle, client_user):
    from notifications.services import circle_invitations_unsent

    invitation = services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")
    later = timezone.now() + dt.timedelta(minutes=6)
    assert circle_invitations_unsent(now=timezone.now()) == []  # its task may still be on the way
    assert circle_invitations_unsent(now=later) == [invitation.pk]
    send_circle_invitation.apply(args=[invitation.pk])
    assert circle_invitations_unsent(now=later) == []
    assert circle_invitations_unsent(now=timezone.now() + dt.timedelta(days=8)) == []  # expired: never


def test_an_invitation_for_the_recipient_links_their_account(client_user, django_capture_on_commit_callbacks):
    recipient = services.recipient_create(actor=client_user, first_name="Walter", last_name="Stone")
    invitation = services.invitation_create(
        actor=client_user, recipient_id=recipient.pk, email="walter@example.com", for_recipient=True
    )
    send_circle_invitation.apply(args=[invitation.pk])
    assert "share your care on Kindly, Walter" in mail.outbox[0].body
    walter = UserFactory(first_name="Walter")
    member = services.invitation_accept(user=walter, token=services.invitation_token(invitation))
    recipient.refresh_from_db()
    assert recipient.account_id == walter.pk and member.role == CircleRole.MEMBER
    # From now on Walter always stays in his circle, and nobody else can be invited as him.
    with pytest.raises(Conflict):
        services.member_remove(actor=client_user, recipient_id=recipient.pk, member_id=member.pk)
    with pytest.raises(InvalidInput) as again:
        services.invitation_create(
            actor=client_user, recipient_id=recipient.pk, email="other@example.com", for_recipient=True
        )
    assert again.value.errors == {"forRecipient": ["Walter Stone already has their own account in this circle."]}


def test_an_account_is_the_person_cared_for_in_one_circle_only(client_user):
    first = services.recipient_create(actor=client_user, first_name="Walter")
    second = services.recipient_create(actor=client_user, first_name="Wally")
    walter = UserFactory()
    one = services.invitation_create(
        actor=client_user, recipient_id=first.pk, email="w@example.com", for_recipient=True
    )
    two = services.invitation_create(
        actor=client_user, recipient_id=second.pk, email="w@example.com", for_recipient=True
    )
    services.invitation_accept(user=walter, token=services.invitation_token(one))
    with pytest.raises(Conflict):
        services.invitation_accept(user=walter, token=services.invitation_token(two))
    second.refresh_from_db()
    assert second.account_id is None
    assert not CircleMember.objects.filter(recipient=second, user=walter).exists()
