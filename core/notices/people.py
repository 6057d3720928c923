"""The notices of people: a helper's application, a care circle (joined, handed over, an
invitation), unread messages.

Every sentence is marked for translation and written in the reader's language when it is read."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.notices.base import Content, Facts, Notice, Reader, Texts
from core.notices.kinds import NoticeKind


class InApp:
    """Notices of people said in the app only."""

    APPLICATION_RECEIVED = "application_received"
    NOW_ORGANIZER = "now_organizer"


def _role(role: object) -> str:
    """A circle role ("organizer", "member") in the reader's words."""
    return _("organizer") if role == "organizer" else _("member") if role == "member" else str(role)


def _decided(f: Facts) -> Texts:
    """facts: status ("verified", "rejected")."""
    if f["status"] == "verified":
        return {"": _("Your provider application was approved. You are now verified and can accept service requests.")}
    return {"": _("Your provider application was not approved. Please contact support if you have questions.")}


def _decided_email(r: Reader) -> Content:
    approved = r.ctx.get("status") == "verified"
    return Content(
        subject=_("Your provider application was approved") if approved else _("About your provider application"),
        heading=_("You are now a verified Kindly provider.") if approved else _("Your application was not approved."),
        lines=[_("You can now accept service requests.")]
        if approved
        else [_("Please contact Kindly support if you have questions.")],
        action_label=_("Open your dashboard"),
        action_path="/dashboard",
        why=_("you applied to be a Kindly provider"),
    )


def _renewal_email(r: Reader) -> Content:
    return Content(
        subject=_("Your yearly background check is due"),
        heading=_("Please renew your background check by %(due)s.") % {"due": r.ctx.get("due", "")},
        lines=[
            _("Kindly checks every helper's background once a year, so families can trust who comes to the door."),
            _(
                "It takes a few minutes: give your consent again and the check runs by itself. "
                "If it is not renewed in time, new requests stop reaching you until it is."
            ),
        ],
        action_label=_("Renew my check"),
        action_path="/provider-signup",
        why=_("you are a verified Kindly helper"),
    )


def _applications_email(r: Reader) -> Content:
    count = int(r.ctx.get("count", 0))
    n = {"count": count}
    return Content(
        subject=ngettext(
            "%(count)d provider application waiting for review",
            "%(count)d provider applications waiting for review",
            count,
        )
        % n,
        heading=ngettext(
            "%(count)d provider application is waiting for review.",
            "%(count)d provider applications are waiting for review.",
            count,
        )
        % n,
        lines=[_("Applicants are told we review within 2-3 business days.")],
        items=list(r.ctx.get("names", [])),
        action_label=_("Review applications"),
        action_path="/admin",
        why=_("you are a Kindly admin"),
    )


def _joined_email(r: Reader) -> Content:
    ctx = r.ctx
    n = {
        "name": ctx.get("name", _("Someone")),
        "recipient": ctx.get("recipient", _("your")),
        "role": _role(ctx.get("role", "member")),
        "them": ctx.get("recipient", _("them")),
    }
    return Content(
        subject=_("%(name)s joined %(recipient)s's care circle") % n,
        heading=_("%(name)s joined %(recipient)s's care circle.") % n,
        lines=[
            _("They joined as %(role)s. They can now see the visits booked for %(them)s and the messages with helpers.")
            % n,
            _("You can change their role or remove them on your Care circle page."),
        ],
        action_label=_("Open your care circle"),
        action_path="/care-circle",
        why=_("you organize this care circle on Kindly"),
    )


def _unread_email(r: Reader) -> Content:
    count = int(r.ctx.get("count", 1))
    n = {"count": count, "sender": r.ctx.get("sender", _("Someone"))}
    return Content(
        subject=ngettext("%(sender)s sent you a message", "%(sender)s sent you %(count)d messages", count) % n,
        heading=ngettext(
            "You have %(count)d unread message from %(sender)s.",
            "You have %(count)d unread messages from %(sender)s.",
            count,
        )
        % n,
        lines=[_("Open your messages on Kindly to read and answer.")],
        action_label=_("Read your messages"),
        action_path="/messages",
        why=_("someone wrote to you on Kindly and you have not read it for 10 minutes"),
    )


