"""Reminder calls the evening before a visit: Kindly calls the care recipient through (fake)
Twilio's SDK, and her answer arrives on the signed webhooks as Twilio posts it. Press 1 confirms
("Confirmed by phone" for the helper), 2 talks to Kindly; no answer after two tries tells the
organizers; her family's choice (call, text, none) and quiet hours are respected."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from urllib.parse import urlsplit

import pytest
import time_machine
from django.test import Client

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core.notices import phone as words
from marketplace.testing.twilio import MenuCall, twilio_post
from messaging.models import Message, MessageType
from notifications.models import TextOptOut
from phoneline import tasks
from phoneline.models import PhoneConfirmation, ReminderCall
from providers.tests.factories import VerifiedProviderFactory

HAROLD = "+15552013344"
EASTERN = zoneinfo.ZoneInfo("America/New_York")
EVENING = dt.datetime(2026, 12, 1, 18, 0, tzinfo=EASTERN)  # the evening before Wednesday's visit


def _notices(user) -> list[str]:
    return list(
        Message.objects.filter(receiver=user, message_type=MessageType.SYSTEM).values_list("content", flat=True)
    )


@pytest.fixture
def visit(db, client_user, phone_lines):
    with time_machine.travel(EVENING - dt.timedelta(days=3), tick=False):
        harold = CareRecipient.objects.create(
            first_name="Harold", last_name="Smith", phone="555-201-3344", time_zone="America/New_York"
        )
        CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
        organizer = Client()
        organizer.force_login(client_user)
        chosen = organizer.put(
            f"/api/care-recipients/{harold.pk}/phone-reminder", {"by": "call"}, content_type="application/json"
        )
        assert chosen.json() == {"by": "call"}
        return BookingFactory(
            service_request__client=client_user,
            service_request__recipient=harold,
            service_request__title="Tablet help",
            service_request__preferred_date=dt.date(2026, 12, 2),
            service_request__preferred_time="afternoon",
            provider=VerifiedProviderFactory(user__first_name="Vera"),
            status=BookingStatus.CONFIRMED,
            payment_status=PaymentStatus.PAID,
        )


def _placed(fake) -> tuple[str, str, str]:
    call = fake.calls[-1]
    url, status = urlsplit(call["Url"]), urlsplit(call["StatusCallback"])
    return call["sid"], f"{url.path}?{url.query}", f"{status.path}?{status.query}"


def test_pressing_1_confirms_and_the_helper_sees_confirmed_by_phone(visit, phone_lines):
    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 1
        assert tasks.reminder_calls() == 0  # claimed: beat running again does not call twice
        [placed] = phone_lines.calls
        assert placed["To"] == HAROLD and placed["From"] == "+15005550006"
        sid, url, _status = _placed(phone_lines)
        call = MenuCall(Client(), from_="+15005550006", to=HAROLD, sid=sid)
        asked = call.post(url)
        assert asked.said[0].startswith(
            "Hello Harold. This is Kindly. You have a visit tomorrow: Wednesday, December 2"
        )
        assert asked.slow and asked.gather_digits == 1
        assert call.press("1").said == [words.CONFIRMED.format(helper="Vera")]
        assert PhoneConfirmation.objects.filter(booking=visit).exists()
        assert any("confirmed the visit" in n for n in _notices(visit.provider.user))
        vera = Client()
        vera.force_login(visit.provider.user)
        assert vera.get(f"/api/bookings/{visit.pk}/phone-line").json()["confirmedByPhone"] is True


def test_pressing_2_talks_to_kindly(visit, phone_lines, settings):
    settings.SUPPORT_PHONE = "555-010-9999"
    with time_machine.travel(EVENING, tick=False):
        tasks.reminder_calls()
        sid, url, _ = _placed(phone_lines)
        call = MenuCall(Client(), from_="+15005550006", to=HAROLD, sid=sid)
        call.post(url)
        talk = call.press("2")
        assert talk.dialed == ["+15550109999"]
    assert ReminderCall.objects.get().outcome == "talk"
    assert not PhoneConfirmation.objects.exists()


def test_no_answer_after_two_tries_tells_the_organizers(visit, phone_lines, client_user):
    member = UserFactory()
    CircleMember.objects.create(recipient=visit.recipient, user=member, role=CircleRole.MEMBER)
    with time_machine.travel(EVENING, tick=False):
        tasks.reminder_calls()
        sid, _url, status = _placed(phone_lines)
        twilio_post(Client(), status, {"CallSid": sid, "CallStatus": "no-answer"})
        assert not any("did not answer" in n for n in _notices(client_user))
    with time_machine.travel(EVENING + dt.timedelta(minutes=10), tick=False):
        assert tasks.reminder_calls() == 0  # not again so soon
    with time_machine.travel(EVENING + dt.timedelta(minutes=31), tick=False):
        assert tasks.reminder_calls() == 1
        sid, _url, status = _placed(phone_lines)
        twilio_post(Client(), status, {"CallSid": sid, "CallStatus": "busy"})
    with time_machine.travel(EVENING + dt.timedelta(minutes=90), tick=False):
        assert tasks.reminder_calls() == 0  # two tries in all
    assert ReminderCall.objects.get().outcome == "no_answer"
    assert any("did not answer two reminder calls" in n for n in _notices(client_user))
    assert not any("did not answer" in n for n in _notices(member))  # organizers only


def test_quiet_hours_and_her_familys_choice_are_respected(visit, phone_lines, client_user):
    with time_machine.travel(EVENING.replace(hour=21, minute=15), tick=False):
        assert tasks.reminder_calls() == 0  # too late in her evening
    with time_machine.travel(EVENING - dt.timedelta(days=1), tick=False):
        assert tasks.reminder_calls() == 0  # two days before: not yet
    organizer = Client()
    organizer.force_login(client_user)
    url = f"/api/care-recipients/{visit.recipient_id}/phone-reminder"
    organizer.put(url, {"by": "none"}, content_type="application/json")
    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 0
    organizer.put(url, {"by": "text"}, content_type="application/json")
    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 1
    assert phone_lines.calls == []
    [text] = phone_lines.sent
    assert text["To"] == HAROLD and text["Body"].startswith("Kindly: You have a visit tomorrow, Wednesday, December 2")
    assert text["Body"].endswith("Call Kindly if you cannot make it. Reply STOP to stop texts.")


def _by_text(visit) -> None:
    organizer = Client()
    organizer.force_login(visit.client)
    url = f"/api/care-recipients/{visit.recipient_id}/phone-reminder"
    assert organizer.put(url, {"by": "text"}, content_type="application/json").json() == {"by": "text"}


def test_a_recipient_who_texted_stop_gets_no_reminder_text_until_start(visit, phone_lines):
    """The reminder text goes through the notifications channel: a STOP from her own phone (Twilio
    posts it to Kindly's inbound webhook, signed) holds, though her phone is no Kindly account."""
    _by_text(visit)
    stop = twilio_post(Client(), "/api/notifications/twilio/inbound", {"From": HAROLD, "Body": "Stop"})
    assert stop.status_code == 200
    assert TextOptOut.objects.filter(phone=HAROLD).exists()

    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 0

    assert phone_lines.sent == [] and phone_lines.calls == []
    assert ReminderCall.objects.get(booking=visit).outcome == "opted_out"  # not tried again that evening

    # START: the next visit's reminder is texted again.
    assert (
        twilio_post(Client(), "/api/notifications/twilio/inbound", {"From": HAROLD, "Body": "START"}).status_code == 200
    )
    ReminderCall.objects.all().delete()
    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 1
    assert [t["To"] for t in phone_lines.sent] == [HAROLD]


def test_a_number_twilio_knows_as_unsubscribed_is_remembered_as_opted_out(visit, phone_lines):
    _by_text(visit)
    phone_lines.opted_out.add(HAROLD)  # she answered STOP to Twilio before Kindly heard of it

    with time_machine.travel(EVENING, tick=False):
        assert tasks.reminder_calls() == 0

    assert phone_lines.sent == []
    assert ReminderCall.objects.get(booking=visit).outcome == "opted_out"
    assert TextOptOut.objects.filter(phone=HAROLD).exists()


def test_no_reminder_text_in_quiet_hours(visit, phone_lines):
    """Quiet hours are the channel's rule, whoever asks for the text: 9 PM on her clock is too late."""
    from notifications.services import text_to_number

    late = EVENING.replace(hour=21, minute=5)
    assert text_to_number(phone=HAROLD, words="A test.", time_zone=EASTERN, now=late) == "quiet"
    assert text_to_number(phone=HAROLD, words="A test.", time_zone=EASTERN, now=late.replace(hour=7)) == "quiet"
    assert phone_lines.sent == []
    assert text_to_number(phone=HAROLD, words="A test.", time_zone=EASTERN, now=EVENING) == "sent"
    assert phone_lines.sent[0]["Body"] == "Kindly: A test. Reply STOP to stop texts."


def test_a_forged_or_foreign_reminder_webhook_does_nothing(visit, phone_lines):
    with time_machine.travel(EVENING, tick=False):
        tasks.reminder_calls()
        sid, url, status = _placed(phone_lines)
        assert twilio_post(Client(), status, {"CallSid": sid, "CallStatus": "completed"}, token="x").status_code == 403
        stranger = MenuCall(Client(), from_="+15005550006", to=HAROLD, sid="CAnot-ours")
        assert stranger.post(url).said == [words.GOODBYE]
        assert stranger.post(url.replace("reminder?", "reminder/answer?"), Digits="1").said == [words.GOODBYE]
    assert not PhoneConfirmation.objects.exists()
    assert ReminderCall.objects.get().outcome == ""


def test_only_organizers_choose_the_reminders(visit):
    member = UserFactory()
    CircleMember.objects.create(recipient=visit.recipient, user=member, role=CircleRole.MEMBER)
    client = Client()
    client.force_login(member)
    url = f"/api/care-recipients/{visit.recipient_id}/phone-reminder"
    assert client.get(url).json() == {"by": "call"}
    assert client.put(url, {"by": "none"}, content_type="application/json").status_code == 403
    client.force_login(UserFactory())
    assert client.get(url).status_code == 404
