"""The words of Kindly's phone lines: what a page says about a booking's line, and what a caller
hears or a texter reads when the line cannot connect them. Short plain sentences, said slowly.

The constants are lazy (gettext_lazy): each is read in the language active where it is said (the
page's reader, the caller's). Their {placeholders} are filled with str.format once translated."""

from __future__ import annotations

from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.notices.base import Facts, Notice, Texts

# The booking page (GET /api/bookings/{id}/phone-line).
NOT_SET_UP = gettext_lazy("Calling and texting through Kindly is not set up yet. Send a message in Kindly instead.")
LINE_ENDED = gettext_lazy("The phone line for this visit has ended. Send a message in Kindly instead.")
NOT_THE_HELPER_NOW = gettext_lazy("You are no longer the helper for this visit.")
ADD_YOUR_PHONE = gettext_lazy("Add your mobile number in Settings, under Texts, to call or text through Kindly.")
HELPER_HAS_NO_PHONE = gettext_lazy("The helper has no phone number with Kindly. Send a message in Kindly instead.")
FAMILY_HAS_NO_PHONE = gettext_lazy("The family has not given a phone number. Send them a message in Kindly instead.")
ALL_LINES_BUSY = gettext_lazy(
    "Every Kindly line is busy for these numbers right now. Send a message in Kindly instead."
)
STAFF_ARE_NOT_A_PARTY = gettext_lazy("Staff reach the family and the helper through the booking's messages.")


def line_ready(name: str) -> str:
    return _("Call or text this Kindly number to reach %(name)s. Your own number stays private.") % {"name": name}


# A call or text to a Kindly line from a number it does not join now.
SPOKEN_NOT_LINKED = gettext_lazy(
    "This is Kindly. This number is not linked to a visit for your phone right now. "
    "Please open the visit in Kindly, or call Kindly support. Goodbye."
)
SPOKEN_CONNECTING = gettext_lazy("This is Kindly. Connecting your call. Please wait.")
TEXT_NOT_LINKED = gettext_lazy(
    "Kindly: this number is not linked to a visit for your phone right now. Open the visit in Kindly."
)


# ---------------------------------------------------------------- the phone menu (calling Kindly)
# Said slowly, one short sentence at a time; every choice repeats with 9 and reaches staff with 0.

GREETING = gettext_lazy("Hello. This is Kindly.")
UNKNOWN_CALLER = gettext_lazy(
    "We do not know this phone number. Your family can add it on the Care circle page. "
    "To leave a message for Kindly, press 0. Or hang up now."
)
NO_PIN_YET = gettext_lazy(
    "Your family has not set a PIN for the phone yet. They can set one on the Care circle page. Goodbye."
)
ASK_PIN = gettext_lazy("Please type your four digit PIN.")
WRONG_PIN = gettext_lazy("That PIN is not right. Please try again.")
PIN_LOCKED = gettext_lazy(
    "That PIN was wrong three times, so phone use is locked. We have told your family. "
    "They can set a new PIN on the Care circle page. Goodbye."
)
MENU = gettext_lazy(
    "To hear your next visits, press 1. "
    "To confirm your next visit, press 2. "
    "To cancel a visit, press 3. "
    "To ask for the same helper again next week, press 4. "
    "To leave a message for Kindly, press 0. "
    "To hear this again, press 9."
)
NOT_UNDERSTOOD = gettext_lazy("Sorry, I did not understand.")
NO_VISITS = gettext_lazy("You have no visits coming up.")
GOODBYE = gettext_lazy("Thank you for calling Kindly. Goodbye.")
CONFIRM_ASK = gettext_lazy("Your next visit is {visit}. To confirm it, press 1. To go back, press 9.")
CONFIRMED = gettext_lazy("Thank you. Your visit is confirmed. We have told {helper} and your family.")
CANCEL_ASK = gettext_lazy("Your next visit is {visit}. To cancel it, press 1. To go back, press 9.")
CANCEL_TOO_LATE = gettext_lazy(
    "Your next visit is {visit}. It is less than 48 hours away, so it cannot be cancelled now. "
    "To talk to Kindly about it, press 0."
)
CANCEL_NOT_ALLOWED = gettext_lazy("This visit can only be cancelled by your family on Kindly.")
CANCELLED = gettext_lazy("Your visit on {day} is cancelled. We have told {helper} and your family.")
AGAIN_ASK = gettext_lazy("Would you like {helper} again, on {day}, {window}? To ask, press 1. To go back, press 9.")
AGAIN_NONE = gettext_lazy("There is no past visit to ask for again.")
AGAIN_SENT = gettext_lazy("We have asked {helper} for {day}. We will tell you and your family when {helper} answers.")
AGAIN_FAILED = gettext_lazy("We could not ask for that visit. To talk to Kindly, press 0.")
LEAVE_MESSAGE = gettext_lazy(
    "After the tone, please say your message for Kindly. Press the pound key when you are done."
)
MESSAGE_SAVED = gettext_lazy("Thank you. Kindly staff will listen to your message. Goodbye.")


