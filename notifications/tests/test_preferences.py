"""Choices per kind and channel (GET/PUT /api/notification-preferences), the phone opt-in, and
the one-click unsubscribe page (signed token, no sign-in; bad tokens change nothing)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
import time_machine
from django.test import Client

from accounts.tests.factories import UserFactory
from core.notifications import NoticeKind, notify
from marketplace.testing.api import call
from notifications.kinds import Channel
from notifications.models import Contact, Delivery, Preference
from notifications.services import deliveries_enqueue
from notifications.tokens import unsubscribe_token

pytestmark = pytest.mark.django_db

# The facts of two notices (their words come from core.notices).
EXPIRED = {"title": "Tea", "day": "March 3, 2026"}
CANCELLED = {"how": "support", "title": "Tea", "when": "Monday", "reason": "Rain", "by": "Kindly support"}
URL = "/api/notification-preferences"


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def kinds(body) -> dict[str, dict]:
    return {k["kind"]: k for k in body["kinds"]}


def test_defaults_are_email_on_and_text_off(client_user):
    body = call(signed_in(client_user), "GET", URL).json()
    assert kinds(body)["request_accepted"] == {
        "kind": "request_accepted",
        "label": "Your request was accepted",
        "email": True,
        "sms": False,
    }
    assert "application_decided" not in kinds(body)  # a client is no provider
    assert body["smsAvailable"] is False and body["phone"] == "" and body["newRequests"] is None


def test_a_provider_also_chooses_how_often_to_hear_of_new_requests(verified_provider):
    client = signed_in(verified_provider.user)
    assert call(client, "GET", URL).json()["newRequests"] == "daily"
    body = call(client, "PUT", URL, {"newRequests": "instant"}).json()
    assert body["newRequests"] == "instant"
    assert "new_requests" in kinds(body)


def test_turning_an_email_off_is_immediate(client_user):
    client = signed_in(client_user)
    body = call(
        client, "PUT", URL, {"preferences": [{"kind": "booking_cancelled", "channel": "email", "enabled": False}]}
    ).json()
    assert kinds(body)["booking_cancelled"]["email"] is False
    notify(receivers=[client_user], notice=NoticeKind.BOOKING_CANCELLED, facts=CANCELLED)
    notify(receivers=[client_user], notice=NoticeKind.REQUEST_EXPIRED, facts=EXPIRED)
    assert list(Delivery.objects.values_list("event__kind", "channel")) == [("request_expired", "email")]


@pytest.mark.parametrize(
    "body, field",
    [
        ({"preferences": [{"kind": "nope", "channel": "email", "enabled": False}]}, "preferences.0.kind"),
        ({"preferences": [{"kind": "visit_reminder", "channel": "pigeon", "enabled": False}]}, "preferences.0.channel"),
        ({"preferences": [{"kind": "visit_reminder", "channel": "email"}]}, "preferences.0.enabled"),
        ({"phone": "call me maybe"}, "phone"),
        ({"phone": "12345"}, "phone"),
        ({"newRequests": "hourly"}, "newRequests"),
        ({"colour": "blue"}, "colour"),
    ],
)
def test_bad_input_is_a_400_and_changes_nothing(client_user, body, field):
    response = call(signed_in(client_user), "PUT", URL, {**body})
    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert response.json()["message"]
    assert not Preference.objects.exists() and not Contact.objects.exists()


def test_a_bad_phone_number_keeps_the_choices_sent_with_it_unsaved(client_user):
    response = call(
        signed_in(client_user),
        "PUT",
        URL,
        {"preferences": [{"kind": "visit_reminder", "channel": "sms", "enabled": True}], "phone": "555-12"},
    )
    assert response.status_code == 400
    assert response.json()["errors"] == {"phone": [response.json()["message"]]}
    assert not Preference.objects.exists()


def test_phone_opt_in_is_stored_in_international_form(client_user):
    client = signed_in(client_user)
    body = call(client, "PUT", URL, {"phone": "(555) 123-4567"}).json()
    assert body["phone"] == "+15551234567"
    assert call(client, "PUT", URL, {"phone": "+44 7700 900123"}).json()["phone"] == "+447700900123"
    assert call(client, "PUT", URL, {"phone": ""}).json()["phone"] == ""


def test_signed_out_gets_401():
    assert call(Client(), "GET", URL).status_code in (401, 403)


# ---------------------------------------------------------------- one-click unsubscribe


def test_unsubscribe_page_asks_first_then_turns_that_kind_off(client_user):
    token = unsubscribe_token(user_id=client_user.pk, kind="visit_reminder")
    page = Client().get(f"/unsubscribe/{token}")
    assert page.status_code == 200
    assert b"Stop these emails?" in page.content
    assert not Preference.objects.exists()  # a link checker's GET changes nothing

    done = Client().post(f"/unsubscribe/{token}")
    assert done.status_code == 200
    assert b"You are unsubscribed" in done.content
    assert Preference.objects.get(user=client_user, kind="visit_reminder", channel=Channel.EMAIL).enabled is False
    assert not Preference.objects.filter(kind="booking_cancelled").exists()


def test_forged_token_is_refused(client_user):
    token = unsubscribe_token(user_id=client_user.pk, kind="visit_reminder")
    forged = token[:-3] + ("aaa" if not token.endswith("aaa") else "bbb")
    response = Client().post(f"/unsubscribe/{forged}")
    assert response.status_code == 400
    assert b"This unsubscribe link is not valid" in response.content
    assert not Preference.objects.exists()


def test_expired_token_is_refused(client_user):
    with time_machine.travel(dt.datetime.now(tz=dt.UTC) - dt.timedelta(days=91)):
        token = unsubscribe_token(user_id=client_user.pk, kind="visit_reminder")
    response = Client().post(f"/unsubscribe/{token}")
    assert response.status_code == 400
    assert b"This unsubscribe link has expired" in response.content
    assert not Preference.objects.exists()


def test_another_accounts_token_is_refused_while_signed_in(client_user):
    other = UserFactory()
    token = unsubscribe_token(user_id=other.pk, kind="visit_reminder")
    response = signed_in(client_user).post(f"/unsubscribe/{token}")
    assert response.status_code == 403
    assert b"sent to another Kindly account" in response.content
    assert not Preference.objects.exists()
    assert signed_in(client_user).get(f"/unsubscribe/{token}").status_code == 403


# ---------------------------------------------------------------- enqueued only after commit


def test_deliveries_are_enqueued_only_when_the_transaction_commits(client_user, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notify(receivers=[client_user], notice=NoticeKind.REQUEST_EXPIRED, facts=EXPIRED)
    assert Delivery.objects.filter(recipient=client_user, channel="email").exists()
    enqueues = [c for c in callbacks if getattr(c, "func", None) is deliveries_enqueue]
    assert len(enqueues) == 1  # the enqueue waits for the commit
    assert enqueues[0].args == ([Delivery.objects.get().pk],)


def test_a_rolled_back_change_records_no_delivery(client_user, django_capture_on_commit_callbacks):
    from django.db import transaction

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        with pytest.raises(RuntimeError), transaction.atomic():
            notify(receivers=[client_user], notice=NoticeKind.REQUEST_EXPIRED, facts=EXPIRED)
            raise RuntimeError("the change failed")
    assert not Delivery.objects.exists()
    assert callbacks == []


def test_the_account_export_includes_the_phone_and_the_choices(client_user):
    client = signed_in(client_user)
    call(
        client,
        "PUT",
        URL,
        {"phone": "555-123-4567", "preferences": [{"kind": "visit_reminder", "channel": "sms", "enabled": True}]},
    )
    data = json.loads(client.get("/api/account/export").content)
    assert data["notifications"]["phone"] == "+15551234567"
    assert data["notifications"]["choices"] == [{"kind": "visit_reminder", "channel": "sms", "enabled": True}]


def test_purging_the_account_forgets_the_phone_and_choices(client_user):
    from notifications.services import notifications_forget

    services_set = call(signed_in(client_user), "PUT", URL, {"phone": "555-123-4567"})
    assert services_set.status_code == 200
    notify(receivers=[client_user], notice=NoticeKind.REQUEST_EXPIRED, facts=EXPIRED)
    notifications_forget(user=client_user)
    assert not Contact.objects.filter(user=client_user).exists()
    assert not Delivery.objects.filter(recipient=client_user).exists()
