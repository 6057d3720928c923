"""What each kind of email says: a plain subject, a few large lines, one action link, why it came."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from django.utils import dateformat, timezone

from core.notifications import Audience
from notifications.kinds import Kind
from requests_app.models import WINDOW_END, WINDOW_START, TimeWindow

if TYPE_CHECKING:
    from accounts.models import User
    from bookings.models import Booking
    from notifications.models import Event


@dataclass
class Content:
    subject: str
    heading: str
    lines: list[str]
    action_label: str
    action_path: str
    why: str
    items: list[str] = field(default_factory=list)


def _hour(moment: dt.time) -> str:
    return dateformat.time_format(moment, "g A") if moment.minute == 0 else dateformat.time_format(moment, "g:i A")


# The window times come from their one table (requests_app.models.WINDOW_TIMES).
WINDOW_WORDS = {
    window: f"{window.label.split(' ')[0].lower()} visit, {_hour(WINDOW_START[window])} to {_hour(WINDOW_END[window])}"
    for window in (TimeWindow.MORNING, TimeWindow.AFTERNOON, TimeWindow.EVENING)
} | {TimeWindow.FLEXIBLE: "flexible time"}


def visit_time(booking: Booking) -> str:
    """'Tuesday, November 24, 2026 at 8:00 AM Eastern Time (morning visit, 8 AM to 12 PM)': on the
    clock of the person cared for, named, as a son in another state reads it."""
    start = timezone.localtime(booking.starts_at, booking.time_zone)
    text = dateformat.format(start, r"l, F j, Y \a\t g:i A") + f" {booking.recipient.zone_name}"
    words = WINDOW_WORDS.get(booking.scheduled_time)
    return f"{text} ({words})" if words else text


def _first(user: User | None, fallback: str) -> str:
    return (user.first_name if user else "") or fallback


def role_of(event: Event, recipient: User) -> str:
    """The part (core.notifications.Audience) the recipient plays for the event, as the
    sender resolved it from the kind's declared audience; "" for an event recorded before parts."""
    return str((event.context or {}).get("roles", {}).get(str(recipient.pk), ""))


def _whose(b: Booking, recipient: User) -> str:
    """Whom the visit is for, in the reader's words: "you" for the senior herself, else her first name."""
    person = b.recipient
    if person is None or person.account_id == recipient.pk:
        return "you"
    return person.first_name or "your family member"


def _requested_by_you(b: Booking | None, ctx: dict, recipient: User) -> bool:
    return (b.service_request.client_id if b else ctx.get("client_id")) == recipient.pk


