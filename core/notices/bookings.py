"""The notices of a booking: its accept, a new helper, a replacement, its cancel; and the
in-app-only notices of a booking (InApp). Its money is told in core.notices.payments, its visit
in core.notices.visits.

Every sentence is marked for translation (gettext, named placeholders) and is written when the
notice is read, in the reader's language (core.notifications.notify, notifications.channels)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.notices.base import Content, Facts, Notice, Reader, Texts, first
from core.notices.kinds import Audience, NoticeKind

ORGANIZERS, HELPER = Audience.ORGANIZERS, Audience.HELPER


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


NOTICES: dict[str, Notice] = {
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
}
