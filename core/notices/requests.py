"""The notices of a request before a helper takes it: it expired, it was sent to one helper, who
declined it or did not answer, and the new requests a helper may take.

Every sentence is marked for translation and written in the reader's language when it is read."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.notices.base import Content, Facts, Notice, Reader, Texts
from core.notices.kinds import Audience, NoticeKind

ORGANIZERS = Audience.ORGANIZERS


def _theirs(r: Reader) -> bool:
    """The reader posted the request ("your request"), or is another of the circle ("the request")."""
    return r.yours == _("your request")


def _expired(f: Facts) -> Texts:
    """facts: title, day ("March 3, 2026", the preferred date that passed), client_id."""
    # Organizers, who post requests, are asked to post it again; members just hear it ended.
    return {
        "": _(
            'The request "%(title)s" was cancelled because its preferred date (%(day)s) has passed without a '
            "provider accepting it."
        )
        % f,
        ORGANIZERS: _(
            'Your request "%(title)s" was cancelled because its preferred date (%(day)s) has passed without a '
            "provider accepting it. You are welcome to post it again with a new date."
        )
        % f,
    }


def _expired_email(r: Reader) -> Content:
    n = {"title": r.ctx.get("title", "")}
    if r.role == Audience.CIRCLE:  # a plain member cannot post it again: news only
        return Content(
            subject=_("A request ended without a provider"),
            heading=_("The request “%(title)s” has ended.") % n,
            lines=[_("Its preferred date has passed and no provider accepted it.")],
            action_label=_("Open your dashboard"),
            action_path="/dashboard",
            why=r.request_why,
        )
    mine = _theirs(r)
    return Content(
        subject=_("Your request ended without a provider") if mine else _("The request ended without a provider"),
        heading=(_("Your request “%(title)s” has ended.") if mine else _("The request “%(title)s” has ended.")) % n,
        lines=[
            _("Its preferred date has passed and no provider accepted it."),
            _("You are welcome to post it again with a new date."),
        ],
        action_label=_("Post a new request"),
        action_path="/request-service",
        why=r.request_why,
    )


def _direct(f: Facts) -> Texts:
    """facts: client (her first name), title, until (when the others may offer, in words), only
    (offered to this helper alone), request_id."""
    asked = _('%(client)s asked for you directly: "%(title)s".') % f
    if f["only"]:
        return {"": asked + " " + _("It is offered to you only.")}
    return {
        "": asked
        + " "
        + _("Only you can accept it until %(until)s; after that other helpers can offer too.") % {"until": f["until"]}
    }


def _direct_email(r: Reader) -> Content:
    ctx = r.ctx
    n = {
        "client": ctx.get("client", _("A client")),
        "title": ctx.get("title", ""),
        "until": ctx.get("until", _("tomorrow")),
    }
    return Content(
        subject=_("%(client)s asked for you directly") % n,
        heading=_("%(client)s asked you for “%(title)s”.") % n,
        lines=[
            _("It is offered to you only.")
            if ctx.get("only")
            else _("Only you can accept it until %(until)s; after that other helpers can offer too.") % n,
            _("If you cannot go, please decline and say why, so they can find another helper."),
        ],
        action_label=_("See the request"),
        action_path=f"/service-request-details?id={ctx.get('request_id', '')}",
        why=_("a client chose you for this request on Kindly"),
    )


def _declined(f: Facts) -> Texts:
    """facts: provider (her first name), title, reason, cancelled (the request asked for only her),
    client_id. Organizers manage the circle's requests: theirs in their words."""
    n = {"name": f["provider"], "title": f["title"], "reason": f["reason"]}
    open_now = _("It is now open to all helpers.")
    outcome = _("The request was cancelled, as it asked for only them.") if f["cancelled"] else open_now
    return {
        "": _('%(name)s declined the request "%(title)s": %(reason)s') % n + " " + outcome,
        ORGANIZERS: _('%(name)s declined your request "%(title)s": %(reason)s') % n
        + " "
        + (_("Your request was cancelled, as you asked for only them.") if f["cancelled"] else open_now),
    }


def _declined_email(r: Reader) -> Content:
    ctx, mine = r.ctx, _theirs(r)
    n = {"provider": ctx.get("provider", _("The helper")), "title": ctx.get("title", "")}
    lines = [_("Their reason: %(reason)s") % {"reason": ctx.get("reason", "")}]
    if ctx.get("cancelled"):
        lines.append(
            _("Your request was cancelled, as it asked for only them.")
            if mine
            else _("The request was cancelled, as it asked for only them.")
        )
    else:
        lines.append(
            _("Your request is now open to all helpers.") if mine else _("The request is now open to all helpers.")
        )
    return Content(
        subject=(_("%(provider)s cannot take your request") if mine else _("%(provider)s cannot take the request")) % n,
        heading=(
            _("%(provider)s declined your request “%(title)s”.")
            if mine
            else _("%(provider)s declined the request “%(title)s”.")
        )
        % n,
        lines=lines,
        action_label=_("Open your dashboard"),
        action_path="/dashboard",
        why=r.request_why,
    )


def _opened(f: Facts) -> Texts:
    """facts: provider (her first name), title, client_id."""
    return {
        "": _('%(provider)s has not answered in 24 hours; the request "%(title)s" is now open to all helpers.') % f,
        ORGANIZERS: _('%(provider)s has not answered in 24 hours; your request "%(title)s" is now open to all helpers.')
        % f,
    }


