"""One-click unsubscribe tokens: signed (django.core.signing) and dated, no sign-in needed."""

from __future__ import annotations

import datetime as dt

from django.core import signing

SALT = "notifications.unsubscribe"
# A link in an old email still works for this long.
MAX_AGE = dt.timedelta(days=90)


class BadToken(Exception):
    """The token is forged, changed, or too old; the message says which, for the person."""


def unsubscribe_token(*, user_id: str, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=SALT, compress=True)


def read_unsubscribe_token(token: str) -> tuple[str, str]:
    """(user id, kind) from a token, or BadToken."""
    try:
        data = signing.loads(token, salt=SALT, max_age=MAX_AGE)
    except signing.SignatureExpired:
        raise BadToken(
            "This unsubscribe link has expired. You can still turn these emails off in your Settings."
        ) from None
    except signing.BadSignature:
        raise BadToken(
            "This unsubscribe link is not valid: it may have been cut short or changed. "
            "You can turn these emails off in your Settings."
        ) from None
    if not isinstance(data, dict) or not isinstance(data.get("u"), str) or not isinstance(data.get("k"), str):
        raise BadToken("This unsubscribe link is not valid.")
    return data["u"], data["k"]
