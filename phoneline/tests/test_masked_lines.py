"""Masked calls and texts: a booking's helper and family reach each other through a Kindly number
from a small pool, faked at Twilio's boundary: Twilio posts signed forms to the webhooks and
carries out their TwiML (marketplace/testing/twilio.py). Neither side learns the other's number;
staff see when, how long and which way, never content."""

from __future__ import annotations

import datetime as dt

import pytest
import time_machine
from django.test import Client
from django.utils import timezone

from accounts.tests.factories import UserFactory
from bookings.models import BookingStatus
from bookings.tests.factories import BookingFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core.notices import phone as words
from marketplace.testing.twilio import POOL, PhoneNetwork, twilio_post
from notifications.models import Contact
from phoneline.models import PhoneContact
from providers.tests.factories import VerifiedProviderFactory

HAROLD = "+15552013344"  # the recipient's own phone (typed "555-201-3344")
OLIVIA = "+15557778888"  # the organizer's texting number
VERA = "+15550204321"  # the helper's phone (typed "555-020-4321")


@pytest.fixture
def pair(db, client_user):
    client_user.first_name = "Olivia"
    client_user.save()
    Contact.objects.create(user=client_user, phone=OLIVIA)
    harold = CareRecipient.objects.create(first_name="Harold", last_name="Smith", phone="555-201-3344")
    CircleMember.objects.create(recipient=harold, user=client_user, role=CircleRole.ORGANIZER)
    vera = VerifiedProviderFactory(user__first_name="Vera", phone="555-020-4321")
    booking = BookingFactory(
        service_request__client=client_user,
        service_request__recipient=harold,
        service_request__preferred_date=timezone.localdate() + dt.timedelta(days=3),
        provider=vera,
        status=BookingStatus.CONFIRMED,
    )
    return {"booking": booking, "olivia": client_user, "vera": vera, "harold": harold}


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _line(user, booking, method="get"):
    return getattr(_as(user), method)(f"/api/bookings/{booking.pk}/phone-line")


def test_with_no_twilio_settings_the_line_says_not_set_up_and_hides(pair, settings):
    settings.TWILIO_ACCOUNT_SID = ""
    settings.TWILIO_PROXY_NUMBERS = []
    state = _line(pair["vera"].user, pair["booking"]).json()
    assert state["available"] is False and state["message"] == words.NOT_SET_UP and state["number"] is None
    assert state["setUp"] is False
    bind = _line(pair["vera"].user, pair["booking"], "post")
    assert bind.status_code == 409 and bind.json()["message"] == words.NOT_SET_UP
    assert set(bind.json()) == {"message", "errors"}


def test_a_masked_call_both_ways_and_its_record_for_staff(pair, phone_lines, admin_user):
    booking, vera = pair["booking"], pair["vera"]
    before = _line(vera.user, booking).json()
    assert before["available"] is True and before["number"] is None and before["reaches"] == "Harold"

    line = _line(vera.user, booking, "post").json()
    assert line["number"] == POOL[0]
    assert _line(vera.user, booking, "post").json()["number"] == POOL[0]  # the same number each time
    assert HAROLD[2:] not in str(line) and "201-3344" not in str(line)

    phones = PhoneNetwork(Client())
    sid, call = phones.call(from_=VERA, to=POOL[0])
    assert call.dialed == [HAROLD] and call.caller_id == POOL[0]  # Harold sees the Kindly number ring
    assert call.dial_action == "/api/phone/twilio/voice/done"
    phones.hang_up(sid=sid, from_=VERA, to=POOL[0], seconds=95)
    # Harold calls the number back from his own phone: it rings Vera, showing the Kindly number.
    _sid, back = phones.call(from_=HAROLD, to=POOL[0])
    assert back.dialed == [VERA] and back.caller_id == POOL[0]

    records = _as(admin_user).get(f"/api/admin/bookings/{booking.pk}/phone-records")
    assert records.status_code == 200
    rows = records.json()
    assert [(r["kind"], r["direction"], r["seconds"]) for r in rows] == [
        ("call", "family_to_helper", None),
        ("call", "helper_to_family", 95),
    ]
    assert rows[1]["outcome"] == "completed"
    for number in (HAROLD, VERA, POOL[0]):
        assert number not in records.content.decode()


