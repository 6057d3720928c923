"""The notices of a booking: its accept, payment, cancel, new helper, the visit and its money.

Every sentence is marked for translation (gettext, named placeholders) and is written when the
notice is read, in the reader's language (core.notifications.notify, notifications.channels)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

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
    n = {"name": name, "title": title, "when": when, "series": series, "left_out": left_out, "total": f.get("total")}
    if series:
        # Organizers pay, so they are asked to; plain members hear who will visit. A series accepted
        # without the dates the helper cannot make names them to everyone.
        not_booked = (
            " " + _("%(name)s cannot come on %(left_out)s, so those dates are not booked.") % n if left_out else ""
        )
        return {
            "": _(
                'Good news: %(name)s accepted the request "%(title)s". '
                "The visits are booked %(series)s, starting %(when)s."
            )
            % n
            + not_booked,
            ORGANIZERS: _(
                'Good news: %(name)s accepted your request "%(title)s". The visits are booked %(series)s, '
                "starting %(when)s. Each visit: $%(total)s, paid per visit."
            )
            % n
            + not_booked,
        }
    return {
        "": _('Good news: %(name)s accepted the request "%(title)s". The visit is booked for %(when)s.') % n,
        ORGANIZERS: _(
            'Good news: %(name)s accepted your request "%(title)s". The visit is booked for %(when)s. '
            "Total: $%(total)s, to pay to confirm it."
        )
        % n,
    }


def _accepted_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    provider = first(b.provider.user, _("A verified provider"))
    n = {"provider": provider, "whose": r.whose, "title": r.title, "when": r.when}
    if not r.pays:
        # A plain member did not ask and cannot pay: she hears who will visit, nothing to do.
        return Content(
            subject=_("%(provider)s will visit %(whose)s") % n,
            heading=_("%(provider)s accepted the request %(title)s.") % n,
            lines=[_("Visit: %(when)s.") % n, _("An organizer of the care circle pays to confirm the booking.")],
            action_label=_("See the booking"),
            action_path="/dashboard",
            why=r.circle_why,
        )
    posted_it = b.service_request.client_id == r.recipient.pk
    return Content(
        subject=(_("%(provider)s accepted your request") if posted_it else _("%(provider)s accepted the request")) % n,
        heading=(
            _("Good news: %(provider)s accepted your request %(title)s.")
            if posted_it
            else _("Good news: %(provider)s accepted the request %(title)s.")
        )
        % n,
        lines=[
            _("Visit: %(when)s.") % n,
            _("Total: $%(total)s.") % {"total": b.total_amount},
            # A series accepted without the dates the helper cannot make: the family is told which.
            *(
                [_("Not booked (%(provider)s cannot come): %(left_out)s.") % {**n, "left_out": r.ctx["left_out"]}]
                if r.ctx.get("left_out")
                else []
            ),
            _("Pay now to confirm the booking."),
        ],
        action_label=_("Pay now"),
        action_path=f"/checkout/{b.pk}",
        why=_("you asked Kindly for help with this request")
        if posted_it
        else _("you organize the care circle of %(name)s") % {"name": b.recipient.full_name},
    )


def _accepted_by_you(f: Facts) -> Texts:
    """To the helper who accepted; facts as REQUEST_ACCEPTED's."""
    title, when, series, left_out = f["title"], f["when"], f.get("series"), f.get("left_out")
    n = {"title": title, "when": when, "series": series, "left_out": left_out}
    if series:
        return {
            "": _('You accepted "%(title)s" %(series)s, starting %(when)s.') % n
            + " "
            + (_("Not booked (you are unavailable): %(left_out)s.") % n + " " if left_out else "")
            + _("You can now contact the client.")
        }
    return {"": _('You accepted "%(title)s" for %(when)s.') % n + " " + _("You can now contact the client.")}


# ---------------------------------------------------------------- a new helper


