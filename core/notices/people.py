"""The notices of people: a helper's application, a care circle (joined, handed over, an
invitation), unread messages."""

from __future__ import annotations

from core.notices.base import Content, Facts, Notice, Reader, Texts, plural
from core.notices.kinds import NoticeKind


class InApp:
    """Notices of people said in the app only."""

    APPLICATION_RECEIVED = "application_received"
    NOW_ORGANIZER = "now_organizer"


def _decided(f: Facts) -> Texts:
    """facts: status ("verified", "rejected")."""
    if f["status"] == "verified":
        return {"": "Your provider application was approved. You are now verified and can accept service requests."}
    return {"": "Your provider application was not approved. Please contact support if you have questions."}


def _decided_email(r: Reader) -> Content:
    approved = r.ctx.get("status") == "verified"
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


def _renewal_email(r: Reader) -> Content:
    due = r.ctx.get("due", "")
    return Content(
        subject="Your yearly background check is due",
        heading=f"Please renew your background check by {due}.",
        lines=[
            "Kindly checks every helper's background once a year, so families can trust who comes to the door.",
            "It takes a few minutes: give your consent again and the check runs by itself. "
            "If it is not renewed in time, new requests stop reaching you until it is.",
        ],
        action_label="Renew my check",
        action_path="/provider-signup",
        why="you are a verified Kindly helper",
    )


def _applications_email(r: Reader) -> Content:
    count = int(r.ctx.get("count", 0))
    return Content(
        subject=f"{count} provider application{plural(count, '', 's')} waiting for review",
        heading=f"{count} provider application{plural(count, ' is', 's are')} waiting for review.",
        lines=["Applicants are told we review within 2-3 business days."],
        items=list(r.ctx.get("names", [])),
        action_label="Review applications",
        action_path="/admin",
        why="you are a Kindly admin",
    )


def _joined_email(r: Reader) -> Content:
    ctx = r.ctx
    name, recipient = ctx.get("name", "Someone"), ctx.get("recipient", "your")
    return Content(
        subject=f"{name} joined {recipient}'s care circle",
        heading=f"{name} joined {recipient}'s care circle.",
        lines=[
            f"They joined as {ctx.get('role', 'member')}. They can now see the visits booked for "
            f"{ctx.get('recipient', 'them')} and the messages with helpers.",
            "You can change their role or remove them on your Care circle page.",
        ],
        action_label="Open your care circle",
        action_path="/care-circle",
        why="you organize this care circle on Kindly",
    )


def _unread_email(r: Reader) -> Content:
    count = int(r.ctx.get("count", 1))
    sender = r.ctx.get("sender", "Someone")
    return Content(
        subject=f"{sender} sent you {plural(count, 'a message', f'{count} messages')}",
        heading=f"You have {count} unread message{plural(count, '', 's')} from {sender}.",
        lines=["Open your messages on Kindly to read and answer."],
        action_label="Read your messages",
        action_path="/messages",
        why="someone wrote to you on Kindly and you have not read it for 10 minutes",
    )


# ---------------------------------------------------------------- an invitation to a care circle
# The address may have no account yet: its email is written from the invitation, not from a notice.


def invitation_words(f: Facts) -> tuple[str, str]:
    """(subject, sentence) saying who invites whom, for the email and the join page alike. facts:
    who (the inviter's name), own ("recipient": for the person cared for herself; "inviter": the
    senior invites to her own circle, not named twice), first_name and full_name (the senior's)."""
    who = f["who"]
    if f["own"] == "recipient":
        return f"{who} invites you to your own care circle", f"{who} invites you to join your own care circle"
    if f["own"] == "inviter":
        return f"{who} invites you to their care circle", f"{who} invites you to join their care circle"
    return (
        f"{who} invites you to help care for {f['first_name']}",
        f"{who} invites you to join {f['full_name']}'s care circle",
    )


def invitation_email(f: Facts) -> Content:
    """facts: invitation_words' and role ("organizer", "member"), path (the join link)."""
    subject, sentence = invitation_words(f)
    about = (
        f"A care circle is the family and friends who share your care on Kindly, {f['first_name']}: "
        "with your own account you see the visits booked for you and the messages with helpers."
        if f["own"] == "recipient"
        else f"A care circle is the family and friends who share the care of {f['full_name']} on Kindly: "
        "they see the visits booked, the messages with helpers, and get the news."
    )
    return Content(
        subject=f"{subject} on Kindly",
        heading=f"{sentence}.",
        lines=[
            about,
            f"You are invited as {'an organizer' if f['role'] == 'organizer' else 'a member'}.",
            "Sign in, or create a free account, then join with the button below.",
            "This invitation expires in 7 days and works once.",
        ],
        action_label=f"Join {f['first_name']}'s care circle",
        action_path=f["path"],
        why=f"{f['who']} entered this address to invite you; if you do not know them, you can ignore it",
    )


NOTICES: dict[str, Notice] = {
    # facts: due (the date her checks expire, in words).
    NoticeKind.CHECKS_RENEWAL_DUE: Notice(
        lambda f: {
            "": f"Your yearly background check is due by {f['due']}. Please give your consent again on "
            "Become a Provider (Your checks) so families keep seeing you."
        },
        _renewal_email,
    ),
    InApp.APPLICATION_RECEIVED: Notice(
        lambda f: {
            "": "Thank you for applying to be a Kindly provider. We review applications in 2-3 business days "
            "and will let you know once you are verified."
        }
    ),
    NoticeKind.APPLICATION_DECIDED: Notice(_decided, _decided_email),
    # By email only (a daily summary): facts: count, names.
    NoticeKind.PROVIDER_APPLICATIONS: Notice(
        lambda f: {"": f"{f['count']} provider application(s) are waiting for review."}, _applications_email
    ),
    # facts: name (who joined), recipient (the senior's full name), role ("organizer", "member").
    NoticeKind.CIRCLE_JOINED: Notice(
        lambda f: {"": f"{f['name']} joined {f['recipient']}'s care circle as {f['role']}."}, _joined_email
    ),
    # An organizer closed her account and the circle passes to the next member. facts: closer, recipient.
    InApp.NOW_ORGANIZER: Notice(
        lambda f: {
            "": f"{f['closer']} closed their Kindly account. You now organize {f['recipient']}'s care circle: "
            "you can post, pay for and cancel visits."
        }
    ),
    # By email and text only: facts: count, sender (her first name).
    NoticeKind.UNREAD_MESSAGES: Notice(
        lambda f: {"": f"You have {f['count']} unread message(s) from {f['sender']}."}, _unread_email
    ),
}
