"""/care-circle and the join page /care-circle/join/<token>: signed in, signed out, expired,
withdrawn, used and broken links (a calm page, never an error)."""

from __future__ import annotations

import datetime as dt
import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import UserFactory
from circles import services
from circles.models import CircleMember, CircleRole

pytestmark = pytest.mark.django_db


def as_user(user) -> Client:
    c = Client()
    c.force_login(user)
    return c


@pytest.fixture
def invitation(circle, client_user):
    return services.invitation_create(actor=client_user, recipient_id=circle.pk, email="dan@example.com")


def join_url(invitation) -> str:
    return f"/care-circle/join/{services.invitation_token(invitation)}"


def test_care_circle_page_needs_sign_in(client):
    response = client.get("/care-circle")
    assert response.status_code == 302 and response["Location"] == "/login?next=%2Fcare-circle"


def test_care_circle_page_carries_the_circles_as_props(circle, client_user):
    response = as_user(client_user).get("/care-circle")
    assert response.status_code == 200
    props = response.context["props"]
    assert [r["firstName"] for r in props["recipients"]] == ["Walter"]
    assert 'id="care-circle-props"' in response.content.decode()


def test_care_circle_page_explains_itself_to_providers(verified_provider):
    response = as_user(verified_provider.user).get("/care-circle")
    assert response.status_code == 200
    assert "Care circles are for family accounts" in response.content.decode()


def test_a_client_who_became_a_provider_keeps_her_care_circle(circle, client_user):
    client_user.user_type = "provider"
    client_user.save(update_fields=["user_type"])
    response = as_user(client_user).get("/care-circle")
    assert [r["firstName"] for r in response.context["props"]["recipients"]] == ["Walter"]
    assert 'id="care-circle-props"' in response.content.decode()
    assert "Care circles are for family accounts" not in response.content.decode()


def test_join_page_signed_out_says_who_invites_and_links_to_sign_in(client, invitation, client_user):
    url = join_url(invitation)
    page = client.get(url).content.decode()
    # The sentence is composed once (circles.services.invitation_words); the page escapes its "'".
    assert f"{client_user.full_name} invites you to join Walter Stone's care circle as a member." in html.unescape(page)
    assert "Sign in or create an account to join" in page
    next_param = url.replace("/", "%2F").replace(":", "%3A")
    assert f'href="/login?next={next_param}&amp;mode=signup&amp;email=dan%40example.com"' in page


def _join_link(page: str) -> str:
    return html.unescape(re.search(r'href="(/login\?[^"]+)" data-testid="join-sign-in"', page).group(1))


def test_a_new_family_member_is_sent_to_sign_up_with_the_invited_email_filled_in(client, invitation):
    link = _join_link(client.get(join_url(invitation)).content.decode())
    query = parse_qs(urlsplit(link).query)
    assert query["mode"] == ["signup"] and query["email"] == ["dan@example.com"]

    login = client.get(link)
    assert login.context["login_props"]["mode"] == "sign-up"
    assert login.context["login_props"]["email"] == "dan@example.com"
    assert login.context["login_props"]["next"] == join_url(invitation)


def test_someone_who_has_an_account_signs_in_with_the_email_filled_in(client, invitation):
    UserFactory(email="Dan@Example.com")
    link = _join_link(client.get(join_url(invitation)).content.decode())
    login = client.get(link)
    assert login.context["login_props"]["mode"] == "sign-in"
    assert login.context["login_props"]["email"] == "dan@example.com"


def test_the_login_page_fills_in_only_an_email_address(client):
    for given, shown in (("ann@example.com", "ann@example.com"), ("not an email", ""), ("<b>@x", "")):
        assert client.get("/login", {"email": given}).context["login_props"]["email"] == shown


def test_join_page_signed_in_joins_with_one_button(invitation):
    dan = UserFactory(first_name="Dan")
    c = as_user(dan)
    url = join_url(invitation)
    assert "Join Walter's care circle" in c.get(url).content.decode()
    response = c.post(url)
    assert response.status_code == 302 and response["Location"] == "/care-circle"
    assert CircleMember.objects.get(user=dan).role == CircleRole.MEMBER
    # The link works once.
    again = as_user(UserFactory()).get(url).content.decode()
    assert "This invitation cannot be used" in again and "already been used" in again


def test_join_page_explains_an_expired_link(client, invitation):
    url = join_url(invitation)
    with time_machine.travel(timezone.now() + dt.timedelta(days=8)):
        response = client.get(url)
        posted = as_user(UserFactory()).post(url)
    assert response.status_code == 200
    assert "This invitation has expired. Ask for a new one." in response.content.decode()
    assert posted.status_code == 200 and "has expired" in posted.content.decode()
    assert not CircleMember.objects.filter(
        recipient=invitation.recipient, role=CircleRole.MEMBER, user__first_name="Dan"
    ).exists()


def test_join_page_explains_withdrawn_and_broken_links(client, invitation, client_user):
    url = join_url(invitation)
    services.invitation_revoke(actor=client_user, invitation_id=invitation.pk)
    assert "was withdrawn" in client.get(url).content.decode()
    broken = client.get("/care-circle/join/not-a-real-token")
    assert broken.status_code == 200 and "not valid" in broken.content.decode()


def test_provider_is_told_circles_are_for_family_accounts(invitation, verified_provider):
    page = as_user(verified_provider.user).get(join_url(invitation)).content.decode()
    assert "Care circles are for family accounts" in page and "join-button" not in page


def test_login_comes_back_to_the_join_page(client, invitation):
    url = join_url(invitation)
    response = client.get("/login", {"next": url})
    assert response.context["login_props"]["next"] == url


def test_join_page_says_when_the_invitation_is_for_the_person_cared_for(client, client_user):
    recipient = services.recipient_create(actor=client_user, first_name="Walter")
    invitation = services.invitation_create(
        actor=client_user, recipient_id=recipient.pk, email="walter@example.com", for_recipient=True
    )
    page = client.get(join_url(invitation)).content.decode()
    assert "This invitation is for Walter themself" in page