def _reassigned(f: Facts) -> Texts:
    """facts: title, when, new_name (the new helper's full name)."""
    return {
        "": _('The booking for "%(title)s" on %(when)s has a new provider: %(new_name)s.') % f,
        HELPER: _('You have been assigned the booking for "%(title)s" on %(when)s.') % f,
    }


def _reassigned_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    n = {"whose": r.whose, "title": r.title, "when": r.when}
    if not r.is_helper:
        helper = first(b.provider.user, _("A verified provider"))
        return Content(
            subject=_("Your booking has a new provider"),
            heading=_("%(helper)s will now visit %(whose)s for %(title)s.") % {**n, "helper": helper},
            lines=[_("Visit: %(when)s.") % n, _("Nothing else changes: the time and the price stay the same.")],
            action_label=_("See your booking"),
            action_path="/dashboard",
            why=r.circle_why,
        )
    return Content(
        subject=_("You have a new booking"),
        heading=_("You have been assigned the booking %(title)s.") % n,
        lines=[_("Visit: %(when)s.") % n],
        action_label=_("See your schedule"),
        action_path="/dashboard",
        why=_("Kindly support assigned this booking to you"),
    )


# ---------------------------------------------------------------- a replacement


def _replacement(f: Facts) -> Texts:
    """facts: stage ("seeking": the helper cannot come and others are asked; "found": name (the new
    helper's first name) and arrival ("2:00 PM"); "unfilled": nobody yet, the refund is offered to
    those who pay), title, when."""
    n = {**f, "title": f["title"], "when": f["when"]}
    stage = f["stage"]
    if stage == "found":
        return {"": _('Replacement confirmed: %(name)s will arrive at %(arrival)s for "%(title)s" on %(when)s.') % n}
    if stage == "unfilled":
        said = _('We have not yet found a new helper for "%(title)s" on %(when)s. We are still asking.') % n
        return {
            "": said,
            ORGANIZERS: said
            + " "
            + _("You can keep waiting, or cancel the visit with a full refund: open your dashboard."),
        }
    return {
        "": _(
            'Your helper cannot come for "%(title)s" on %(when)s. Kindly is finding a replacement now and will '
            "tell you who is coming. You do not need to do anything."
        )
        % n
    }


def _replacement_email(r: Reader) -> Content | None:
    b, stage = r.booking, r.ctx.get("stage")
    if b is None:
        return None
    visit = _("Visit: %(when)s.") % {"when": r.when}
    if stage == "found":
        n = {
            "name": r.ctx.get("name") or _("a new helper"),
            "arrival": r.ctx.get("arrival") or _("the time you were told"),
        }
        return Content(
            subject=_("Replacement confirmed: %(name)s is coming") % n,
            heading=_("Replacement confirmed: %(name)s will arrive at %(arrival)s.") % n,
            lines=[visit, _("Nothing else changes: the time, the tasks and the price stay the same.")],
            action_label=_("See the booking"),
            action_path="/dashboard",
            why=r.circle_why,
        )
    if stage == "unfilled":
        lines = [visit, _("We are still asking helpers near you.")]
        if r.pays:
            lines.append(_("You can keep waiting, or cancel the visit with a full refund from your dashboard."))
        return Content(
            subject=_("We are still finding a helper"),
            heading=_("We have not yet found a new helper for %(title)s.") % {"title": r.title},
            lines=lines,
            action_label=_("Open your dashboard"),
            action_path="/dashboard",
            why=r.circle_why,
        )
    return Content(
        subject=_("Finding a replacement"),
        heading=_("Your helper cannot come for %(title)s. Kindly is finding a replacement.") % {"title": r.title},
        lines=[visit, _("We will tell you who is coming. You do not need to do anything.")],
        action_label=_("See the booking"),
        action_path="/dashboard",
        why=r.circle_why,
    )


