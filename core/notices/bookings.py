"""The notices of a booking: its accept, payment, cancel, new helper, the visit and its money."""

from __future__ import annotations

from core.notices.base import Content, Facts, Notice, Reader, Texts, first
from core.notices.kinds import Audience, NoticeKind

ORGANIZERS, HELPER, PAYER = Audience.ORGANIZERS, Audience.HELPER, Audience.PAYER


class InApp:
    """Notices of a booking said in the app only (no kind: nobody chooses them by email)."""

    ACCEPTED_BY_YOU = "accepted_by_you"
    REASSIGNED_AWAY = "reassigned_away"
    PAID_AFTER_CANCEL = "paid_after_cancel"
    PAYMENT_FAILED = "payment_failed"
    REFUNDED = "refunded"
    REFUNDED_ELSEWHERE = "refunded_elsewhere"
    REFUND_FAILED = "refund_failed"
    REVIEW_RECEIVED = "review_received"
    VISIT_COMPLETED = "visit_completed"
    CHECK_IN_REMINDER = "check_in_reminder"
    EARNING_WAITING = "earning_waiting"
    LATE_FEE_DISPUTED = "late_fee_disputed"
    LATE_FEE_DECIDED = "late_fee_decided"
    TIP_RECEIVED = "tip_received"
    VISIT_NEEDS_HELPER = "visit_needs_helper"
    HELPER_LEFT = "helper_left"
    REMOVED_FROM_VISIT = "removed_from_visit"
    REPLACEMENT_TAKEN = "replacement_taken"


# ---------------------------------------------------------------- accept


def _accepted(f: Facts) -> Texts:
    """facts: name (the helper), title, when, total; series ("every week for 4 visits") and
    left_out (the dates she cannot make) for a series."""
    name, title, when, series, left_out = f["name"], f["title"], f["when"], f.get("series"), f.get("left_out")
    if series:
        # Organizers pay, so they are asked to; plain members hear who will visit. A series accepted
        # without the dates the helper cannot make names them to everyone.
        not_booked = f" {name} cannot come on {left_out}, so those dates are not booked." if left_out else ""
        return {
            "": f'Good news: {name} accepted the request "{title}". The visits are booked {series}, starting {when}.'
            + not_booked,
            ORGANIZERS: f'Good news: {name} accepted your request "{title}". The visits are booked {series}, '
            f"starting {when}. Each visit: ${f['total']}, paid per visit." + not_booked,
        }
    return {
        "": f'Good news: {name} accepted the request "{title}". The visit is booked for {when}.',
        ORGANIZERS: f'Good news: {name} accepted your request "{title}". The visit is booked for {when}. '
        f"Total: ${f['total']}, to pay to confirm it.",
    }


def _accepted_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    provider = first(b.provider.user, "A verified provider")
    if not r.pays:
        # A plain member did not ask and cannot pay: she hears who will visit, nothing to do.
        return Content(
            subject=f"{provider} will visit {r.whose}",
            heading=f"{provider} accepted the request {r.title}.",
            lines=[f"Visit: {r.when}.", "An organizer of the care circle pays to confirm the booking."],
            action_label="See the booking",
            action_path="/dashboard",
            why=r.circle_why,
        )
    yours = "your request" if b.service_request.client_id == r.recipient.pk else "the request"
    return Content(
        subject=f"{provider} accepted {yours}",
        heading=f"Good news: {provider} accepted {yours} {r.title}.",
        lines=[
            f"Visit: {r.when}.",
            f"Total: ${b.total_amount}.",
            # A series accepted without the dates the helper cannot make: the family is told which.
            *([f"Not booked ({provider} cannot come): {r.ctx['left_out']}."] if r.ctx.get("left_out") else []),
            "Pay now to confirm the booking.",
        ],
        action_label="Pay now",
        action_path=f"/checkout/{b.pk}",
        why="you asked Kindly for help with this request"
        if yours == "your request"
        else f"you organize the care circle of {b.recipient.full_name}",
    )


