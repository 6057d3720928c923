"""What Kindly tells people by email and text, and who may choose each."""

from __future__ import annotations

from django.db import models

from core.notifications import NoticeKind

# The kinds are named where the apps below can use them too.
Kind = NoticeKind


class Channel(models.TextChoices):
    EMAIL = "email", "Email"
    SMS = "sms", "Text message"


# Who sees which choice in their settings: the kinds whose declared audience
# (core.notifications.AUDIENCE) can reach them; test_audiences checks they agree.
CLIENT_KINDS = [
    Kind.REQUEST_ACCEPTED,
    Kind.PAYMENT_RECEIVED,
    Kind.BOOKING_CANCELLED,
    Kind.BOOKING_REASSIGNED,
    Kind.VISIT_REMINDER,
    Kind.CARD_CHARGE_FAILED,
    Kind.REQUEST_EXPIRED,
    Kind.VISIT_UPDATES,
    Kind.VISIT_ALERTS,
    Kind.CIRCLE_JOINED,
    Kind.DIRECT_REQUEST_DECLINED,
    Kind.DIRECT_REQUEST_OPENED,
    Kind.REPLACEMENT_UPDATES,
    Kind.UNREAD_MESSAGES,
]
PROVIDER_KINDS = [
    Kind.APPLICATION_DECIDED,
    Kind.NEW_REQUESTS,
    Kind.DIRECT_REQUEST,
    Kind.REQUEST_OFFERED,
    Kind.REPLACEMENT_OFFERED,
    Kind.CHECKS_RENEWAL_DUE,
    Kind.BOOKING_PAID,
    Kind.BOOKING_CANCELLED,
    Kind.BOOKING_REASSIGNED,
    Kind.VISIT_REMINDER,
    Kind.UNREAD_MESSAGES,
]
ADMIN_KINDS = [Kind.PROVIDER_APPLICATIONS, Kind.MATCHING_ALERTS, Kind.VISIT_ALERTS, Kind.UNREAD_MESSAGES]

# Unless a person chose otherwise: email on, text off.
DEFAULT_ON = {Channel.EMAIL: True, Channel.SMS: False}


class Frequency(models.TextChoices):
    """How often a provider hears of new matching requests."""

    INSTANT = "instant", "As they come in"
    DAILY = "daily", "One summary a day"
    OFF = "off", "Never"