def _replacement_offered(f: Facts) -> Texts:
    """facts: title, when, town, miles ("3.2 miles away"; "" unknown), answer_by (in words)."""
    n = {**f, "away": f" ({f['miles']})" if f.get("miles") else ""}
    return {
        "": _(
            'A visit near you needs a new helper: "%(title)s", %(when)s in %(town)s%(away)s. '
            "Open your dashboard to take it."
        )
        % n
    }


def _replacement_offered_email(r: Reader) -> Content:
    ctx = r.ctx
    n = {
        "title": ctx.get("title", ""),
        "when": ctx.get("when", ""),
        "town": ctx.get("town") or _("your area"),
        "away": f", {ctx['miles']}" if ctx.get("miles") else "",
        "answer_by": ctx.get("answer_by") or _("soon"),
    }
    return Content(
        subject=_("A visit near you needs a new helper"),
        heading=f"\u201c{n['title']}\u201d, {n['when']}.",
        lines=[
            _("It is in %(town)s%(away)s, and you are free then.") % n,
            _(
                "The family's helper cannot come. The first helper to take it makes the visit"
                " (please answer by %(answer_by)s)."
            )
            % n,
        ],
        action_label=_("See the visit"),
        action_path="/dashboard",
        why=_("you offer this service near this family on Kindly"),
    )


# ---------------------------------------------------------------- cancel


def _cancelled(f: Facts) -> Texts:
    """facts: how ("client", "series_rest", "support", "account_closed"), title, when, reason; by
    (who cancelled, for the email), by_helper (the same, as the helper knows them), actor (the
    user id of who did it: told in their own words), refund (the amount, "" when nothing was
    paid); visits and span for the rest of a series ("3 visits", "Tuesday, December 8 to ...");
    party ("client", "provider") and refund_note for an account closure."""
    title, when, reason, how = f["title"], f.get("when", ""), f.get("reason", ""), f["how"]
    n = {**f, "title": title, "when": when, "reason": reason}
    because = " " + _("Reason: %(reason)s") % n if reason else ""
    if how == "client":
        return {
            "": _('The booking for "%(title)s" was cancelled by %(by)s.') % n,
            f"user:{f['actor']}": _('Your booking for "%(title)s" was cancelled.') % n,
            HELPER: _('The client cancelled the booking for "%(title)s" on %(when)s.') % n + because,
        }
    if how == "series_rest":
        # "3 visits" from the count (a notice kept before its count was: the sender's words).
        count = f.get("count")
        visits = ngettext("%(count)s visit", "%(count)s visits", count) % {"count": count} if count else f["visits"]
        n["done"] = f"{visits} ({f['span']})"
        return {
            "": _('The rest of the series "%(title)s" was cancelled by %(by)s: %(done)s.') % n,
            f"user:{f['actor']}": _('You cancelled the rest of the series "%(title)s": %(done)s.') % n,
            HELPER: _('The client cancelled the rest of the series "%(title)s": %(done)s.') % n + because,
        }
    if how == "support":
        said = _('The booking for "%(title)s" on %(when)s was cancelled by Kindly support. Reason: %(reason)s') % n
        if not f.get("late_fee"):
            return {"": said}
        fee = " " + _("The late-cancellation fee of $%(late_fee)s goes to the helper (our cancellation policy).") % n
        return {
            "": said,
            ORGANIZERS: said + fee,
            HELPER: said + " " + _("You will be paid the late fee of $%(late_fee)s.") % n,
        }
    if how == "nobody_home":
        found = (
            _('Your helper arrived for "%(title)s" on %(when)s and found nobody home, so the visit was cancelled.') % n
        )
        fee = " " + (
            _(
                "Under our cancellation policy the helper is paid the late fee of $%(late_fee)s; the rest of"
                " the payment comes back to the card. If someone was home, you can dispute the fee: follow the link"
                " in our email, or contact support."
            )
            % n
        )
        return {
            "": found,
            ORGANIZERS: found + (fee if f.get("late_fee") else ""),
            HELPER: (
                _(
                    'You reported nobody home for "%(title)s" on %(when)s. The visit is cancelled and you will be '
                    "paid the late fee of $%(late_fee)s."
                )
                if f.get("late_fee")
                else _('You reported nobody home for "%(title)s" on %(when)s. The visit is cancelled.')
            )
            % n,
        }
    gone = (
        _('The booking for "%(title)s" on %(when)s was cancelled because the client closed their Kindly account.')
        if f["party"] == "client"
        else _(
            'The booking for "%(title)s" on %(when)s was cancelled because the provider closed their Kindly account.'
        )
    ) % n
    refund_note = " " + _("Any payment will be refunded in full. You are welcome to post a new request.")
    return {"": gone, ORGANIZERS: gone + ("" if f["party"] == "client" else refund_note)}