def _accepted_by_you(f: Facts) -> Texts:
    """To the helper who accepted; facts as REQUEST_ACCEPTED's."""
    title, when, series, left_out = f["title"], f["when"], f.get("series"), f.get("left_out")
    if series:
        return {
            "": f'You accepted "{title}" {series}, starting {when}. '
            + (f"Not booked (you are unavailable): {left_out}. " if left_out else "")
            + "You can now contact the client."
        }
    return {"": f'You accepted "{title}" for {when}. You can now contact the client.'}


# ---------------------------------------------------------------- a new helper


def _reassigned(f: Facts) -> Texts:
    """facts: title, when, new_name (the new helper's full name)."""
    return {
        "": f'The booking for "{f["title"]}" on {f["when"]} has a new provider: {f["new_name"]}.',
        HELPER: f'You have been assigned the booking for "{f["title"]}" on {f["when"]}.',
    }


def _reassigned_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    if not r.is_helper:
        helper = first(b.provider.user, "A verified provider")
        return Content(
            subject="Your booking has a new provider",
            heading=f"{helper} will now visit {r.whose} for {r.title}.",
            lines=[f"Visit: {r.when}.", "Nothing else changes: the time and the price stay the same."],
            action_label="See your booking",
            action_path="/dashboard",
            why=r.circle_why,
        )
    return Content(
        subject="You have a new booking",
        heading=f"You have been assigned the booking {r.title}.",
        lines=[f"Visit: {r.when}."],
        action_label="See your schedule",
        action_path="/dashboard",
        why="Kindly support assigned this booking to you",
    )


# ---------------------------------------------------------------- a replacement


def _replacement(f: Facts) -> Texts:
    """facts: stage ("seeking": the helper cannot come and others are asked; "found": name (the new
    helper's first name) and arrival ("2:00 PM"); "unfilled": nobody yet, the refund is offered to
    those who pay), title, when."""
    title, when, stage = f["title"], f["when"], f["stage"]
    if stage == "found":
        return {"": f'Replacement confirmed: {f["name"]} will arrive at {f["arrival"]} for "{title}" on {when}.'}
    if stage == "unfilled":
        said = f'We have not yet found a new helper for "{title}" on {when}. We are still asking.'
        return {
            "": said,
            ORGANIZERS: said + " You can keep waiting, or cancel the visit with a full refund: open your dashboard.",
        }
    return {
        "": f'Your helper cannot come for "{title}" on {when}. Kindly is finding a replacement now and will '
        "tell you who is coming. You do not need to do anything."
    }


def _replacement_email(r: Reader) -> Content | None:
    b, stage = r.booking, r.ctx.get("stage")
    if b is None:
        return None
    if stage == "found":
        return Content(
            subject=f"Replacement confirmed: {r.ctx.get('name', 'a new helper')} is coming",
            heading=f"Replacement confirmed: {r.ctx.get('name', 'a new helper')} will arrive at "
            f"{r.ctx.get('arrival', 'the time you were told')}.",
            lines=[f"Visit: {r.when}.", "Nothing else changes: the time, the tasks and the price stay the same."],
            action_label="See the booking",
            action_path="/dashboard",
            why=r.circle_why,
        )
    if stage == "unfilled":
        lines = [f"Visit: {r.when}.", "We are still asking helpers near you."]
        if r.pays:
            lines.append("You can keep waiting, or cancel the visit with a full refund from your dashboard.")
        return Content(
            subject="We are still finding a helper",
            heading=f"We have not yet found a new helper for {r.title}.",
            lines=lines,
            action_label="Open your dashboard",
            action_path="/dashboard",
            why=r.circle_why,
        )
    return Content(
        subject="Finding a replacement",
        heading=f"Your helper cannot come for {r.title}. Kindly is finding a replacement.",
        lines=[f"Visit: {r.when}.", "We will tell you who is coming. You do not need to do anything."],
        action_label="See the booking",
        action_path="/dashboard",
        why=r.circle_why,
    )


