"""The notices of the visit: completed, the family's updates (checked in and out, the report), the
helper's check-in reminder, the alerts to the circle (late, missed), the day-before reminder, a
review received.

Every sentence is marked for translation (gettext, named placeholders) and is written when the
notice is read, in the reader's language (core.notifications.notify, notifications.channels)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.notices.base import Content, Facts, Notice, Reader, Texts, first
from core.notices.bookings import InApp
from core.notices.kinds import Audience, NoticeKind
from core.wellbeing import Wellbeing

ORGANIZERS, HELPER = Audience.ORGANIZERS, Audience.HELPER


def _visit_completed(f: Facts) -> Texts:
    """facts: title. Organizers review a visit; a plain member is not asked to do what she cannot."""
    done = _('Your booking for "%(title)s" was marked completed.') % f
    return {"": done, ORGANIZERS: done + " " + _("Thank you for using Kindly! You can now leave a review.")}


def _timeline(f: Facts) -> str:
    """The visit in one line, in the reader's words: "Vera arrived 1:58 PM (at Margaret's home) · 3
    of 4 tasks done · left 3:02 PM". A notice kept before its timeline was data says its own."""
    if "arrived_clock" not in f:
        return str(f.get("timeline") or "")
    facts = {"name": f["name"] or _("The helper"), "time": f["arrived"], "home_of": f["home_of"]}
    if f["place"] == "home":
        arrived = (
            _("%(name)s arrived %(time)s (at %(home_of)s's home)")
            if f["home_of"]
            else _("%(name)s arrived %(time)s (at the home)")
        ) % facts
    elif f["place"] == "away":
        arrived = (
            _("%(name)s arrived %(time)s (not at the home: %(reason)s)") % {**facts, "reason": f["place_reason"]}
            if f["place_reason"]
            else _("%(name)s arrived %(time)s (not at the home)") % facts
        )
    else:
        arrived = _("%(name)s arrived %(time)s") % facts
    parts = [arrived]
    if f["tasks_total"]:
        parts.append(
            ngettext("%(done)s of %(total)s task done", "%(done)s of %(total)s tasks done", f["tasks_total"])
            % {"done": f["tasks_done"], "total": f["tasks_total"]}
        )
    if f.get("left"):
        parts.append(_("left %(time)s") % {"time": f["left"]})
    return " · ".join(parts)


def _wellbeing(f: Facts) -> str:
    """How she seemed, in the reader's words ("good"); a notice kept before it was data, its own."""
    if "wellbeing_level" in f:
        return str(Wellbeing(f["wellbeing_level"]).label).lower()
    return str(f.get("wellbeing", ""))


def _visit_updates(f: Facts) -> Texts:
    """facts: event ("checked_in": name, time (from time_clock); "report": name, wellbeing_level,
    the visit as data (bookings.services.visit_record.visit_timeline_facts: arrived and left (from
    their _clock facts), place, place_reason, home_of, tasks_done, tasks_total, tasks_missed)), title."""
    named = {**f, "name": f["name"] or _("Your provider")}
    if f["event"] == "checked_in":
        return {"": _('%(name)s checked in at %(time)s for "%(title)s".') % named}
    timeline = _timeline(f)
    said = {**named, "wellbeing": _wellbeing(f)}
    return {
        "": _('Visit report ready: %(name)s wrote how the visit for "%(title)s" went. They seemed: %(wellbeing)s.')
        % said
        + (f" {timeline}." if timeline else "")
    }


def _tasks_missed_lines(r: Reader) -> list[str]:
    """Each task of the family's list not done, and the helper's reason: "Not done: Pick up
    prescriptions (The pharmacy was closed)"."""
    return [
        _("Not done: %(task)s (%(reason)s)") % {"task": task, "reason": reason}
        for task, reason in r.ctx.get("tasks_missed") or []
    ]


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
        items=_tasks_missed_lines(r),
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


NOTICES: dict[str, Notice] = {
    InApp.REVIEW_RECEIVED: Notice(lambda f: {"": _('You received a %(rating)s-star review for "%(title)s".') % f}),
    InApp.VISIT_COMPLETED: Notice(_visit_completed),
    NoticeKind.VISIT_UPDATES: Notice(_visit_updates, _visit_updates_email),
    InApp.CHECK_IN_REMINDER: Notice(_check_in_reminder),
    NoticeKind.VISIT_ALERTS: Notice(_visit_alerts, _visit_alerts_email),
    NoticeKind.VISIT_REMINDER: Notice(_visit_reminder, _visit_reminder_email),
}
