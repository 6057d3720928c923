"""The notices of a request before a helper takes it: it expired, it was sent to one helper, who
declined it or did not answer, and the new requests a helper may take."""

from __future__ import annotations

from core.notices.base import Content, Facts, Notice, Reader, Texts, plural
from core.notices.kinds import Audience, NoticeKind

ORGANIZERS = Audience.ORGANIZERS


def _expired(f: Facts) -> Texts:
    """facts: title, day ("March 3, 2026", the preferred date that passed), client_id."""
    ended = (
        f'"{f["title"]}" was cancelled because its preferred date ({f["day"]}) has passed without a provider '
        "accepting it."
    )
    # Organizers, who post requests, are asked to post it again; members just hear it ended.
    return {
        "": f"The request {ended}",
        ORGANIZERS: f"Your request {ended} You are welcome to post it again with a new date.",
    }


def _expired_email(r: Reader) -> Content:
    title = r.ctx.get("title", "")
    if r.role == Audience.CIRCLE:  # a plain member cannot post it again: news only
        return Content(
            subject="A request ended without a provider",
            heading=f"The request \u201c{title}\u201d has ended.",
            lines=["Its preferred date has passed and no provider accepted it."],
            action_label="Open your dashboard",
            action_path="/dashboard",
            why=r.request_why,
        )
    yours = r.yours.capitalize()
    return Content(
        subject=f"{yours} ended without a provider",
        heading=f"{yours} \u201c{title}\u201d has ended.",
        lines=[
            "Its preferred date has passed and no provider accepted it.",
            "You are welcome to post it again with a new date.",
        ],
        action_label="Post a new request",
        action_path="/request-service",
        why=r.request_why,
    )


def _direct(f: Facts) -> Texts:
    """facts: client (her first name), title, until (when the others may offer, in words), only
    (offered to this helper alone), request_id."""
    asked = f'{f["client"]} asked for you directly: "{f["title"]}".'
    if f["only"]:
        return {"": f"{asked} It is offered to you only."}
    return {"": f"{asked} Only you can accept it until {f['until']}; after that other helpers can offer too."}


def _direct_email(r: Reader) -> Content:
    ctx = r.ctx
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


def _declined(f: Facts) -> Texts:
    """facts: provider (her first name), title, reason, cancelled (the request asked for only her),
    client_id. Organizers manage the circle's requests: theirs in their words."""
    name, title, reason, cancelled = f["provider"], f["title"], f["reason"], f["cancelled"]
    open_now = "It is now open to all helpers."
    outcome = "The request was cancelled, as it asked for only them." if cancelled else open_now
    return {
        "": f'{name} declined the request "{title}": {reason} {outcome}',
        ORGANIZERS: f'{name} declined your request "{title}": {reason} '
        + ("Your request was cancelled, as you asked for only them." if cancelled else open_now),
    }


def _declined_email(r: Reader) -> Content:
    ctx, yours = r.ctx, r.yours.capitalize()
    provider = ctx.get("provider", "The helper")
    lines = [f"Their reason: {ctx.get('reason', '')}"]
    lines.append(
        f"{yours} was cancelled, as it asked for only them."
        if ctx.get("cancelled")
        else f"{yours} is now open to all helpers."
    )
    return Content(
        subject=f"{provider} cannot take {r.yours}",
        heading=f"{provider} declined {r.yours} \u201c{ctx.get('title', '')}\u201d.",
        lines=lines,
        action_label="Open your dashboard",
        action_path="/dashboard",
        why=r.request_why,
    )


def _opened(f: Facts) -> Texts:
    """facts: provider (her first name), title, client_id."""
    late = f"{f['provider']} has not answered in 24 hours;"
    return {
        "": f'{late} the request "{f["title"]}" is now open to all helpers.',
        ORGANIZERS: f'{late} your request "{f["title"]}" is now open to all helpers.',
    }


def _opened_email(r: Reader) -> Content:
    ctx, yours = r.ctx, r.yours.capitalize()
    return Content(
        subject=f"{yours} is now open to all helpers",
        heading=f"{ctx.get('provider', 'The helper')} has not answered in 24 hours.",
        lines=[f"{yours} \u201c{ctx.get('title', '')}\u201d is now open to all helpers."],
        action_label="Open your dashboard",
        action_path="/dashboard",
        why=r.request_why,
    )