def _replacement_offered(f: Facts) -> Texts:
    """facts: title, when, town, miles ("3.2 miles away"; "" unknown), answer_by (in words)."""
    away = f" ({f['miles']})" if f.get("miles") else ""
    return {
        "": f'A visit near you needs a new helper: "{f["title"]}", {f["when"]} in {f["town"]}{away}. '
        "Open your dashboard to take it."
    }


def _replacement_offered_email(r: Reader) -> Content:
    ctx = r.ctx
    away = f", {ctx['miles']}" if ctx.get("miles") else ""
    return Content(
        subject="A visit near you needs a new helper",
        heading=f"\u201c{ctx.get('title', '')}\u201d, {ctx.get('when', '')}.",
        lines=[
            f"It is in {ctx.get('town', 'your area')}{away}, and you are free then.",
            "The family's helper cannot come. The first helper to take it makes the visit"
            f" (please answer by {ctx.get('answer_by', 'soon')}).",
        ],
        action_label="See the visit",
        action_path="/dashboard",
        why="you offer this service near this family on Kindly",
    )


# ---------------------------------------------------------------- cancel


def _cancelled(f: Facts) -> Texts:
    """facts: how ("client", "series_rest", "support", "account_closed"), title, when, reason; by
    (who cancelled, for the email), by_helper (the same, as the helper knows them), actor (the
    user id of who did it: told in their own words), refund (the amount, "" when nothing was
    paid); visits and span for the rest of a series ("3 visits", "Tuesday, December 8 to ...");
    party ("client", "provider") and refund_note for an account closure."""
    title, when, reason, how = f["title"], f.get("when", ""), f.get("reason", ""), f["how"]
    because = f" Reason: {reason}" if reason else ""
    if how == "client":
        return {
            "": f'The booking for "{title}" was cancelled by {f["by"]}.',
            f"user:{f['actor']}": f'Your booking for "{title}" was cancelled.',
            HELPER: f'The client cancelled the booking for "{title}" on {when}.' + because,
        }
    if how == "series_rest":
        done = f"{f['visits']} ({f['span']})"
        return {
            "": f'The rest of the series "{title}" was cancelled by {f["by"]}: {done}.',
            f"user:{f['actor']}": f'You cancelled the rest of the series "{title}": {done}.',
            HELPER: f'The client cancelled the rest of the series "{title}": {done}.' + because,
        }
    if how == "support":
        said = f'The booking for "{title}" on {when} was cancelled by Kindly support. Reason: {reason}'
        if not f.get("late_fee"):
            return {"": said}
        fee = f" The late-cancellation fee of ${f['late_fee']} goes to the helper (our cancellation policy)."
        return {"": said, ORGANIZERS: said + fee, HELPER: said + f" You will be paid the late fee of ${f['late_fee']}."}
    if how == "nobody_home":
        found = f'Your helper arrived for "{title}" on {when} and found nobody home, so the visit was cancelled.'
        fee = (
            f" Under our cancellation policy the helper is paid the late fee of ${f['late_fee']}; the rest of"
            " the payment comes back to the card. If someone was home, you can dispute the fee: follow the link"
            " in our email, or contact support."
        )
        return {
            "": found,
            ORGANIZERS: found + (fee if f.get("late_fee") else ""),
            HELPER: f'You reported nobody home for "{title}" on {when}. The visit is cancelled'
            + (f" and you will be paid the late fee of ${f['late_fee']}." if f.get("late_fee") else "."),
        }
    gone = f'The booking for "{title}" on {when} was cancelled because the {f["party"]} closed their Kindly account.'
    refund_note = " Any payment will be refunded in full. You are welcome to post a new request."
    return {"": gone, ORGANIZERS: gone + ("" if f["party"] == "client" else refund_note)}