def _cancelled_email(r: Reader) -> Content | None:
    b, ctx = r.booking, r.ctx
    if b is None:
        return None
    by = ctx.get("by", "Kindly")
    if ctx.get("actor") == r.recipient.pk:
        by = _("you")
    elif r.is_helper:  # the helper knows the family as "the client"
        by = ctx.get("by_helper") or by
    n = {"when": r.when, "by": by, "title": r.title, "late_fee": ctx.get("late_fee"), "refund": ctx.get("refund")}
    lines = [_("Visit that was planned: %(when)s.") % n, _("Cancelled by: %(by)s.") % n]
    if b.cancellation_reason:
        lines.append(_("Reason: %(reason)s") % {"reason": b.cancellation_reason})
    if r.pays and ctx.get("late_fee"):  # money news: to those who pay only
        lines.append(_("Late-cancellation fee, paid to the helper: $%(late_fee)s (our cancellation policy).") % n)
        if ctx.get("refund"):
            lines.append(_("Refund: $%(refund)s, the rest of the payment, to the card it was paid with.") % n)
    elif r.pays and ctx.get("refund"):
        lines.append(_("Refund: $%(refund)s, in full, to the card it was paid with.") % n)
    nobody_home = ctx.get("how") == "nobody_home" and ctx.get("late_fee") and r.pays
    return Content(
        subject=_("A booking was cancelled"),
        heading=(
            _("The booking for %(title)s was cancelled.")
            if r.is_helper
            else _("Your booking for %(title)s was cancelled.")
        )
        % n,
        lines=lines,
        action_label=_("See or dispute the late fee") if nobody_home else _("Open your dashboard"),
        action_path=f"/late-fees/{b.pk}" if nobody_home else "/dashboard",
        why=_("you are the provider of this booking") if r.is_helper else r.circle_why,
    )


# ---------------------------------------------------------------- payment and refund


def _payment_received(f: Facts) -> Texts:
    """facts: total, title, when; payer_name (who paid, "" when not known), last4 (the card's)."""
    n = {"total": f["total"], "title": f["title"], "when": f["when"], "payer": f.get("payer_name")}
    # The payer is thanked (with the card, when the gateway said which); the other organizers read
    # who paid; plain members get no money news (they see the booking confirmed).
    return {
        "": _('%(payer)s paid $%(total)s for "%(title)s". The booking on %(when)s is confirmed.') % n
        if n["payer"]
        else _('Payment of $%(total)s received for "%(title)s". The booking on %(when)s is confirmed.') % n,
        PAYER: _(
            'Thank you: your payment of $%(total)s for "%(title)s" was received. The booking on %(when)s is confirmed.'
        )
        % n,
    }


# The email carries the visit's receipt (notifications.attachments, payments.receipts).
def receipt_attached() -> str:
    return _("The receipt is attached as a PDF, for your records, your insurer or your taxes.")


