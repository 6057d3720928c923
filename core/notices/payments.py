"""The notices of a booking's money: its payment (received, a saved card's charge failed, paid
after a cancel), its refund, a late fee (disputed, decided), a tip, a helper's earning waiting for
her payouts.

Every sentence is marked for translation (gettext, named placeholders) and is written when the
notice is read, in the reader's language (core.notifications.notify, notifications.channels)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.notices.base import Content, Facts, Notice, Reader, Texts, first
from core.notices.bookings import InApp
from core.notices.kinds import Audience, NoticeKind

ORGANIZERS, HELPER, PAYER = Audience.ORGANIZERS, Audience.HELPER, Audience.PAYER


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