def _cancelled_email(r: Reader) -> Content | None:
    b, ctx = r.booking, r.ctx
    if b is None:
        return None
    by = ctx.get("by", "Kindly")
    if ctx.get("actor") == r.recipient.pk:
        by = "you"
    elif r.is_helper:  # the helper knows the family as "the client"
        by = ctx.get("by_helper") or by
    lines = [f"Visit that was planned: {r.when}.", f"Cancelled by: {by}."]
    if b.cancellation_reason:
        lines.append(f"Reason: {b.cancellation_reason}")
    if r.pays and ctx.get("late_fee"):  # money news: to those who pay only
        lines.append(f"Late-cancellation fee, paid to the helper: ${ctx['late_fee']} (our cancellation policy).")
        if ctx.get("refund"):
            lines.append(f"Refund: ${ctx['refund']}, the rest of the payment, to the card it was paid with.")
    elif r.pays and ctx.get("refund"):
        lines.append(f"Refund: ${ctx['refund']}, in full, to the card it was paid with.")
    nobody_home = ctx.get("how") == "nobody_home" and ctx.get("late_fee") and r.pays
    return Content(
        subject="A booking was cancelled",
        heading=f"{'The' if r.is_helper else 'Your'} booking for {r.title} was cancelled.",
        lines=lines,
        action_label="See or dispute the late fee" if nobody_home else "Open your dashboard",
        action_path=f"/late-fees/{b.pk}" if nobody_home else "/dashboard",
        why="you are the provider of this booking" if r.is_helper else r.circle_why,
    )


# ---------------------------------------------------------------- payment and refund


def _payment_received(f: Facts) -> Texts:
    """facts: total, title, when; payer_name (who paid, "" when not known), last4 (the card's)."""
    total, title, when, payer = f["total"], f["title"], f["when"], f.get("payer_name")
    # The payer is thanked (with the card, when the gateway said which); the other organizers read
    # who paid; plain members get no money news (they see the booking confirmed).
    return {
        "": f'{payer} paid ${total} for "{title}". The booking on {when} is confirmed.'
        if payer
        else f'Payment of ${total} received for "{title}". The booking on {when} is confirmed.',
        PAYER: f'Thank you: your payment of ${total} for "{title}" was received. The booking on {when} is confirmed.',
    }


# The email carries the visit's receipt (notifications.attachments, payments.receipts).
RECEIPT_ATTACHED = "The receipt is attached as a PDF, for your records, your insurer or your taxes."


def _payment_received_email(r: Reader) -> Content | None:
    b, ctx = r.booking, r.ctx
    if b is None:
        return None
    payer = ctx.get("payer_name", "")
    if r.role == ORGANIZERS and payer:
        # Another organizer paid: she is told who, never thanked for a payment she did not make.
        return Content(
            subject=f"{payer} paid for {r.title}",
            heading=f"{payer} paid ${b.total_amount} for {r.title}.",
            lines=[
                f"Booking: {r.title} with {first(b.provider.user, 'the provider')}.",
                f"Visit: {r.when}. The booking is confirmed.",
                RECEIPT_ATTACHED,
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
            f"Booking: {r.title} with {first(b.provider.user, 'your provider')}.",
            f"Visit: {r.when}. Your booking is confirmed.",
            RECEIPT_ATTACHED,
        ],
        action_label="See your booking",
        action_path="/dashboard",
        why="you paid for a booking on Kindly",
    )


def _card_charge_failed(f: Facts) -> Texts:
    """facts: title, when; card ("Visa •••• 4242"), reason (the bank's words, "" when none),
    booking_id (the checkout page fixes it)."""
    why = f" {f['reason']}" if f.get("reason") else ""
    return {
        "": f'We could not charge your {f["card"]} for "{f["title"]}" on {f["when"]}.{why} '
        f"Please fix it before the visit: /checkout/{f['booking_id']}"
    }