def _payment_received_email(r: Reader) -> Content | None:
    b, ctx = r.booking, r.ctx
    if b is None:
        return None
    payer = ctx.get("payer_name", "")
    n = {"payer": payer, "title": r.title, "when": r.when, "total": b.total_amount}
    if r.role == ORGANIZERS and payer:
        # Another organizer paid: she is told who, never thanked for a payment she did not make.
        return Content(
            subject=_("%(payer)s paid for %(title)s") % n,
            heading=_("%(payer)s paid $%(total)s for %(title)s.") % n,
            lines=[
                _("Booking: %(title)s with %(provider)s.")
                % {**n, "provider": first(b.provider.user, _("the provider"))},
                _("Visit: %(when)s. The booking is confirmed.") % n,
                receipt_attached(),
            ],
            action_label=_("See the booking"),
            action_path="/dashboard",
            why=_("you organize the care circle of %(name)s") % {"name": b.recipient.full_name},
        )
    amount = (
        _("Amount: $%(total)s with the card ending in %(last4)s.") % {**n, "last4": ctx["last4"]}
        if ctx.get("last4")
        else _("Amount: $%(total)s.") % n
    )
    return Content(
        subject=_("Your payment was received"),
        heading=_("Thank you: your payment was received."),
        lines=[
            amount,
            _("Booking: %(title)s with %(provider)s.") % {**n, "provider": first(b.provider.user, _("your provider"))},
            _("Visit: %(when)s. Your booking is confirmed.") % n,
            receipt_attached(),
        ],
        action_label=_("See your booking"),
        action_path="/dashboard",
        why=_("you paid for a booking on Kindly"),
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
        subject=_("A booking is confirmed"),
        heading=_("%(client)s paid for %(title)s.") % {"client": first(b.client, _("The client")), "title": r.title},
        lines=[_("Visit: %(when)s.") % {"when": r.when}, _("The booking is confirmed.")],
        action_label=_("See your schedule"),
        action_path="/dashboard",
        why=_("you are the provider of this booking"),
    )


def _payment_failed(f: Facts) -> Texts:
    """facts: title; message (the gateway's words, "" when none)."""
    if f.get("message"):
        return {
            "": _(
                'Your payment for "%(title)s" did not go through: %(message)s You can try again from the payment page.'
            )
            % f
        }
    return {"": _('Your payment for "%(title)s" did not go through. You can try again from the payment page.') % f}


def _refund_failed(f: Facts) -> Texts:
    return {
        "": _(
            'We could not refund your payment of $%(total)s for "%(title)s" right away. Kindly support has '
            "been told and will make sure it is refunded in full; you do not need to do anything."
        )
        % f
    }


# ---------------------------------------------------------------- the visit


def _visit_completed(f: Facts) -> Texts:
    """facts: title. Organizers review a visit; a plain member is not asked to do what she cannot."""
    done = _('Your booking for "%(title)s" was marked completed.') % f
    return {"": done, ORGANIZERS: done + " " + _("Thank you for using Kindly! You can now leave a review.")}


def _visit_updates(f: Facts) -> Texts:
    """facts: event ("checked_in": name, time; "report": name, wellbeing, timeline: the visit in
    one line, "Vera arrived 1:58 PM (at Margaret's home) · 3 of 4 tasks done · left 3:02 PM"), title."""
    if f["event"] == "checked_in":
        return {"": _('%(name)s checked in at %(time)s for "%(title)s".') % f}
    timeline = f" {f['timeline']}." if f.get("timeline") else ""
    return {
        "": _('Visit report ready: %(name)s wrote how the visit for "%(title)s" went. They seemed: %(wellbeing)s.') % f
        + timeline
    }