def build(event: Event, recipient: User) -> Content:
    """The email for one recipient of an event (the booking as it is now, the event's context), in
    the words of the part they play (the payer, an organizer, a member of the circle, the helper, staff)."""
    ctx = event.context or {}
    b = event.booking
    kind = event.kind
    role = role_of(event, recipient)
    is_helper = role == Audience.HELPER if role else b is not None and b.provider.user_id == recipient.pk
    pays = role in (Audience.PAYER, Audience.ORGANIZERS) or (not role and b is not None and b.client_id == recipient.pk)
    title = f"\u201c{b.service_request.title}\u201d" if b else ""
    when = visit_time(b) if b else ""
    circle_why = f"you are in the care circle of {b.recipient.full_name}" if b else "you are in this care circle"
    if kind == Kind.REQUEST_ACCEPTED and b:
        provider = _first(b.provider.user, "A verified provider")
        if not pays:
            # A plain member did not ask and cannot pay: she hears who will visit, nothing to do.
            return Content(
                subject=f"{provider} will visit {_whose(b, recipient)}",
                heading=f"{provider} accepted the request {title}.",
                lines=[f"Visit: {when}.", "An organizer of the care circle pays to confirm the booking."],
                action_label="See the booking",
                action_path="/dashboard",
                why=circle_why,
            )
        yours = "your request" if b.service_request.client_id == recipient.pk else "the request"
        return Content(
            subject=f"{provider} accepted {yours}",
            heading=f"Good news: {provider} accepted {yours} {title}.",
            lines=[
                f"Visit: {when}.",
                f"Total: ${b.total_amount}.",
                # A series accepted without the dates the helper cannot make: the family is told which.
                *([f"Not booked ({provider} cannot come): {ctx['left_out']}."] if ctx.get("left_out") else []),
                "Pay now to confirm the booking.",
            ],
            action_label="Pay now",
            action_path=f"/checkout/{b.pk}",
            why="you asked Kindly for help with this request"
            if yours == "your request"
            else f"you organize the care circle of {b.recipient.full_name}",
        )
    if kind == Kind.PAYMENT_RECEIVED and b:
        payer = ctx.get("payer_name", "")
        if role == Audience.ORGANIZERS and payer:
            # Another organizer paid: she is told who, never thanked for a payment she did not make.
            return Content(
                subject=f"{payer} paid for {title}",
                heading=f"{payer} paid ${b.total_amount} for {title}.",
                lines=[
                    f"Booking: {title} with {_first(b.provider.user, 'the provider')}.",
                    f"Visit: {when}. The booking is confirmed.",
                ],
                action_label="See the booking",
                action_path="/dashboard",
                why=f"you organize the care circle of {b.recipient.full_name}",
            )
        card = f" with the card ending in {ctx['last4']}" if ctx.get("last4") else ""
        return Content(
            subject="Your payment was received",
            heading="Thank you: your payment was received.",
            lines=[
                f"Amount: ${b.total_amount}{card}.",
                f"Booking: {title} with {_first(b.provider.user, 'your provider')}.",
                f"Visit: {when}. Your booking is confirmed.",
            ],
            action_label="See your booking",
            action_path="/dashboard",
            why="you paid for a booking on Kindly",
        )
    if kind == Kind.BOOKING_PAID and b:
        return Content(
            subject="A booking is confirmed",
            heading=f"{_first(b.client, 'The client')} paid for {title}.",
            lines=[f"Visit: {when}.", "The booking is confirmed."],
            action_label="See your schedule",
            action_path="/dashboard",
            why="you are the provider of this booking",
        )
    if kind == Kind.BOOKING_CANCELLED and b:
        by = ctx.get("by", "Kindly")
        if ctx.get("actor") == recipient.pk:
            by = "you"
        elif is_helper:  # the helper knows the family as "the client"
            by = ctx.get("by_helper") or by
        lines = [f"Visit that was planned: {when}.", f"Cancelled by: {by}."]
        if b.cancellation_reason:
            lines.append(f"Reason: {b.cancellation_reason}")
        if pays and ctx.get("refund"):  # money news: to those who pay only
            lines.append(f"Refund: ${ctx['refund']}, in full, to the card it was paid with.")
        return Content(
            subject="A booking was cancelled",
            heading=f"The booking for {title} was cancelled."
            if is_helper
            else f"Your booking for {title} was cancelled.",
            lines=lines,
            action_label="Open your dashboard",
            action_path="/dashboard",
            why="you are the provider of this booking" if is_helper else circle_why,
        )
    if kind == Kind.BOOKING_REASSIGNED and b:
        if not is_helper:
            helper = _first(b.provider.user, "A verified provider")
            return Content(
                subject="Your booking has a new provider",
                heading=f"{helper} will now visit {_whose(b, recipient)} for {title}.",
                lines=[f"Visit: {when}.", "Nothing else changes: the time and the price stay the same."],
                action_label="See your booking",
                action_path="/dashboard",
                why=circle_why,
            )
        return Content(
            subject="You have a new booking",
            heading=f"You have been assigned the booking {title}.",
            lines=[f"Visit: {when}."],
            action_label="See your schedule",
            action_path="/dashboard",
            why="Kindly support assigned this booking to you",
        )
    if kind == Kind.VISIT_REMINDER and b:
        if is_helper:
            other = b.recipient.first_name or _first(b.client, "your client")
            return Content(
                subject="Reminder: your visit is tomorrow",
                heading=f"Your visit for {title} is tomorrow.",
                lines=[f"When: {when}.", f"With: {other}."],
                action_label="See the booking",
                action_path="/dashboard",
                why="you are the provider of this visit",
            )
        whose = _whose(b, recipient)
        return Content(
            subject="Reminder: a visit is tomorrow" if whose != "you" else "Reminder: your visit is tomorrow",
            heading=f"The visit for {title} is tomorrow." if whose != "you" else f"Your visit for {title} is tomorrow.",
            lines=[f"When: {when}.", f"Helper: {_first(b.provider.user, 'your provider')}."]
            + ([f"For: {b.recipient.full_name}."] if whose != "you" else []),
            action_label="See the booking",
            action_path="/dashboard",
            why=circle_why,
        )
    if kind == Kind.VISIT_UPDATES and b:
        provider = _first(b.provider.user, "Your provider")
        if ctx.get("event") == "checked_in":
            return Content(
                subject=f"{provider} has arrived",
                heading=f"{provider} checked in for {title}.",
                lines=[event.text],
                action_label="See the visit",
                action_path="/dashboard",
                why=circle_why,
            )
        return Content(
            subject="Visit report ready",
            heading=f"{provider} wrote how the visit for {title} went.",
            lines=[event.text, "Read the whole report on the booking."],
            action_label="Read the report",
            action_path="/dashboard",
            why=circle_why,
        )
    if kind == Kind.VISIT_ALERTS and b:
        return Content(
            subject="A visit may be late or missed",
            heading=f"About the visit for {title}.",
            lines=[event.text, f"Planned: {when}."],
            action_label="See the visit",
            action_path="/dashboard",
            why="you are a Kindly admin" if role == Audience.STAFF else circle_why,
        )
    # A request's news: "your request" to whoever posted it, "the request" to the rest of the circle.
    yours = "your request" if _requested_by_you(b, ctx, recipient) else "the request"
    request_why = (
        "you posted this request on Kindly"
        if yours == "your request"
        else "you organize this care circle on Kindly"
        if role == Audience.ORGANIZERS
        else "you are in the care circle of this request"
    )
    if kind == Kind.REQUEST_EXPIRED:
        if role == Audience.CIRCLE:  # a plain member cannot post it again: news only
            return Content(
                subject="A request ended without a provider",
                heading=f"The request \u201c{ctx.get('title', '')}\u201d has ended.",
                lines=["Its preferred date has passed and no provider accepted it."],
                action_label="Open your dashboard",
                action_path="/dashboard",
                why=request_why,
            )
        return Content(
            subject=f"{yours.capitalize()} ended without a provider",
            heading=f"{yours.capitalize()} \u201c{ctx.get('title', '')}\u201d has ended.",
            lines=[
                "Its preferred date has passed and no provider accepted it.",
                "You are welcome to post it again with a new date.",
            ],
            action_label="Post a new request",
            action_path="/request-service",
            why=request_why,
        )
    if kind == Kind.DIRECT_REQUEST:
        return Content(
            subject=f"{ctx.get('client', 'A client')} asked for you directly",
            heading=f"{ctx.get('client', 'A client')} asked you for \u201c{ctx.get('title', '')}\u201d.",
            lines=[
                "It is offered to you only."
                if ctx.get("only")
                else f"Only you can accept it until {ctx.get('until', 'tomorrow')}; "
                "after that other helpers can offer too.",
                "If you cannot go, please decline and say why, so they can find another helper.",
            ],
            action_label="See the request",
            action_path=f"/service-request-details?id={ctx.get('request_id', '')}",
            why="a client chose you for this request on Kindly",
        )
    if kind == Kind.DIRECT_REQUEST_DECLINED:
        provider = ctx.get("provider", "The helper")
        lines = [f"Their reason: {ctx.get('reason', '')}"]
        lines.append(
            f"{yours.capitalize()} was cancelled, as it asked for only them."
            if ctx.get("cancelled")
            else f"{yours.capitalize()} is now open to all helpers."
        )
        return Content(
            subject=f"{provider} cannot take {yours}",
            heading=f"{provider} declined {yours} \u201c{ctx.get('title', '')}\u201d.",
            lines=lines,
            action_label="Open your dashboard",
            action_path="/dashboard",
            why=request_why,
        )
    if kind == Kind.DIRECT_REQUEST_OPENED:
        provider = ctx.get("provider", "The helper")
        return Content(
            subject=f"{yours.capitalize()} is now open to all helpers",
            heading=f"{provider} has not answered in 24 hours.",
            lines=[f"{yours.capitalize()} \u201c{ctx.get('title', '')}\u201d is now open to all helpers."],
            action_label="Open your dashboard",
            action_path="/dashboard",
            why=request_why,
        )
    if kind == Kind.APPLICATION_DECIDED:
        approved = ctx.get("status") == "verified"
        return Content(
            subject="Your provider application was approved" if approved else "About your provider application",
            heading="You are now a verified Kindly provider." if approved else "Your application was not approved.",
            lines=["You can now accept service requests."]
            if approved
            else ["Please contact Kindly support if you have questions."],
            action_label="Open your dashboard",
            action_path="/dashboard",
            why="you applied to be a Kindly provider",
        )
    if kind == Kind.NEW_REQUESTS:
        items = list(ctx.get("requests", []))
        return Content(
            subject="A new request matches your services" if len(items) == 1 else "New requests match your services",
            heading=f"{len(items)} new request{'s' if len(items) != 1 else ''} match{'es' if len(items) == 1 else ''} "
            "the services you offer.",
            lines=[],
            items=items,
            action_label="See open requests",
            action_path="/dashboard",
            why="you offer these services on Kindly",
        )
    if kind == Kind.UNREAD_MESSAGES:
        count = int(ctx.get("count", 1))
        sender = ctx.get("sender", "Someone")
        return Content(
            subject=f"{sender} sent you {'a message' if count == 1 else f'{count} messages'}",
            heading=f"You have {count} unread message{'s' if count != 1 else ''} from {sender}.",
            lines=["Open your messages on Kindly to read and answer."],
            action_label="Read your messages",
            action_path="/messages",
            why="someone wrote to you on Kindly and you have not read it for 10 minutes",
        )
    if kind == Kind.CIRCLE_JOINED:
        return Content(
            subject=f"{ctx.get('name', 'Someone')} joined {ctx.get('recipient', 'your')}'s care circle",
            heading=f"{ctx.get('name', 'Someone')} joined {ctx.get('recipient', 'your')}'s care circle.",
            lines=[
                f"They joined as {ctx.get('role', 'member')}. They can now see the visits booked for "
                f"{ctx.get('recipient', 'them')} and the messages with helpers.",
                "You can change their role or remove them on your Care circle page.",
            ],
            action_label="Open your care circle",
            action_path="/care-circle",
            why="you organize this care circle on Kindly",
        )
    if kind == Kind.PROVIDER_APPLICATIONS:
        count = int(ctx.get("count", 0))
        return Content(
            subject=f"{count} provider application{'s' if count != 1 else ''} waiting for review",
            heading=f"{count} provider application{'s are' if count != 1 else ' is'} waiting for review.",
            lines=["Applicants are told we review within 2-3 business days."],
            items=list(ctx.get("names", [])),
            action_label="Review applications",
            action_path="/admin",
            why="you are a Kindly admin",
        )
    # A kind without its own email: the in-app text.
    return Content(
        subject="News from Kindly",
        heading=event.text,
        lines=[],
        action_label="Open Kindly",
        action_path="/dashboard",
        why="you have an account on Kindly",
    )