def _card_charge_failed_email(r: Reader) -> Content | None:
    b, ctx = r.booking, r.ctx
    if b is None:
        return None
    reason = [ctx["reason"]] if ctx.get("reason") else []
    return Content(
        subject="We could not charge your card for a visit",
        heading=f"We could not charge your {ctx.get('card', 'saved card')} for {r.title}.",
        lines=[
            *reason,
            f"Amount: ${b.total_amount}. Visit: {r.when}.",
            "The visit is waiting for payment. Please pay before the visit, with the same card or another one.",
        ],
        action_label="Fix the payment",
        action_path=f"/checkout/{b.pk}",
        why="you saved a card to pay for visits on Kindly",
    )


def _booking_paid_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    return Content(
        subject="A booking is confirmed",
        heading=f"{first(b.client, 'The client')} paid for {r.title}.",
        lines=[f"Visit: {r.when}.", "The booking is confirmed."],
        action_label="See your schedule",
        action_path="/dashboard",
        why="you are the provider of this booking",
    )


def _payment_failed(f: Facts) -> Texts:
    """facts: title; message (the gateway's words, "" when none)."""
    why = f": {f['message']}" if f.get("message") else "."
    return {"": f'Your payment for "{f["title"]}" did not go through{why} You can try again from the payment page.'}


def _refund_failed(f: Facts) -> Texts:
    return {
        "": f'We could not refund your payment of ${f["total"]} for "{f["title"]}" right away. Kindly support has '
        "been told and will make sure it is refunded in full; you do not need to do anything."
    }


# ---------------------------------------------------------------- the visit


def _visit_completed(f: Facts) -> Texts:
    """facts: title. Organizers review a visit; a plain member is not asked to do what she cannot."""
    done = f'Your booking for "{f["title"]}" was marked completed.'
    return {"": done, ORGANIZERS: f"{done} Thank you for using Kindly! You can now leave a review."}


def _visit_updates(f: Facts) -> Texts:
    """facts: event ("checked_in": name, time; "report": name, wellbeing, timeline: the visit in
    one line, "Vera arrived 1:58 PM (at Margaret's home) · 3 of 4 tasks done · left 3:02 PM"), title."""
    if f["event"] == "checked_in":
        return {"": f'{f["name"]} checked in at {f["time"]} for "{f["title"]}".'}
    timeline = f" {f['timeline']}." if f.get("timeline") else ""
    return {
        "": f'Visit report ready: {f["name"]} wrote how the visit for "{f["title"]}" went. '
        f"They seemed: {f['wellbeing']}.{timeline}"
    }


def _visit_updates_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    provider = first(b.provider.user, "Your provider")
    if r.ctx.get("event") == "checked_in":
        return Content(
            subject=f"{provider} has arrived",
            heading=f"{provider} checked in for {r.title}.",
            lines=[r.text],
            action_label="See the visit",
            action_path="/dashboard",
            why=r.circle_why,
        )
    return Content(
        subject="Visit report ready",
        heading=f"{provider} wrote how the visit for {r.title} went.",
        lines=[r.text, "Read the whole report on the booking."],
        action_label="Read the report",
        action_path="/dashboard",
        why=r.circle_why,
    )


def _check_in_reminder(f: Facts) -> Texts:
    """To the helper first, while she can still keep the window the family was told. facts: title,
    by (the latest check-in time), window ("Morning (8AM - 12PM)")."""
    return {
        "": f'Reminder: please check in for "{f["title"]}" by {f["by"]}, so the visit fits the window the '
        f"family was told ({f['window']}). If you cannot make it, message the family from the booking now."
    }


