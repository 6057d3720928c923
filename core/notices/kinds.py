"""The kinds of notice and who hears each: the declarations the catalogue (core.notices) and the
hook that sends a notice (core.notifications.notify, which re-exports them) both read."""

from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured
from django.db import models
from django.utils.translation import gettext_lazy as _


class NoticeKind(models.TextChoices):
    """The kinds of notice that may also go out by email and text (the notifications app's choices)."""

    # client
    REQUEST_ACCEPTED = "request_accepted", _("Your request was accepted")
    PAYMENT_RECEIVED = "payment_received", _("Payment receipts")
    CARD_CHARGE_FAILED = "card_charge_failed", _("Your saved card could not be charged for a visit")
    BOOKING_REASSIGNED = "booking_reassigned", _("Your booking has a new provider")
    REQUEST_EXPIRED = "request_expired", _("A request ended without a provider")
    VISIT_UPDATES = "visit_updates", _("Check-ins and visit reports")
    CIRCLE_JOINED = "circle_joined", _("Someone joined a care circle you organize")
    DIRECT_REQUEST_DECLINED = "direct_request_declined", _("A helper you asked for declined")
    DIRECT_REQUEST_OPENED = "direct_request_opened", _("A helper you asked for did not answer in 24 hours")
    REPLACEMENT_UPDATES = "replacement_updates", _("A helper cannot come and Kindly is finding another")
    # provider
    APPLICATION_DECIDED = "application_decided", _("Your provider application was reviewed")
    NEW_REQUESTS = "new_requests", _("New requests that match your services")
    BOOKING_PAID = "booking_paid", _("A booking was paid (confirmed)")
    DIRECT_REQUEST = "direct_request", _("A client asked for you directly")
    REQUEST_OFFERED = "request_offered", _("A request near you was offered to you")
    CHECKS_RENEWAL_DUE = "checks_renewal_due", _("Your yearly background check is due")
    REPLACEMENT_OFFERED = "replacement_offered", _("A visit near you needs a new helper soon")
    # both
    BOOKING_CANCELLED = "booking_cancelled", _("A booking was cancelled")
    VISIT_REMINDER = "visit_reminder", _("Visit reminders, 24 hours before")
    UNREAD_MESSAGES = "unread_messages", _("Messages you have not read for 10 minutes")
    # the circle and admins
    VISIT_ALERTS = "visit_alerts", _("A visit is late or looks missed")
    # admins
    PROVIDER_APPLICATIONS = "provider_applications", _("Provider applications waiting for review (daily)")
    MATCHING_ALERTS = "matching_alerts", _("A request no helper has taken, or that could not be placed")
    # an address that may have no account yet (not a choice in anyone's settings)
    CIRCLE_INVITATION = "circle_invitation", _("Invitations to a care circle")


class Audience(models.TextChoices):
    """A part a person plays for a notice; each kind names the parts it reaches, in order of precedence
    (a person in two parts hears in the words of the first)."""

    PAYER = "payer", "The person who paid"
    ORGANIZERS = "organizers", "The organizers of the care circle"
    CIRCLE = "circle", "Everyone in the care circle"
    HELPER = "helper", "The helper concerned (the booking's provider, the one asked, the applicant)"
    STAFF = "staff", "Kindly staff"
    ADDRESSEE = "addressee", "The person a message was written to"
    INVITEE = "invitee", "The address invited to a care circle"


A = Audience
# The one declaration of who hears of each kind (and so who may choose it in their settings).
# Money news goes to those who pay (the payer, then the other organizers), never to plain members;
# news of the visit itself goes to the whole circle; the helper hears of her own work only.
AUDIENCE: dict[str, tuple[Audience, ...]] = {
    NoticeKind.REQUEST_ACCEPTED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.PAYMENT_RECEIVED: (A.PAYER, A.ORGANIZERS),
    # The card is hers alone: nobody else hears that it was declined, nor which card it is.
    NoticeKind.CARD_CHARGE_FAILED: (A.PAYER,),
    NoticeKind.BOOKING_REASSIGNED: (A.HELPER, A.CIRCLE),
    NoticeKind.REQUEST_EXPIRED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.VISIT_UPDATES: (A.CIRCLE,),
    NoticeKind.CIRCLE_JOINED: (A.ORGANIZERS,),
    NoticeKind.DIRECT_REQUEST_DECLINED: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.DIRECT_REQUEST_OPENED: (A.ORGANIZERS, A.CIRCLE),
    # News of the visit (who is coming) to the whole circle; the refund question to those who pay.
    NoticeKind.REPLACEMENT_UPDATES: (A.ORGANIZERS, A.CIRCLE),
    NoticeKind.APPLICATION_DECIDED: (A.HELPER,),
    NoticeKind.NEW_REQUESTS: (A.HELPER,),
    NoticeKind.BOOKING_PAID: (A.HELPER,),
    NoticeKind.DIRECT_REQUEST: (A.HELPER,),
    NoticeKind.REQUEST_OFFERED: (A.HELPER,),
    NoticeKind.CHECKS_RENEWAL_DUE: (A.HELPER,),
    NoticeKind.REPLACEMENT_OFFERED: (A.HELPER,),
    NoticeKind.BOOKING_CANCELLED: (A.HELPER, A.ORGANIZERS, A.CIRCLE),
    NoticeKind.VISIT_REMINDER: (A.HELPER, A.CIRCLE),
    NoticeKind.UNREAD_MESSAGES: (A.ADDRESSEE,),
    NoticeKind.VISIT_ALERTS: (A.CIRCLE, A.STAFF),
    NoticeKind.PROVIDER_APPLICATIONS: (A.STAFF,),
    NoticeKind.MATCHING_ALERTS: (A.STAFF,),
    NoticeKind.CIRCLE_INVITATION: (A.INVITEE,),
}
del A
_undeclared = set(NoticeKind.values) - set(AUDIENCE)
if _undeclared:  # a new kind must say who hears of it before anything can send it
    raise ImproperlyConfigured(f"Notice kinds without an audience: {sorted(_undeclared)}")
