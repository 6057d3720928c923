"""The words of Kindly's phone lines: what a page says about a booking's line, and what a caller
hears or a texter reads when the line cannot connect them. Short plain sentences, said slowly."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.notices.base import Facts, Notice, Texts

# The booking page (GET /api/bookings/{id}/phone-line).
NOT_SET_UP = "Calling and texting through Kindly is not set up yet. Send a message in Kindly instead."
LINE_ENDED = "The phone line for this visit has ended. Send a message in Kindly instead."
NOT_THE_HELPER_NOW = "You are no longer the helper for this visit."
ADD_YOUR_PHONE = "Add your mobile number in Settings, under Texts, to call or text through Kindly."
HELPER_HAS_NO_PHONE = "The helper has no phone number with Kindly. Send a message in Kindly instead."
FAMILY_HAS_NO_PHONE = "The family has not given a phone number. Send them a message in Kindly instead."
ALL_LINES_BUSY = "Every Kindly line is busy for these numbers right now. Send a message in Kindly instead."
STAFF_ARE_NOT_A_PARTY = "Staff reach the family and the helper through the booking's messages."


def line_ready(name: str) -> str:
    return f"Call or text this Kindly number to reach {name}. Your own number stays private."


# A call or text to a Kindly line from a number it does not join now.
SPOKEN_NOT_LINKED = (
    "This is Kindly. This number is not linked to a visit for your phone right now. "
    "Please open the visit in Kindly, or call Kindly support. Goodbye."
)
SPOKEN_CONNECTING = "This is Kindly. Connecting your call. Please wait."
TEXT_NOT_LINKED = "Kindly: this number is not linked to a visit for your phone right now. Open the visit in Kindly."


# ---------------------------------------------------------------- the phone menu (calling Kindly)
# Said slowly, one short sentence at a time; every choice repeats with 9 and reaches staff with 0.

GREETING = "Hello. This is Kindly."
UNKNOWN_CALLER = (
    "We do not know this phone number. Your family can add it on the Care circle page. "
    "To leave a message for Kindly, press 0. Or hang up now."
)
NO_PIN_YET = "Your family has not set a PIN for the phone yet. They can set one on the Care circle page. Goodbye."
ASK_PIN = "Please type your four digit PIN."
WRONG_PIN = "That PIN is not right. Please try again."
PIN_LOCKED = (
    "That PIN was wrong three times, so phone use is locked. We have told your family. "
    "They can set a new PIN on the Care circle page. Goodbye."
)
MENU = (
    "To hear your next visits, press 1. "
    "To confirm your next visit, press 2. "
    "To cancel a visit, press 3. "
    "To ask for the same helper again next week, press 4. "
    "To leave a message for Kindly, press 0. "
    "To hear this again, press 9."
)
NOT_UNDERSTOOD = "Sorry, I did not understand."
NO_VISITS = "You have no visits coming up."
GOODBYE = "Thank you for calling Kindly. Goodbye."
CONFIRM_ASK = "Your next visit is {visit}. To confirm it, press 1. To go back, press 9."
CONFIRMED = "Thank you. Your visit is confirmed. We have told {helper} and your family."
CANCEL_ASK = "Your next visit is {visit}. To cancel it, press 1. To go back, press 9."
CANCEL_TOO_LATE = (
    "Your next visit is {visit}. It is less than 48 hours away, so it cannot be cancelled now. "
    "To talk to Kindly about it, press 0."
)
CANCEL_NOT_ALLOWED = "This visit can only be cancelled by your family on Kindly."
CANCELLED = "Your visit on {day} is cancelled. We have told {helper} and your family."
AGAIN_ASK = "Would you like {helper} again, on {day}, {window}? To ask, press 1. To go back, press 9."
AGAIN_NONE = "There is no past visit to ask for again."
AGAIN_SENT = "We have asked {helper} for {day}. We will tell you and your family when {helper} answers."
AGAIN_FAILED = "We could not ask for that visit. To talk to Kindly, press 0."
LEAVE_MESSAGE = "After the tone, please say your message for Kindly. Press the pound key when you are done."
MESSAGE_SAVED = "Thank you. Kindly staff will listen to your message. Goodbye."


def visit_words(*, day: str, window: str, helper: str, title: str) -> str:
    """One visit as the menu says it: "Tuesday, December 1, in the afternoon, Vera, to help with: Tablet"."""
    return f"{day}, {window}, {helper}, to help with {title}"


class InApp:
    """Notices of the phone menu said in the app only."""

    PIN_LOCKED = "phone_pin_locked"
    CONFIRMED_BY_PHONE = "confirmed_by_phone"
    ASKED_AGAIN_BY_PHONE = "asked_again_by_phone"
    REMINDER_UNANSWERED = "reminder_unanswered"


# The in-app notices below are marked for translation (each reader's language); what the phone
# says (above) is still English only: the menu speaks Spanish once <Say language="es-US"> lands.


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

REMINDER_CALL = (
    "Hello {name}. This is Kindly. You have a visit tomorrow: {visit}. "
    "To confirm it, press 1. To talk to Kindly, press 2."
)


def reminder_text(visit: str) -> str:
    """The evening reminder as a text (sent through notifications.services.text_to_number, which
    adds "Kindly:" and how to stop texts)."""
    return _("You have a visit tomorrow, %(visit)s. Call Kindly if you cannot make it.") % {"visit": visit}


REMINDER_TALK_NO_PHONE = "Kindly support is not on the phone now. " + LEAVE_MESSAGE


def _reminder_unanswered(f: Facts) -> Texts:
    return {"": _("%(name)s did not answer two reminder calls for the visit on %(day)s. You may want to call.") % f}


NOTICES[InApp.REMINDER_UNANSWERED] = Notice(_reminder_unanswered)