def _visit_alerts(f: Facts) -> Texts:
    """facts: alert ("late", "no_check_out"), provider (her full name), title, window; by (the
    latest check-in time) when late; checked_in and due (when it should have ended) for the rest."""
    provider, title, window = f["provider"], f["title"], f["window"]
    if f["alert"] == "late":
        return {
            "": f'{provider} has not checked in for "{title}" ({window}), and the visit no longer fits that '
            f"window without a check-in by {f['by']}. We are looking into it; you can message them from the booking."
        }
    if not f["checked_in"]:
        return {
            "": f'{provider} never checked in for "{title}", and its window ({window}) is over: the visit looks '
            "missed. We are looking into it."
        }
    return {
        "": f'{provider} checked in for "{title}" but has not checked out, 2 hours after the visit should have '
        f"ended ({f['due']}). We are looking into it."
    }


def _visit_alerts_email(r: Reader) -> Content | None:
    if r.booking is None:
        return None
    return Content(
        subject="A visit may be late or missed",
        heading=f"About the visit for {r.title}.",
        lines=[r.text, f"Planned: {r.when}."],
        action_label="See the visit",
        action_path="/dashboard",
        why="you are a Kindly admin" if r.role == Audience.STAFF else r.circle_why,
    )


def _visit_reminder(f: Facts) -> Texts:
    """facts: title, when (the visit's time on the clock of the person cared for)."""
    return {
        "": f'Reminder: the visit for "{f["title"]}" is tomorrow, {f["when"]}.',
        HELPER: f'Reminder: your visit for "{f["title"]}" is tomorrow, {f["when"]}.',
    }


def _visit_reminder_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    if r.is_helper:
        other = b.recipient.first_name or first(b.client, "your client")
        return Content(
            subject="Reminder: your visit is tomorrow",
            heading=f"Your visit for {r.title} is tomorrow.",
            lines=[f"When: {r.when}.", f"With: {other}."],
            action_label="See the booking",
            action_path="/dashboard",
            why="you are the provider of this visit",
        )
    theirs = r.whose != "you"
    return Content(
        subject="Reminder: a visit is tomorrow" if theirs else "Reminder: your visit is tomorrow",
        heading=f"The visit for {r.title} is tomorrow." if theirs else f"Your visit for {r.title} is tomorrow.",
        lines=[f"When: {r.when}.", f"Helper: {first(b.provider.user, 'your provider')}."]
        + ([f"For: {b.recipient.full_name}."] if theirs else []),
        action_label="See the booking",
        action_path="/dashboard",
        why=r.circle_why,
    )


def _late_fee_decided(f: Facts) -> Texts:
    """facts: amount, title, reason (staff's), paid (the fee stands)."""
    amount, title, reason = f["amount"], f["title"], f["reason"]
    if f["paid"]:
        return {
            "": f'Kindly support looked into the disputed late fee of ${amount} for "{title}": it stands and '
            f"is paid to the helper. Reason: {reason}",
            HELPER: f'Kindly support looked into the disputed late fee of ${amount} for "{title}": '
            "you will be paid it.",
        }
    return {
        "": f'Kindly support looked into the disputed late fee of ${amount} for "{title}": it is waived and '
        f"comes back to the card. Reason: {reason}",
        HELPER: f'Kindly support waived the late fee of ${amount} for "{title}" after the family disputed it. '
        f"Reason: {reason}",
    }


def _money_words(amount: str) -> str:
    """$10 for whole dollars, $10.50 otherwise (the tip notice's words)."""
    dollars, _, cents = f"{float(amount):.2f}".partition(".")
    return f"${dollars}" if cents == "00" else f"${dollars}.{cents}"