def _opened_email(r: Reader) -> Content:
    ctx, mine = r.ctx, _theirs(r)
    n = {"provider": ctx.get("provider", _("The helper")), "title": ctx.get("title", "")}
    return Content(
        subject=_("Your request is now open to all helpers") if mine else _("The request is now open to all helpers"),
        heading=_("%(provider)s has not answered in 24 hours.") % n,
        lines=[
            (
                _("Your request “%(title)s” is now open to all helpers.")
                if mine
                else _("The request “%(title)s” is now open to all helpers.")
            )
            % n
        ],
        action_label=_("Open your dashboard"),
        action_path="/dashboard",
        why=r.request_why,
    )


def _new_requests_email(r: Reader) -> Content:
    items = list(r.ctx.get("requests", []))
    count = len(items)
    return Content(
        subject=ngettext("A new request matches your services", "New requests match your services", count),
        heading=ngettext(
            "%(count)d new request matches the services you offer.",
            "%(count)d new requests match the services you offer.",
            count,
        )
        % {"count": count},
        lines=[],
        items=items,
        action_label=_("See open requests"),
        action_path="/dashboard",
        why=_("you offer these services on Kindly"),
    )


def _offered(f: Facts) -> Texts:
    """facts: title, when ("Tuesday, March 3, morning"), town, miles ("3.2 miles away"; "" when
    unknown), request_id, answer_by (until when only the helpers offered it may accept, in words)."""
    if f.get("miles"):
        return {"": _('A request near you: "%(title)s", %(when)s in %(town)s (%(miles)s). Open it to accept.') % f}
    return {"": _('A request near you: "%(title)s", %(when)s in %(town)s. Open it to accept.') % f}


def _offered_email(r: Reader) -> Content:
    ctx = r.ctx
    n = {
        "title": ctx.get("title", ""),
        "when": ctx.get("when", ""),
        "town": ctx.get("town", _("your area")),
        "miles": ctx.get("miles", ""),
        "answer_by": ctx.get("answer_by", _("soon")),
    }
    return Content(
        subject=_("A request near you was offered to you"),
        heading=_("“%(title)s”, %(when)s.") % n,
        lines=[
            (
                _("It is in %(town)s, %(miles)s, and you are free then.")
                if ctx.get("miles")
                else _("It is in %(town)s, and you are free then.")
            )
            % n,
            _(
                "It was offered to a few helpers near the family. Please answer by %(answer_by)s:"
                " after that it goes to other helpers."
            )
            % n,
        ],
        action_label=_("See the request"),
        action_path=f"/service-request-details?id={ctx.get('request_id', '')}",
        why=_("you offer this service near this family on Kindly"),
    )


def _matching(f: Facts) -> Texts:
    """facts: title, town, reason ("no_replacement": a booking whose helper left has nobody yet, with
    booking_id and when; "unanswered": the helpers offered it did not accept in time,
    round: the round just widened to; "no_helpers": nobody near can take it, it is open to every
    helper of the service; "not_placed": its address could not be placed, offered by town)."""
    n = {"title": f["title"], "town": f["town"] or _("an unknown town"), "round": f.get("round", 2)}
    reason = f.get("reason")
    if reason == "not_placed":
        return {
            "": _(
                '"%(title)s" in %(town)s could not be placed on the map: it is offered by town to every helper '
                "of the service."
            )
            % n
        }
    if reason == "no_replacement":
        return {
            "": _(
                'Booking #%(booking_id)s, "%(title)s" on %(when)s in %(town)s: its helper left and nobody has '
                "taken it yet. The family was offered a refund; please find a helper (reassign) or contact the "
                "family."
            )
            % {**n, "booking_id": f["booking_id"], "when": f["when"]}
        }
    if reason == "no_helpers":
        return {
            "": _(
                '"%(title)s" in %(town)s: no helper near enough is free; it is now open to every helper of the service.'
            )
            % n
        }
    return {
        "": _('"%(title)s" in %(town)s: nobody has accepted it yet; it was offered to more helpers (round %(round)s).')
        % n
    }


def _matching_email(r: Reader) -> Content:
    return Content(
        subject=_("A request needs a helper"),
        heading=r.text,
        lines=[_("Please look for a helper who can take it, or contact the family.")],
        action_label=_("Open the admin"),
        action_path="/admin",
        why=_("you are Kindly staff"),
    )


def _new_requests(f: Facts) -> Texts:
    """By email and text only (a summary): facts: requests (one line each: "Tea, Tuesday, March 3")."""
    count = len(f["requests"])
    return {"": _("%(count)d new request(s) match the services you offer.") % {"count": count}}


NOTICES: dict[str, Notice] = {
    NoticeKind.REQUEST_OFFERED: Notice(_offered, _offered_email),
    NoticeKind.MATCHING_ALERTS: Notice(_matching, _matching_email),
    NoticeKind.REQUEST_EXPIRED: Notice(_expired, _expired_email),
    NoticeKind.DIRECT_REQUEST: Notice(_direct, _direct_email),
    NoticeKind.DIRECT_REQUEST_DECLINED: Notice(_declined, _declined_email),
    NoticeKind.DIRECT_REQUEST_OPENED: Notice(_opened, _opened_email),
    NoticeKind.NEW_REQUESTS: Notice(_new_requests, _new_requests_email),
}
