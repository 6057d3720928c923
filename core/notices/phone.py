"""The words of Kindly's phone lines: what a page says about a booking's line, and what a caller
hears or a texter reads when the line cannot connect them. Short plain sentences, said slowly."""

from __future__ import annotations

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