NOTICES: dict[str, Notice] = {
    # A tip, all of it the helper's (payments.tips): only she is told.
    InApp.TIP_RECEIVED: Notice(
        lambda f: {"": f"{f['name']} added a {_money_words(f['amount'])} tip. Thank you for your visit."}
    ),
    InApp.LATE_FEE_DISPUTED: Notice(
        lambda f: {
            "": f"{f['by']} disputes the nobody-home late fee of ${f['amount']} of booking #{f['booking']}. "
            "Decide it in the admin's bookings."
        }
    ),
    InApp.LATE_FEE_DECIDED: Notice(_late_fee_decided),
    NoticeKind.REQUEST_ACCEPTED: Notice(_accepted, _accepted_email),
    InApp.ACCEPTED_BY_YOU: Notice(_accepted_by_you),
    NoticeKind.BOOKING_REASSIGNED: Notice(_reassigned, _reassigned_email),
    InApp.REASSIGNED_AWAY: Notice(
        lambda f: {"": f'Your booking for "{f["title"]}" was reassigned to another provider.'}
    ),
    # A re-check of the helper was not clear: the family hears a replacement is being found (never why:
    # REPLACEMENT_UPDATES), and staff see the visit flagged, with the reason.
    InApp.VISIT_NEEDS_HELPER: Notice(
        lambda f: {
            "": f'Needs a new helper: "{f["title"]}" on {f["when"]} (booking #{f["booking_id"]}). '
            f"{f['name']} is suspended: {f['reason']} It is being offered to other helpers now."
        }
    ),
    NoticeKind.REPLACEMENT_UPDATES: Notice(_replacement, _replacement_email),
    NoticeKind.REPLACEMENT_OFFERED: Notice(_replacement_offered, _replacement_offered_email),
    InApp.HELPER_LEFT: Notice(
        lambda f: {
            "": f'You cancelled your visit for "{f["title"]}" on {f["when"]}. The family has been told, and '
            "Kindly is finding another helper."
        }
    ),
    InApp.REMOVED_FROM_VISIT: Notice(
        lambda f: {
            "": f'Kindly support took you off the visit for "{f["title"]}" on {f["when"]}. Reason: {f["reason"]}'
        }
    ),
    InApp.REPLACEMENT_TAKEN: Notice(
        lambda f: {"": f'You took the visit for "{f["title"]}" on {f["when"]}. Thank you for stepping in.'}
    ),
    NoticeKind.BOOKING_CANCELLED: Notice(_cancelled, _cancelled_email),
    NoticeKind.PAYMENT_RECEIVED: Notice(_payment_received, _payment_received_email),
    NoticeKind.CARD_CHARGE_FAILED: Notice(_card_charge_failed, _card_charge_failed_email),
    NoticeKind.BOOKING_PAID: Notice(
        lambda f: {"": f'The client paid for "{f["title"]}". Your booking on {f["when"]} is confirmed.'},
        _booking_paid_email,
    ),
    # Money news goes to those who pay, never to the circle's plain members.
    InApp.PAID_AFTER_CANCEL: Notice(
        lambda f: {
            "": f'Your payment of ${f["total"]} for "{f["title"]}" arrived after the booking was cancelled, '
            "so it will be refunded in full."
        }
    ),
    InApp.PAYMENT_FAILED: Notice(_payment_failed),
    InApp.REFUNDED: Notice(
        lambda f: {"": f'Your payment of ${f["total"]} for "{f["title"]}" has been refunded in full.'}
    ),
    InApp.REFUNDED_ELSEWHERE: Notice(
        lambda f: {"": f'The payment of ${f["total"]} for "{f["title"]}" was refunded in full.'}
    ),
    InApp.REFUND_FAILED: Notice(_refund_failed),
    InApp.REVIEW_RECEIVED: Notice(lambda f: {"": f'You received a {f["rating"]}-star review for "{f["title"]}".'}),
    InApp.VISIT_COMPLETED: Notice(_visit_completed),
    NoticeKind.VISIT_UPDATES: Notice(_visit_updates, _visit_updates_email),
    InApp.CHECK_IN_REMINDER: Notice(_check_in_reminder),
    NoticeKind.VISIT_ALERTS: Notice(_visit_alerts, _visit_alerts_email),
    NoticeKind.VISIT_REMINDER: Notice(_visit_reminder, _visit_reminder_email),
    InApp.EARNING_WAITING: Notice(
        lambda f: {
            "": f"You earned ${f['net']} for this visit. It is waiting for you: set up payouts from your "
            "dashboard and it will be sent to your bank account."
        }
    ),
}
