"""Days inside a notice's facts are kept as data ("day_on", "due_on", "span_on") and put into each
reader's words when the notice is read: a Spanish reader gets Spanish day and month names, an
English one the English, from one event (docs/i18n.md)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone, translation

from accounts.tests.factories import UserFactory
from circles.models import CareRecipient, CircleMember, CircleRole
from core import notices
from core.notifications import NoticeKind
from messaging.models import Message
from notifications import channels
from notifications.models import Delivery
from requests_app import services as requests
from requests_app.models import RequestStatus
from requests_app.tests.factories import ServiceRequestFactory

pytestmark = pytest.mark.django_db

MONDAY = dt.date(2026, 11, 30)


@pytest.mark.parametrize(
    ("language", "day", "span"),
    [
        ("en", "Monday, November 30", "Monday, November 30 to Monday, December 14"),
        ("es", "lunes 30 de noviembre", "del lunes 30 de noviembre al lunes 14 de diciembre"),
    ],
)
def test_a_kept_day_and_span_are_read_in_the_readers_words(language, day, span):
    facts = {"day_on": MONDAY.isoformat(), "span_on": [MONDAY.isoformat(), "2026-12-14"], "title": "Tea"}
    with translation.override(language):
        words = notices.in_reader_words(facts)
    assert (words["day"], words["span"]) == (day, span)


def test_a_notice_kept_before_its_day_was_data_keeps_the_senders_words():
    with translation.override("es"):
        assert notices.in_reader_words({"day": "March 3, 2026"})["day"] == "March 3, 2026"


def test_an_expired_request_tells_each_member_its_day_in_their_own_language():
    ana = UserFactory(first_name="Ana", language="es")
    ben = UserFactory(first_name="Ben", language="en")
    rosa = CareRecipient.objects.create(first_name="Rosa", last_name="Díaz")
    CircleMember.objects.create(recipient=rosa, user=ana, role=CircleRole.ORGANIZER)
    CircleMember.objects.create(recipient=rosa, user=ben, role=CircleRole.MEMBER)
    yesterday = timezone.localdate() - dt.timedelta(days=1)
    request = ServiceRequestFactory(client=ana, recipient=rosa, title="Té", preferred_date=yesterday)
    assert request.status == RequestStatus.OPEN

    assert requests.service_request_expire(service_request_id=request.pk, today=timezone.localdate())

    with translation.override("es"):
        spanish_day = notices.day_words(yesterday)
    with translation.override("en"):
        english_day = notices.day_words(yesterday)
    assert spanish_day != english_day and " de " in spanish_day
    [to_ana] = Message.objects.filter(receiver=ana).values_list("content", flat=True)
    [to_ben] = Message.objects.filter(receiver=ben).values_list("content", flat=True)
    assert f"({spanish_day})" in to_ana and english_day not in to_ana
    assert f"({english_day})" in to_ben
    # A text message, written later from the kept facts, says the day in its reader's words too.
    event = Delivery.objects.filter(event__kind=NoticeKind.REQUEST_EXPIRED).first().event
    to_ana_text = channels.sms_body(Delivery(event=event, recipient=ana, channel="sms"))
    to_ben_text = channels.sms_body(Delivery(event=event, recipient=ben, channel="sms"))
    assert f"({spanish_day})" in to_ana_text and english_day not in to_ana_text
    assert f"({english_day})" in to_ben_text


@pytest.mark.parametrize(
    ("language", "series", "left_out"),
    [
        ("en", "every week for 4 visits", "Tuesday, December 8 and Tuesday, December 15"),
        ("es", "cada semana, 4 visitas", "martes 8 de diciembre y martes 15 de diciembre"),
    ],
)
def test_an_accepted_series_and_the_days_left_out_are_read_in_the_readers_words(language, series, left_out):
    facts = {"series_repeat": "weekly", "series_count": 4, "left_out_days": ["2026-12-08", "2026-12-15"]}
    with translation.override(language):
        words = notices.in_reader_words(facts)
    assert (words["series"], words["left_out"]) == (series, left_out)