def _visit_updates_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    n = {"provider": first(b.provider.user, _("Your provider")), "title": r.title}
    if r.ctx.get("event") == "checked_in":
        return Content(
            subject=_("%(provider)s has arrived") % n,
            heading=_("%(provider)s checked in for %(title)s.") % n,
            lines=[r.text],
            action_label=_("See the visit"),
            action_path="/dashboard",
            why=r.circle_why,
        )
    return Content(
        subject=_("Visit report ready"),
        heading=_("%(provider)s wrote how the visit for %(title)s went.") % n,
        lines=[r.text, _("Read the whole report on the booking.")],
        action_label=_("Read the report"),
        action_path="/dashboard",
        why=r.circle_why,
    )


def _check_in_reminder(f: Facts) -> Texts:
    """To the helper first, while she can still keep the window the family was told. facts: title,
    by (the latest check-in time), window ("Morning (8AM - 12PM)")."""
    return {
        "": _(
            'Reminder: please check in for "%(title)s" by %(by)s, so the visit fits the window the '
            "family was told (%(window)s). If you cannot make it, message the family from the booking now."
        )
        % f
    }


def _visit_alerts(f: Facts) -> Texts:
    """facts: alert ("late", "no_check_out"), provider (her full name), title, window; by (the
    latest check-in time) when late; checked_in and due (when it should have ended) for the rest."""
    if f["alert"] == "late":
        return {
            "": _(
                '%(provider)s has not checked in for "%(title)s" (%(window)s), and the visit no longer fits that '
                "window without a check-in by %(by)s. We are looking into it; you can message them from the booking."
            )
            % f
        }
    if not f["checked_in"]:
        return {
            "": _(
                '%(provider)s never checked in for "%(title)s", and its window (%(window)s) is over: the visit looks '
                "missed. We are looking into it."
            )
            % f
        }
    return {
        "": _(
            '%(provider)s checked in for "%(title)s" but has not checked out, 2 hours after the visit should have '
            "ended (%(due)s). We are looking into it."
        )
        % f
    }


def _visit_alerts_email(r: Reader) -> Content | None:
    if r.booking is None:
        return None
    return Content(
        subject=_("A visit may be late or missed"),
        heading=_("About the visit for %(title)s.") % {"title": r.title},
        lines=[r.text, _("Planned: %(when)s.") % {"when": r.when}],
        action_label=_("See the visit"),
        action_path="/dashboard",
        why=_("you are a Kindly admin") if r.role == Audience.STAFF else r.circle_why,
    )


def _visit_reminder(f: Facts) -> Texts:
    """facts: title, when (the visit's time on the clock of the person cared for)."""
    return {
        "": _('Reminder: the visit for "%(title)s" is tomorrow, %(when)s.') % f,
        HELPER: _('Reminder: your visit for "%(title)s" is tomorrow, %(when)s.') % f,
    }


def _visit_reminder_email(r: Reader) -> Content | None:
    b = r.booking
    if b is None:
        return None
    n = {"title": r.title, "when": r.when}
    if r.is_helper:
        other = b.recipient.first_name or first(b.client, _("your client"))
        return Content(
            subject=_("Reminder: your visit is tomorrow"),
            heading=_("Your visit for %(title)s is tomorrow.") % n,
            lines=[_("When: %(when)s.") % n, _("With: %(other)s.") % {"other": other}],
            action_label=_("See the booking"),
            action_path="/dashboard",
            why=_("you are the provider of this visit"),
        )
    theirs = b.recipient is not None and b.recipient.account_id != r.recipient.pk
    return Content(
        subject=_("Reminder: a visit is tomorrow") if theirs else _("Reminder: your visit is tomorrow"),
        heading=(_("The visit for %(title)s is tomorrow.") if theirs else _("Your visit for %(title)s is tomorrow."))
        % n,
        lines=[
            _("When: %(when)s.") % n,
            _("Helper: %(helper)s.") % {"helper": first(b.provider.user, _("your provider"))},
        ]
        + ([_("For: %(name)s.") % {"name": b.recipient.full_name}] if theirs else []),
        action_label=_("See the booking"),
        action_path="/dashboard",
        why=r.circle_why,
    )


