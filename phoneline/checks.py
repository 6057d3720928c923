"""What `manage.py check_phone` checks: the settings of the phone lines, and (asked) each pool
number's webhooks as Twilio holds them."""

from __future__ import annotations

import re

from django.conf import settings
from django.urls import reverse
from twilio.base.exceptions import TwilioException

from notifications.channels import twilio_client
from phoneline.selectors import phone_set_up, pool_numbers

E164 = re.compile(r"\+[1-9]\d{7,14}")


def webhook_urls() -> dict[str, str]:
    """Where each pool number's calls and texts must go (SITE_URL and the routes)."""
    base = settings.SITE_URL.rstrip("/")
    return {"voice_url": base + reverse("phoneline-voice"), "sms_url": base + reverse("phoneline-text")}


def setting_problems() -> list[str]:
    """What is wrong or missing in the settings, in plain words (empty: fine, or not set up at all)."""
    if not (settings.TWILIO_ACCOUNT_SID or settings.TWILIO_AUTH_TOKEN or settings.TWILIO_PROXY_NUMBERS):
        return []
    problems = []
    if not settings.TWILIO_ACCOUNT_SID.startswith("AC"):
        problems.append("TWILIO_ACCOUNT_SID is missing or does not start with AC.")
    if not settings.TWILIO_AUTH_TOKEN:
        problems.append("TWILIO_AUTH_TOKEN is missing: no webhook can be checked, so every call would be refused.")
    numbers = pool_numbers()
    if not numbers:
        problems.append("TWILIO_PROXY_NUMBERS is empty: list the Kindly numbers for masked calls and texts.")
    for number in numbers:
        if not E164.fullmatch(number):
            problems.append(f"{number} in TWILIO_PROXY_NUMBERS is not in E.164 form, like +15551234567.")
    if len(set(numbers)) != len(numbers):
        problems.append("TWILIO_PROXY_NUMBERS lists a number twice.")
    if not settings.SITE_URL.startswith("https://") and not settings.DEBUG:
        problems.append("SITE_URL must be the https address Twilio calls (the signature covers it).")
    return problems


def twilio_problems() -> list[str]:
    """Each pool number as Twilio holds it: on this account, its calls and texts sent to Kindly."""
    wanted = webhook_urls()
    problems = []
    try:
        client = twilio_client()
        for number in pool_numbers():
            found = client.incoming_phone_numbers.list(phone_number=number, limit=1)
            if not found:
                problems.append(f"{number} is not a number of this Twilio account.")
                continue
            for field, label in (("voice_url", "calls"), ("sms_url", "texts")):
                have = getattr(found[0], field) or ""
                if have != wanted[field]:
                    problems.append(f"{number} sends its {label} to {have or 'nowhere'}; set it to {wanted[field]}.")
    except TwilioException as error:
        problems.append(f"Twilio could not be asked: {error}")
    return problems


def summary() -> str:
    if not phone_set_up():
        return "Phone lines are not set up: Call and Text are hidden (set TWILIO_PROXY_NUMBERS and Twilio's account)."
    return f"Phone lines are set up with {len(pool_numbers())} Kindly number(s)."
