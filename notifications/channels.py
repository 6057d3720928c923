"""The two ways out: email through Django's mail API, text messages through Twilio's SDK.

Both are called by services.delivery_send outside any transaction.
"""

from __future__ import annotations

from email.utils import parseaddr
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from twilio.base.exceptions import TwilioRestException
from twilio.http.http_client import TwilioHttpClient
from twilio.rest import Client

from accounts.selectors import language_of_address
from core import notices
from core.notices import people as people_notices
from core.support import SUPPORT_CONVERSATION, support_contacts
from notifications.attachments import attach_files
from notifications.content import build, role_of
from notifications.kinds import Kind
from notifications.tokens import unsubscribe_token

if TYPE_CHECKING:
    from circles.models import CircleInvitation
    from notifications.models import Delivery

TWILIO_API = "https://api.twilio.com"
# Twilio's "Attempt to send to unsubscribed recipient": the number answered STOP.
TWILIO_OPTED_OUT = 21610


class RecipientOptedOut(Exception):
    """The phone number opted out (STOP): do not try again."""


def site_url(path: str) -> str:
    return f"{settings.SITE_URL}{path}"


def unsubscribe_url(*, user_id: str, kind: str) -> str:
    return site_url(reverse("notifications-unsubscribe", args=[unsubscribe_token(user_id=user_id, kind=kind)]))


def _support_context() -> dict:
    """Every email says how to reach support, as the pages do (core.support)."""
    return {"support": support_contacts(), "support_url": site_url(SUPPORT_CONVERSATION)}


def email_message(delivery: Delivery) -> EmailMultiAlternatives:
    """The email of a delivery: text and HTML parts, one action link, a one-click unsubscribe; in
    the recipient's own language (User.language), whoever caused it: a circle hears one event each
    in their own."""
    with translation.override(delivery.recipient.language or None):
        return _email_message(delivery)


def _email_message(delivery: Delivery) -> EmailMultiAlternatives:
    event, user = delivery.event, delivery.recipient
    content = build(event, user)
    unsubscribe = unsubscribe_url(user_id=user.pk, kind=event.kind)
    context = {
        "content": content,
        "greeting": gettext("Hello %(name)s,") % {"name": user.first_name} if user.first_name else "",
        "action_url": site_url(content.action_path),
        "preferences_url": site_url(reverse("settings") + "#notifications"),
        "unsubscribe_url": unsubscribe,
        "kind_label": Kind(event.kind).label if event.kind in Kind.values else gettext("these emails"),
        **_support_context(),
    }
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "kindly.invalid"
    message = EmailMultiAlternatives(
        subject=content.subject,
        body=render_to_string("notifications/email/message.txt", context),
        to=[user.email],
        headers={
            # RFC 8058 one-click: mail apps POST "List-Unsubscribe=One-Click" to the link.
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # The same id however often it is sent: a receiving server may drop a repeat.
            "Message-ID": f"<kindly-delivery-{delivery.pk}@{domain}>",
        },
    )
    message.attach_alternative(render_to_string("notifications/email/message.html", context), "text/html")
    attach_files(message, event, user)
    return message


def invitation_email(invitation: CircleInvitation, *, key: str) -> EmailMultiAlternatives:
    """The email inviting an address (which may have no account) to a care circle: who invites,
    for whom, with which role, the link, and that it works for 7 days. Nothing to unsubscribe
    from: the address chose nothing and gets one email per invitation an organizer sends. In the
    language of the address's account, or else the one the inviter chose for it (her own unless she chose another)."""
    inviter = invitation.invited_by.language if invitation.invited_by else settings.LANGUAGE_CODE
    chosen = invitation.language or inviter
    with translation.override(language_of_address(email=invitation.email, otherwise=chosen)):
        return _invitation_email(invitation, key=key)


def _invitation_email(invitation: CircleInvitation, *, key: str) -> EmailMultiAlternatives:
    from circles.services import invitation_facts, invitation_path

    content = people_notices.invitation_email(
        {
            **invitation_facts(invitation),
            "role": invitation.role,
            "path": invitation_path(invitation),
        }
    )
    context = {
        "content": content,
        "greeting": gettext("Hello,"),
        "action_url": site_url(content.action_path),
        "preferences_url": "",
        "unsubscribe_url": "",
        "kind_label": Kind.CIRCLE_INVITATION.label,
        **_support_context(),
    }
    domain = parseaddr(settings.DEFAULT_FROM_EMAIL)[1].rpartition("@")[2] or "kindly.invalid"
    message = EmailMultiAlternatives(
        subject=content.subject,
        body=render_to_string("notifications/email/message.txt", context),
        to=[invitation.email],
        headers={"Message-ID": f"<kindly-{key.replace(':', '-')}@{domain}>"},
    )
    message.attach_alternative(render_to_string("notifications/email/message.html", context), "text/html")
    return message


class _KindlyTwilioHttpClient(TwilioHttpClient):
    """Twilio's own HTTP client, sent to TWILIO_API_BASE when set (the tests' fake Twilio)."""

    def request(self, method, url, *args, **kwargs):
        base = settings.TWILIO_API_BASE
        if base and url.startswith(TWILIO_API):
            url = base.rstrip("/") + url[len(TWILIO_API) :]
        return super().request(method, url, *args, **kwargs)


def twilio_client() -> Client:
    return Client(
        settings.TWILIO_ACCOUNT_SID,
        settings.TWILIO_AUTH_TOKEN,
        http_client=_KindlyTwilioHttpClient(timeout=settings.EMAIL_TIMEOUT),
    )


def sms_body(delivery: Delivery) -> str:
    """The text message of a delivery (core.notices.text_message): the same words as the person's
    in-app message (the payer is thanked, the others told who paid), and the email's link; in the
    recipient's own language, written again from the notice's facts."""
    with translation.override(delivery.recipient.language or None):
        return _sms_body(delivery)


def _sms_body(delivery: Delivery) -> str:
    event = delivery.event
    content = build(event, delivery.recipient)
    texts = notices.texts_again(event.kind, event.context or {}) or {
        "": event.text,
        **(event.context or {}).get("texts", {}),
    }
    words = notices.text_for(texts, user_id=delivery.recipient_id, role=role_of(event, delivery.recipient))
    return notices.text_message(words, site_url(content.action_path))


def send_sms(delivery: Delivery, phone: str) -> str:
    """Text the delivery to `phone`; returns Twilio's message sid."""
    return send_text(phone, sms_body(delivery))


def send_text(phone: str, body: str) -> str:
    """Text `body` to `phone` from Kindly's number; returns Twilio's message sid. RecipientOptedOut
    when Twilio refuses the number because it answered STOP."""
    try:
        message = twilio_client().messages.create(to=phone, from_=settings.TWILIO_FROM_NUMBER, body=body)
    except TwilioRestException as error:
        if error.code == TWILIO_OPTED_OUT:
            raise RecipientOptedOut(str(error)) from error
        raise
    return message.sid
