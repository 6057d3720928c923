"""manage.py check_phone: what is missing in the settings, and each pool number's webhooks as
(fake) Twilio holds them, through the SDK."""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from marketplace.testing.twilio import POOL


def _run(*args):
    from io import StringIO

    out, err = StringIO(), StringIO()
    call_command("check_phone", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_with_nothing_set_it_says_not_set_up_and_passes(settings):
    settings.TWILIO_ACCOUNT_SID = settings.TWILIO_AUTH_TOKEN = ""
    settings.TWILIO_PROXY_NUMBERS = []
    out, _ = _run()
    assert "not set up" in out


def test_half_set_up_names_what_is_missing(settings):
    settings.TWILIO_ACCOUNT_SID = "AC123"
    settings.TWILIO_AUTH_TOKEN = ""
    settings.TWILIO_PROXY_NUMBERS = ["555-0101", "+15005550101", "+15005550101"]
    with pytest.raises(CommandError, match="4 problem"):
        _run()


def test_asks_twilio_where_each_number_sends_its_calls_and_texts(phone_lines, settings):
    settings.SITE_URL = "https://kindly.example.com"
    phone_lines.numbers[POOL[0]] = {
        "voice_url": "https://kindly.example.com/api/phone/twilio/voice",
        "sms_url": "https://kindly.example.com/api/phone/twilio/text",
    }
    phone_lines.numbers[POOL[1]] = {"voice_url": "https://old.example.com/voice", "sms_url": ""}
    with pytest.raises(CommandError, match="2 problem"):
        _run("--twilio")
    phone_lines.numbers[POOL[1]] = dict(phone_lines.numbers[POOL[0]])
    out, _ = _run("--twilio")
    assert "set up with 2 Kindly number(s)" in out
    assert "https://kindly.example.com/api/phone/twilio/voice" in out


def test_a_number_of_another_account_is_named(phone_lines, settings):
    settings.SITE_URL = "https://kindly.example.com"
    with pytest.raises(CommandError) as failed:
        _run("--twilio")
    assert "2 problem" in str(failed.value)