def visit_words(*, day: str, window: str, helper: str, title: str) -> str:
    """One visit as the menu says it: "Tuesday, December 1, in the afternoon, Vera, to help with: Tablet"."""
    return _("%(day)s, %(window)s, %(helper)s, to help with %(title)s") % {
        "day": day,
        "window": window,
        "helper": helper,
        "title": title,
    }


class InApp:
    """Notices of the phone menu said in the app only."""

    PIN_LOCKED = "phone_pin_locked"
    CONFIRMED_BY_PHONE = "confirmed_by_phone"
    ASKED_AGAIN_BY_PHONE = "asked_again_by_phone"
    REMINDER_UNANSWERED = "reminder_unanswered"


# What the phone says (above) is in the language of the person cared for (CareRecipient.language:
# phoneline.menu_views speaks it with <Say language="es-US">); the in-app notices below, in each
# reader's own.


def _pin_locked(f: Facts) -> Texts:
    return {
        "": _(
            "Someone typed a wrong phone PIN for %(name)s three times, so phone use is locked. "
            "Set a new PIN on the Care circle page to unlock it."
        )
        % f
    }


def _confirmed(f: Facts) -> Texts:
    return {"": _("%(name)s confirmed the visit on %(day)s by phone.") % f}


def _asked_again(f: Facts) -> Texts:
    return {"": _("%(name)s asked by phone for %(helper)s again on %(day)s. %(helper)s has been asked.") % f}


NOTICES: dict[str, Notice] = {
    InApp.PIN_LOCKED: Notice(_pin_locked),
    InApp.CONFIRMED_BY_PHONE: Notice(_confirmed),
    InApp.ASKED_AGAIN_BY_PHONE: Notice(_asked_again),
}


# ---------------------------------------------------------------- reminder calls, the evening before

REMINDER_CALL = gettext_lazy(
    "Hello {name}. This is Kindly. You have a visit tomorrow: {visit}. "
    "To confirm it, press 1. To talk to Kindly, press 2."
)


def reminder_text(visit: str) -> str:
    """The evening reminder as a text (sent through notifications.services.text_to_number, which
    adds "Kindly:" and how to stop texts)."""
    return _("You have a visit tomorrow, %(visit)s. Call Kindly if you cannot make it.") % {"visit": visit}


REMINDER_TALK_NO_PHONE = format_lazy("{} {}", gettext_lazy("Kindly support is not on the phone now."), LEAVE_MESSAGE)


def _reminder_unanswered(f: Facts) -> Texts:
    return {"": _("%(name)s did not answer two reminder calls for the visit on %(day)s. You may want to call.") % f}


NOTICES[InApp.REMINDER_UNANSWERED] = Notice(_reminder_unanswered)