def _late_fee_decided(f: Facts) -> Texts:
    """facts: amount, title, reason (staff's), paid (the fee stands)."""
    if f["paid"]:
        return {
            "": _(
                'Kindly support looked into the disputed late fee of $%(amount)s for "%(title)s": it stands and '
                "is paid to the helper. Reason: %(reason)s"
            )
            % f,
            HELPER: _(
                'Kindly support looked into the disputed late fee of $%(amount)s for "%(title)s": you will be paid it.'
            )
            % f,
        }
    return {
        "": _(
            'Kindly support looked into the disputed late fee of $%(amount)s for "%(title)s": it is waived and '
            "comes back to the card. Reason: %(reason)s"
        )
        % f,
        HELPER: _(
            'Kindly support waived the late fee of $%(amount)s for "%(title)s" after the family disputed it. '
            "Reason: %(reason)s"
        )
        % f,
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
            "": _(
                "%(by)s disputes the nobody-home late fee of $%(amount)s of booking #%(booking)s. "
                "Decide it in the admin's bookings."
            )
            % f
        }
    ),
    InApp.LATE_FEE_DECIDED: Notice(_late_fee_decided),
    NoticeKind.REQUEST_ACCEPTED: Notice(_accepted, _accepted_email),
    InApp.ACCEPTED_BY_YOU: Notice(_accepted_by_you),
    NoticeKind.BOOKING_REASSIGNED: Notice(_reassigned, _reassigned_email),
    InApp.REASSIGNED_AWAY: Notice(
        lambda f: {"": _('Your booking for "%(title)s" was reassigned to another provider.') % f}
    ),
    # A re-check of the helper was not clear: the family hears a replacement is being found (never why:
    # REPLACEMENT_UPDATES), and staff see the visit flagged, with the reason.
    InApp.VISIT_NEEDS_HELPER: Notice(
        lambda f: {
            "": _(
                'Needs a new helper: "%(title)s" on %(when)s (booking #%(booking_id)s). '
                "%(name)s is suspended: %(reason)s It is being offered to other helpers now."
            )
            % f
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
        lambda f: {"": _('The client paid for "%(title)s". Your booking on %(when)s is confirmed.') % f},
        _booking_paid_email,
    ),
    # Money news goes to those who pay, never to the circle's plain members.
    InApp.PAID_AFTER_CANCEL: Notice(
        lambda f: {
            "": _(
                'Your payment of $%(total)s for "%(title)s" arrived after the booking was cancelled, '
                "so it will be refunded in full."
            )
            % f
        }
    ),
    InApp.PAYMENT_FAILED: Notice(_payment_failed),
    InApp.REFUNDED: Notice(
        lambda f: {"": _('Your payment of $%(total)s for "%(title)s" has been refunded in full.') % f}
    ),
    InApp.REFUNDED_ELSEWHERE: Notice(
        lambda f: {"": _('The payment of $%(total)s for "%(title)s" was refunded in full.') % f}
    ),
    InApp.REFUND_FAILED: Notice(_refund_failed),
    InApp.REVIEW_RECEIVED: Notice(lambda f: {"": _('You received a %(rating)s-star review for "%(title)s".') % f}),
    InApp.VISIT_COMPLETED: Notice(_visit_completed),
    NoticeKind.VISIT_UPDATES: Notice(_visit_updates, _visit_updates_email),
    InApp.CHECK_IN_REMINDER: Notice(_check_in_reminder),
    NoticeKind.VISIT_ALERTS: Notice(_visit_alerts, _visit_alerts_email),
    NoticeKind.VISIT_REMINDER: Notice(_visit_reminder, _visit_reminder_email),
    InApp.EARNING_WAITING: Notice(
        lambda f: {
            "": _(
                "You earned $%(net)s for this visit. It is waiting for you: set up payouts from your "
                "dashboard and it will be sent to your bank account."
            )
            % f
        }
    ),
}