def test_a_masked_text_from_the_family_reaches_the_helper_once_and_is_never_kept(pair, phone_lines):
    booking = pair["booking"]
    olivia_line = _line(pair["olivia"], booking, "post").json()
    assert olivia_line["reaches"] == "Vera"
    # Vera's phone is joined to Harold on the first number already: Olivia's pair takes the next.
    _line(pair["vera"].user, booking, "post")
    assert olivia_line["number"] in POOL
    numbers = {olivia_line["number"], _line(pair["vera"].user, booking).json()["number"]}
    assert numbers == set(POOL)

    phones = PhoneNetwork(Client())
    sent = phones.text(from_=OLIVIA, to=olivia_line["number"], body="The side door is open", sid="SM1")
    assert sent.texts == [{"to": VERA, "from": olivia_line["number"], "body": "The side door is open"}]
    again = phones.text(from_=OLIVIA, to=olivia_line["number"], body="The side door is open", sid="SM1")
    assert again.texts == []  # Twilio sent the same webhook twice: passed on once

    reply = phones.text(from_=VERA, to=olivia_line["number"], body="Thank you, on my way")
    assert reply.texts[0]["to"] == OLIVIA and reply.texts[0]["from"] == olivia_line["number"]
    records = PhoneContact.objects.filter(booking=booking)
    assert sorted(records.values_list("kind", "direction")) == [
        ("text", "family_to_helper"),
        ("text", "helper_to_family"),
    ]
    assert not any("door" in str(value) for row in records.values() for value in row.values())


def test_a_number_the_line_does_not_join_hears_a_goodbye_and_nothing_is_recorded(pair, phone_lines):
    _line(pair["vera"].user, pair["booking"], "post")
    phones = PhoneNetwork(Client())
    _sid, call = phones.call(from_="+15559990000", to=POOL[0])
    assert call.dialed == [] and call.hung_up and call.said == [words.SPOKEN_NOT_LINKED]
    text = phones.text(from_="+15559990000", to=POOL[0], body="hello")
    assert text.texts == [{"to": "", "from": "", "body": words.TEXT_NOT_LINKED}]
    assert not PhoneContact.objects.exists()


@pytest.mark.parametrize("path", ["/api/phone/twilio/voice", "/api/phone/twilio/text", "/api/phone/twilio/voice/done"])
def test_a_forged_or_unsigned_webhook_is_403_and_changes_nothing(pair, phone_lines, path):
    _line(pair["vera"].user, pair["booking"], "post")
    params = {"CallSid": "CA1", "MessageSid": "SM1", "From": VERA, "To": POOL[0], "Body": "x", "DialCallDuration": "9"}
    assert twilio_post(Client(), path, params, token="someone-elses-token").status_code == 403
    assert twilio_post(Client(), path, params, signature="").status_code == 403
    response = twilio_post(Client(), path, params, signature="forged")
    assert response.status_code == 403 and set(response.json()) == {"message", "errors"}
    assert not PhoneContact.objects.exists()


def test_the_line_stops_24_hours_after_the_visit(pair, phone_lines):
    booking = pair["booking"]
    number = _line(pair["vera"].user, booking, "post").json()["number"]
    phones = PhoneNetwork(Client())
    with time_machine.travel(booking.ends_at + dt.timedelta(hours=23), tick=False):
        assert phones.call(from_=VERA, to=number)[1].dialed == [HAROLD]
    with time_machine.travel(booking.ends_at + dt.timedelta(hours=24, minutes=1), tick=False):
        assert phones.call(from_=VERA, to=number)[1].dialed == []
        state = _line(pair["vera"].user, booking).json()
        assert state["available"] is False and state["message"] == words.LINE_ENDED


def test_a_cancelled_or_reassigned_booking_ends_the_line(pair, phone_lines):
    booking = pair["booking"]
    number = _line(pair["vera"].user, booking, "post").json()["number"]
    phones = PhoneNetwork(Client())
    booking.provider = VerifiedProviderFactory(phone="555-020-9999")
    booking.save()
    assert phones.call(from_=VERA, to=number)[1].dialed == []  # the helper dropped reaches nobody
    booking.provider = pair["vera"]
    booking.status = BookingStatus.CANCELLED
    booking.save()
    assert phones.call(from_=VERA, to=number)[1].dialed == []
    assert _line(pair["olivia"], booking, "post").status_code == 409


def test_someone_else_gets_404_staff_403_and_a_member_without_a_number_is_told_how(pair, phone_lines, admin_user):
    booking = pair["booking"]
    assert _line(UserFactory(), booking).status_code == 404
    assert _line(VerifiedProviderFactory().user, booking, "post").status_code == 404
    staff = _line(admin_user, booking)
    assert staff.status_code == 403 and staff.json()["message"] == words.STAFF_ARE_NOT_A_PARTY
    member = UserFactory(first_name="Mark")
    CircleMember.objects.create(recipient=pair["harold"], user=member, role=CircleRole.MEMBER)
    state = _line(member, booking).json()
    assert state == {**state, "available": False, "message": words.ADD_YOUR_PHONE}
    assert _line(member, booking, "post").status_code == 409
    non_admin = _as(pair["olivia"]).get(f"/api/admin/bookings/{booking.pk}/phone-records")
    assert non_admin.status_code == 403


def test_a_small_pool_says_every_line_is_busy_rather_than_mixing_people_up(pair, phone_lines, settings):
    settings.TWILIO_PROXY_NUMBERS = POOL[:1]
    _line(pair["vera"].user, pair["booking"], "post")
    busy = _line(pair["olivia"], pair["booking"], "post")  # Vera's phone already joined on the one number
    assert busy.status_code == 409 and busy.json()["message"] == words.ALL_LINES_BUSY
