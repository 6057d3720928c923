"""How people reach Kindly's support team, from settings (SUPPORT_EMAIL, SUPPORT_PHONE,
SUPPORT_HOURS, SUPPORT_ALWAYS_OPEN): one shape for the pages (the `support` template context),
the islands' props, emails and the error pages, so the contacts read the same everywhere.

"Contact support" always leads somewhere that answers: the in-app support conversation for a
signed-in person; for a visitor, the support email when there is one, else sign-in and then
that conversation. Nothing is claimed that the settings do not say (no "24/7" by default).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import quote

from django.conf import settings
from django.utils.translation import gettext, gettext_lazy

SUPPORT_CONVERSATION = "/messages?with=support"
ALWAYS_OPEN_TEXT = gettext_lazy("24/7 support")


@dataclass(frozen=True)
class SupportContacts:
    email: str
    phone: str
    hours: str
    always_open: bool

    @property
    def phone_href(self) -> str:
        """tel: link of the phone number (digits and a leading +), or ""."""
        digits = re.sub(r"[^\d+]", "", self.phone)
        return f"tel:{digits}" if digits else ""

    @property
    def email_href(self) -> str:
        return f"mailto:{self.email}" if self.email else ""

    @property
    def availability(self) -> str:
        """When someone answers, as the settings say it ("" when they say nothing)."""
        if self.always_open:
            return gettext("Every day, at any hour")
        return self.hours

    @property
    def claim(self) -> str:
        """The trust claim beside the others on the landing and request pages."""
        return str(ALWAYS_OPEN_TEXT) if self.always_open else gettext("A support team you can message in the app")

    def contact_href(self, *, signed_in: bool) -> str:
        """Where "Contact support" leads: somewhere that answers."""
        if signed_in:
            return SUPPORT_CONVERSATION
        if self.email:
            return self.email_href
        return "/login?next=" + quote(SUPPORT_CONVERSATION, safe="")

    def as_props(self) -> dict:
        """The islands' shape (camelCase)."""
        return {
            "email": self.email,
            "phone": self.phone,
            "phoneHref": self.phone_href,
            "availability": self.availability,
            "alwaysOpen": self.always_open,
            "conversation": SUPPORT_CONVERSATION,
        }


def support_contacts() -> SupportContacts:
    """The support contacts from settings; needs nothing else (the 500 page uses it)."""
    return SupportContacts(
        email=str(settings.SUPPORT_EMAIL or "").strip(),
        phone=str(settings.SUPPORT_PHONE or "").strip(),
        hours=str(settings.SUPPORT_HOURS or "").strip(),
        always_open=bool(settings.SUPPORT_ALWAYS_OPEN),
    )


def context(request) -> dict:
    """Template context processor: `support` (the contacts) and `support_href` (Contact support)."""
    contacts = support_contacts()
    user = getattr(request, "user", None)
    signed_in = bool(user is not None and user.is_authenticated)
    return {"support": contacts, "support_href": contacts.contact_href(signed_in=signed_in)}