def _new_requests_email(r: Reader) -> Content:
    items = list(r.ctx.get("requests", []))
    return Content(
        subject=plural(len(items), "A new request matches your services", "New requests match your services"),
        heading=f"{len(items)} new request{plural(len(items), '', 's')} match{plural(len(items), 'es', '')} "
        "the services you offer.",
        lines=[],
        items=items,
        action_label="See open requests",
        action_path="/dashboard",
        why="you offer these services on Kindly",
    )


def _offered(f: Facts) -> Texts:
    """facts: title, when ("Tuesday, March 3, morning"), town, miles ("3.2 miles away"; "" when
    unknown), request_id, answer_by (until when only the helpers offered it may accept, in words)."""
    away = f" ({f['miles']})" if f.get("miles") else ""
    return {"": f'A request near you: "{f["title"]}", {f["when"]} in {f["town"]}{away}. Open it to accept.'}


def _offered_email(r: Reader) -> Content:
    ctx = r.ctx
    away = f", {ctx['miles']}" if ctx.get("miles") else ""
    return Content(
        subject="A request near you was offered to you",
        heading=f"\u201c{ctx.get('title', '')}\u201d, {ctx.get('when', '')}.",
        lines=[
            f"It is in {ctx.get('town', 'your area')}{away}, and you are free then.",
            f"It was offered to a few helpers near the family. Please answer by {ctx.get('answer_by', 'soon')}:"
            " after that it goes to other helpers.",
        ],
        action_label="See the request",
        action_path=f"/service-request-details?id={ctx.get('request_id', '')}",
        why="you offer this service near this family on Kindly",
    )


def _matching(f: Facts) -> Texts:
    """facts: title, town, reason ("no_replacement": a booking whose helper left has nobody yet, with
    booking_id and when; "unanswered": the helpers offered it did not accept in time,
    round: the round just widened to; "no_helpers": nobody near can take it, it is open to every
    helper of the service; "not_placed": its address could not be placed, offered by town)."""
    where = f'"{f["title"]}" in {f["town"] or "an unknown town"}'
    reason = f.get("reason")
    if reason == "not_placed":
        return {"": f"{where} could not be placed on the map: it is offered by town to every helper of the service."}
    if reason == "no_replacement":
        return {
            "": f'Booking #{f["booking_id"]}, "{f["title"]}" on {f["when"]} in {f["town"] or "an unknown town"}: its '
            "helper left and nobody has taken it yet. The family was offered a refund; please find a helper "
            "(reassign) or contact the family."
        }
    if reason == "no_helpers":
        return {"": f"{where}: no helper near enough is free; it is now open to every helper of the service."}
    return {"": f"{where}: nobody has accepted it yet; it was offered to more helpers (round {f.get('round', 2)})."}


def _matching_email(r: Reader) -> Content:
    return Content(
        subject="A request needs a helper",
        heading=r.text,
        lines=["Please look for a helper who can take it, or contact the family."],
        action_label="Open the admin",
        action_path="/admin",
        why="you are Kindly staff",
    )


NOTICES: dict[str, Notice] = {
    NoticeKind.REQUEST_OFFERED: Notice(_offered, _offered_email),
    NoticeKind.MATCHING_ALERTS: Notice(_matching, _matching_email),
    NoticeKind.REQUEST_EXPIRED: Notice(_expired, _expired_email),
    NoticeKind.DIRECT_REQUEST: Notice(_direct, _direct_email),
    NoticeKind.DIRECT_REQUEST_DECLINED: Notice(_declined, _declined_email),
    NoticeKind.DIRECT_REQUEST_OPENED: Notice(_opened, _opened_email),
    # By email and text only (a summary): facts: requests (one line each: "Tea, Tuesday, March 3").
    NoticeKind.NEW_REQUESTS: Notice(
        lambda f: {"": f"{len(f['requests'])} new request(s) match the services you offer."}, _new_requests_email
    ),
}