# ---------------------------------------------------------------- an invitation to a care circle
# The address may have no account yet: its email is written from the invitation, not from a notice.


def invitation_words(f: Facts) -> tuple[str, str]:
    """(subject, sentence) saying who invites whom, for the email and the join page alike. facts:
    who (the inviter's name), own ("recipient": for the person cared for herself; "inviter": the
    senior invites to her own circle, not named twice), first_name and full_name (the senior's)."""
    if f["own"] == "recipient":
        return _("%(who)s invites you to your own care circle") % f, _(
            "%(who)s invites you to join your own care circle"
        ) % f
    if f["own"] == "inviter":
        return _("%(who)s invites you to their care circle") % f, _("%(who)s invites you to join their care circle") % f
    return (
        _("%(who)s invites you to help care for %(first_name)s") % f,
        _("%(who)s invites you to join %(full_name)s's care circle") % f,
    )


def invitation_email(f: Facts) -> Content:
    """facts: invitation_words' and role ("organizer", "member"), path (the join link)."""
    subject, sentence = invitation_words(f)
    about = (
        _(
            "A care circle is the family and friends who share your care on Kindly, %(first_name)s: "
            "with your own account you see the visits booked for you and the messages with helpers."
        )
        % f
        if f["own"] == "recipient"
        else _(
            "A care circle is the family and friends who share the care of %(full_name)s on Kindly: "
            "they see the visits booked, the messages with helpers, and get the news."
        )
        % f
    )
    return Content(
        subject=_("%(subject)s on Kindly") % {"subject": subject},
        heading=f"{sentence}.",
        lines=[
            about,
            _("You are invited as an organizer.") if f["role"] == "organizer" else _("You are invited as a member."),
            _("Sign in, or create a free account, then join with the button below."),
            _("This invitation expires in 7 days and works once."),
        ],
        action_label=_("Join %(first_name)s's care circle") % f,
        action_path=f["path"],
        why=_("%(who)s entered this address to invite you; if you do not know them, you can ignore it") % f,
    )


NOTICES: dict[str, Notice] = {
    # facts: due (the date her checks expire, in words).
    NoticeKind.CHECKS_RENEWAL_DUE: Notice(
        lambda f: {
            "": _(
                "Your yearly background check is due by %(due)s. Please give your consent again on "
                "Become a Provider (Your checks) so families keep seeing you."
            )
            % f
        },
        _renewal_email,
    ),
    InApp.APPLICATION_RECEIVED: Notice(
        lambda f: {
            "": _(
                "Thank you for applying to be a Kindly provider. We review applications in 2-3 business days "
                "and will let you know once you are verified."
            )
        }
    ),
    NoticeKind.APPLICATION_DECIDED: Notice(_decided, _decided_email),
    # By email only (a daily summary): facts: count, names.
    NoticeKind.PROVIDER_APPLICATIONS: Notice(
        lambda f: {"": _("%(count)s provider application(s) are waiting for review.") % f}, _applications_email
    ),
    # facts: name (who joined), recipient (the senior's full name), role ("organizer", "member").
    NoticeKind.CIRCLE_JOINED: Notice(
        lambda f: {"": _("%(name)s joined %(recipient)s's care circle as %(role)s.") % {**f, "role": _role(f["role"])}},
        _joined_email,
    ),
    # An organizer closed her account and the circle passes to the next member. facts: closer, recipient.
    InApp.NOW_ORGANIZER: Notice(
        lambda f: {
            "": _(
                "%(closer)s closed their Kindly account. You now organize %(recipient)s's care circle: "
                "you can post, pay for and cancel visits."
            )
            % f
        }
    ),
    # By email and text only: facts: count, sender (her first name).
    NoticeKind.UNREAD_MESSAGES: Notice(
        lambda f: {"": _("You have %(count)s unread message(s) from %(sender)s.") % f}, _unread_email
    ),
}
