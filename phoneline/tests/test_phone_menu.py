"""Calling Kindly: the phone menu through Twilio's signed webhooks, as Twilio runs them
(marketplace/testing/twilio.py MenuCall: each <Gather> posts the keys or words to its action, a
<Redirect> is followed). Known by caller ID and a PIN; 1 hear, 2 confirm, 3 cancel (48 hours),
4 same helper next week, 0 a message for staff, 9 repeat. Nothing acts before its last key."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import Booking, BookingStatus, PaymentStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core.notices import phone as words
from marketplace.testing.twilio import MenuCall, twilio_post
from messaging.models import Message, MessageType
from phoneline.models import PhoneConfirmation, PhonePin, StaffVoicemail
from providers.tests.factories import VerifiedProviderFactory
from requests_app.models import ServiceRequest

HAROLD = "+15552013344"


def _notices(user) -> list[str]:
    return list(
        Message.objects.filter(receiver=user, message_type=MessageType.SYSTEM).values_list("content", flat=True)
    )


@pytest.fixture
def home(db, client_user, phone_lines):
    client_user.first_name = "Olivia"
    client_user.save()
    harold = CareRecipient.objects.create(first_name="Harold", last_name="Smith", phone="555-201-3344")
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    member = UserFactory(first_name="Mark")
    CircleMember.objects.create(recipient=harold, user=member, role=CircleRole.MEMBER)
    vera = VerifiedProviderFactory(user__first_name="Vera")
    organizer = Client()
    organizer.force_login(client_user)
    assert organizer.put(
        f"/api/care-recipients/{harold.pk}/phone-pin", {"pin": "2580"}, content_type="application/json"
    ).json() == {"setUp": True, "set": True, "locked": False}

    def visit(days: int, **kwargs) -> Booking:
        return BookingFactory(
            service_request__client=client_user,
            service_request__recipient=harold,
            service_request__title="Tablet help",
            service_request__preferred_date=timezone.localdate() + dt.timedelta(days=days),
            service_request__preferred_time="afternoon",
            provider=vera,
            status=BookingStatus.CONFIRMED,
            payment_status=PaymentStatus.PAID,
            **kwargs,
        )

    return {"harold": harold, "olivia": client_user, "mark": member, "vera": vera, "visit": visit}


def _signed_in(home) -> MenuCall:
    call = MenuCall(Client(), from_=HAROLD)
    first = call.start()
    assert first.said[-1] == words.ASK_PIN and first.gather_digits == 4
    menu = call.press("2580")
    assert menu.said[-1] == words.MENU and menu.slow
    return call


def test_she_hears_her_next_visits_and_9_repeats(home):
    home["visit"](5)
    call = _signed_in(home)
    heard = call.press("1")
    assert "in the afternoon, Vera, to help with Tablet help" in heard.said[0]
    assert heard.said[-1] == words.MENU
    assert call.press("9").said == [words.MENU]


def test_she_confirms_her_next_visit_and_the_helper_and_circle_are_told(home):
    booking = home["visit"](5)
    call = _signed_in(home)
    ask = call.press("2")
    assert "To confirm it, press 1" in ask.said[0]
    assert not PhoneConfirmation.objects.exists()  # nothing done before the last key
    done = call.press("1")
    assert done.said[0] == words.CONFIRMED.format(helper="Vera")
    assert PhoneConfirmation.objects.filter(booking=booking).exists()
    for user in (home["vera"].user, home["olivia"], home["mark"]):
        assert any("confirmed the visit" in n and "by phone" in n for n in _notices(user))
    vera = Client()
    vera.force_login(home["vera"].user)
    assert vera.get(f"/api/bookings/{booking.pk}/phone-line").json()["confirmedByPhone"] is True


def test_she_cancels_a_visit_more_than_48_hours_ahead(home):
    booking = home["visit"](6)
    call = _signed_in(home)
    call.press("3")
    assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CONFIRMED
    done = call.press("1")
    assert done.said[0].startswith("Your visit on") and "is cancelled" in done.said[0]
    booking.refresh_from_db()
    assert booking.status == BookingStatus.CANCELLED
    assert "by phone" in booking.cancellation_reason


def test_a_cancel_inside_48_hours_is_refused_and_said_plainly(home):
    booking = home["visit"](1)
    call = _signed_in(home)
    refused = call.press("3")
    assert "less than 48 hours away, so it cannot be cancelled now" in refused.said[0]
    assert "press 0" in refused.said[0]
    assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CONFIRMED
    # The refusal waits for 0 (staff) like every step; anything else is the menu again.
    assert call.press("1").said[-1] == words.MENU


def test_she_asks_for_the_same_helper_next_week_once_however_often_twilio_posts(home):
    last = home["visit"](2)
    call = _signed_in(home)
    ask = call.press("4")
    assert ask.said[0].startswith("Would you like Vera again")
    assert not ServiceRequest.objects.filter(requested_provider__isnull=False).exists()
    action = call.last.gather_action
    done = call.press("1")
    assert done.said[0].startswith("We have asked Vera for")
    call.post(action, Digits="1")  # Twilio sent the same webhook again
    [asked] = ServiceRequest.objects.filter(requested_provider=home["vera"])
    assert asked.preferred_date == last.scheduled_date + dt.timedelta(days=7)
    assert asked.preferred_time == "afternoon" and asked.recipient == home["harold"]
    assert any("asked you directly" in n.lower() or "asked for you" in n.lower() for n in _notices(home["vera"].user))
    assert any("asked by phone for Vera" in n for n in _notices(home["olivia"]))


def test_0_leaves_a_message_for_staff_with_its_transcription(home, admin_user):
    call = _signed_in(home)
    record = call.press("0")
    assert record.said[0] == words.LEAVE_MESSAGE and record.record["transcribe"] == "true"
    call.post(record.record["action"], RecordingUrl="https://api.twilio.com/rec/RE1", RecordingDuration="14")
    call.post(
        record.record["transcribeCallback"], TranscriptionText="Please call my son", TranscriptionStatus="completed"
    )
    [voicemail] = StaffVoicemail.objects.all()
    assert voicemail.recipient == home["harold"] and voicemail.seconds == 14
    staff = Client()
    staff.force_login(admin_user)
    [shown] = staff.get("/api/admin/voicemails").json()
    assert shown["recipientName"] == "Harold Smith" and shown["transcription"] == "Please call my son"
    olivia = Client()
    olivia.force_login(home["olivia"])
    assert olivia.get("/api/admin/voicemails").status_code == 403


def test_three_wrong_pins_lock_it_and_the_organizers_are_told(home):
    call = MenuCall(Client(), from_=HAROLD)
    call.start()
    assert call.press("1111").said[0] == words.WRONG_PIN
    assert call.press("2222").said[0] == words.WRONG_PIN
    locked = call.press("3333")
    assert locked.said == [words.PIN_LOCKED] and locked.hung_up
    assert any("phone use is locked" in n for n in _notices(home["olivia"]))
    assert not any("phone use is locked" in n for n in _notices(home["mark"]))  # organizers only
    again = MenuCall(Client(), from_=HAROLD)
    assert again.start().said[-1] == words.PIN_LOCKED  # even with the right PIN now
    organizer = Client()
    organizer.force_login(home["olivia"])
    organizer.put(
        f"/api/care-recipients/{home['harold'].pk}/phone-pin", {"pin": "2580"}, content_type="application/json"
    )
    assert PhonePin.objects.get().locked_at is None
    _signed_in(home)


def test_an_unknown_caller_may_only_leave_a_message(home):
    call = MenuCall(Client(), from_="+15559990000")
    started = call.start()
    assert started.said == [words.GREETING, words.UNKNOWN_CALLER] and started.if_silent == [words.GOODBYE, "Hangup"]
    assert call.press("1").said == [words.GOODBYE]
    stranger = MenuCall(Client(), from_="+15559990000")
    stranger.start()
    assert stranger.press("0").said[0] == words.LEAVE_MESSAGE


def test_words_that_match_nothing_are_said_so_and_the_menu_comes_again(home):
    booking = home["visit"](6)
    call = _signed_in(home)
    assert call.speak("purple elephant").said == [words.NOT_UNDERSTOOD, words.MENU]
    assert "To cancel it, press 1" in call.speak("I want to cancel").said[0]
    # She hangs up here: nothing was cancelled.
    assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CONFIRMED


def test_a_hang_up_mid_menu_leaves_everything_as_it_was(home):
    booking = home["visit"](6)
    call = _signed_in(home)
    call.press("4")  # "Would you like Vera again... press 1": she hangs up
    other = _signed_in(home)
    other.press("2")  # "To confirm it, press 1": she hangs up
    assert not ServiceRequest.objects.filter(requested_provider__isnull=False).exists()
    assert not PhoneConfirmation.objects.exists()
    assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CONFIRMED


def test_a_step_without_the_pin_or_for_another_persons_visit_does_nothing(home):
    booking = home["visit"](6)
    stranger = MenuCall(Client(), from_="+15559990000")
    stranger.start()
    assert stranger.post(f"/api/phone/menu/cancel?booking={booking.pk}", Digits="1").said == [words.GOODBYE]
    assert Booking.objects.get(pk=booking.pk).status == BookingStatus.CONFIRMED


@pytest.mark.parametrize("path", ["/api/phone/menu", "/api/phone/menu/choice", "/api/phone/menu/recorded"])
def test_an_unsigned_menu_webhook_is_403(home, path):
    params = {"CallSid": "CA9", "From": HAROLD, "Digits": "0", "RecordingUrl": "https://x", "RecordingDuration": "3"}
    assert twilio_post(Client(), path, params, token="wrong").status_code == 403
    assert not StaffVoicemail.objects.exists()


def test_only_organizers_set_the_pin(home):
    member, outsider = Client(), Client()
    member.force_login(home["mark"])
    outsider.force_login(UserFactory())
    url = f"/api/care-recipients/{home['harold'].pk}/phone-pin"
    assert member.get(url).json() == {"setUp": True, "set": True, "locked": False}
    assert member.put(url, {"pin": "1234"}, content_type="application/json").status_code == 403
    assert outsider.put(url, {"pin": "1234"}, content_type="application/json").status_code == 404
    organizer = Client()
    organizer.force_login(home["olivia"])
    bad = organizer.put(url, {"pin": "12a4"}, content_type="application/json")
    assert bad.status_code == 400 and set(bad.json()) == {"message", "errors"}
    assert "2580" not in PhonePin.objects.get().pin_hash
