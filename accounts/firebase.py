"""The one place that talks to Firebase Authentication through firebase-admin.

In development and tests FIREBASE_AUTH_EMULATOR_HOST points firebase-admin at the Auth emulator;
in production FIREBASE_CREDENTIALS names a service-account file.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from typing import Any

import firebase_admin
from django.conf import settings
from firebase_admin import auth, credentials

logger = logging.getLogger(__name__)

# Tolerated difference between our clock and Firebase's for iat/auth_time in the future.
CLOCK_SKEW_SECONDS = 60
# Far longer than any real ID token (about 1 KB); refuse bigger input before decoding it.
MAX_TOKEN_LENGTH = 8192


class InvalidIdToken(Exception):
    """The ID token is not one we accept (any reason). Callers answer 401 "Unauthorized"."""


class AccountDisabled(InvalidIdToken):
    """A genuine token of a Firebase account that is disabled (e.g. a closed Kindly account)."""

    def __init__(self, message: str, *, uid: str | None = None):
        super().__init__(message)
        self.uid = uid


class FirebaseUnavailable(Exception):
    """Firebase did not answer a change we asked for (disable, enable, delete)."""


_lock = threading.Lock()
_APP_NAME = "kindly"


def get_app() -> firebase_admin.App:
    """The firebase-admin app for the current settings (created once per process)."""
    with _lock:
        try:
            return firebase_admin.get_app(_APP_NAME)
        except ValueError:
            pass
        if settings.FIREBASE_AUTH_EMULATOR_HOST:
            # firebase-admin reads the emulator host from the environment only.
            os.environ["FIREBASE_AUTH_EMULATOR_HOST"] = settings.FIREBASE_AUTH_EMULATOR_HOST
        cred = credentials.Certificate(settings.FIREBASE_CREDENTIALS) if settings.FIREBASE_CREDENTIALS else None
        return firebase_admin.initialize_app(cred, {"projectId": settings.FIREBASE_PROJECT_ID}, name=_APP_NAME)


def reset_app() -> None:
    """Forget the firebase-admin app, so the next call builds one from the current settings (tests)."""
    with _lock:
        try:
            firebase_admin.delete_app(firebase_admin.get_app(_APP_NAME))
        except ValueError:
            pass


def _uid_of_genuine(token: str) -> str | None:
    """The subject of a token firebase-admin has just verified (all but the disabled check)."""
    try:
        claims = auth.verify_id_token(token, app=get_app(), check_revoked=False)
    except Exception:  # noqa: BLE001 - only used to word the refusal
        return None
    uid = claims.get("uid") if isinstance(claims, dict) else None
    return uid if isinstance(uid, str) else None


def _number(claims: dict[str, Any], name: str) -> float:
    value = claims.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise InvalidIdToken(f"the token has no numeric {name!r} claim")
    return float(value)


def verify_id_token(token: object, *, max_auth_age: int | None = None, check_revoked: bool = False) -> dict[str, Any]:
    """Verify a Firebase ID token and return its claims (with "uid").

    Beyond firebase-admin (signature, audience = our project, issuer, subject) this checks the
    expiry and issue time itself, because firebase-admin skips them for emulator tokens, and,
    with max_auth_age, that the user signed in at most that many seconds ago. check_revoked asks
    Firebase whether the account is disabled or its tokens revoked (one extra call).
    Raises InvalidIdToken for every failure, whatever the input holds.
    """
    if not isinstance(token, str) or not token.strip() or len(token) > MAX_TOKEN_LENGTH:
        raise InvalidIdToken("empty, oversized or not a string")
    try:
        claims = auth.verify_id_token(token.strip(), app=get_app(), check_revoked=check_revoked)
    except auth.CertificateFetchError:
        logger.warning("Could not fetch Firebase token certificates", exc_info=True)
        raise InvalidIdToken("certificates unavailable") from None
    except auth.UserDisabledError:
        raise AccountDisabled("the account is disabled", uid=_uid_of_genuine(token.strip())) from None
    except Exception as exc:  # noqa: BLE001 - any malformed token must end as 401, never 500
        raise InvalidIdToken(f"{type(exc).__name__}: {exc}") from None
    if not isinstance(claims, dict) or not isinstance(claims.get("uid"), str) or not claims["uid"]:
        raise InvalidIdToken("the token has no subject")
    now = time.time()
    if _number(claims, "exp") <= now:
        raise InvalidIdToken("the token has expired")
    if _number(claims, "iat") > now + CLOCK_SKEW_SECONDS:
        raise InvalidIdToken("the token was issued in the future")
    auth_time = _number(claims, "auth_time")
    if auth_time > now + CLOCK_SKEW_SECONDS:
        raise InvalidIdToken("the sign-in time is in the future")
    if max_auth_age is not None and now - auth_time > max_auth_age:
        raise InvalidIdToken("the sign-in is too old to start a session")
    return claims


def firebase_user_exists(email: str) -> bool:
    try:
        auth.get_user_by_email(email, app=get_app())
    except auth.UserNotFoundError:
        return False
    return True


def firebase_user_upsert(*, email: str, password: str | None, display_name: str, uid: str | None = None) -> str:
    """Create or update the Firebase account for email and return its uid.

    With uid, the Firebase account is made to carry that uid (an account of the same email under
    another uid is replaced), so an existing local user keeps its key.
    """
    app = get_app()
    fields: dict = {"display_name": display_name, "email_verified": True}
    if password:
        fields["password"] = password
    if uid:
        try:
            auth.get_user(uid, app=app)
        except auth.UserNotFoundError:
            try:
                auth.delete_user(auth.get_user_by_email(email, app=app).uid, app=app)
            except auth.UserNotFoundError:
                pass
            return auth.create_user(uid=uid, email=email, app=app, **fields).uid
        auth.update_user(uid, email=email, app=app, **fields)
        return uid
    try:
        existing = auth.get_user_by_email(email, app=app)
    except auth.UserNotFoundError:
        return auth.create_user(email=email, app=app, **fields).uid
    auth.update_user(existing.uid, app=app, **fields)
    return existing.uid


def _change_user(action: str, call, uid: str) -> bool:
    """Run one firebase-admin account change; False when there is no such account."""
    try:
        call()
    except auth.UserNotFoundError:
        return False
    except Exception as exc:  # noqa: BLE001 - network or server trouble: the caller decides
        logger.warning("Firebase could not %s the account %s: %s", action, uid, type(exc).__name__)
        raise FirebaseUnavailable(f"Firebase could not {action} the account") from exc
    return True


def firebase_user_set_disabled(uid: str, *, disabled: bool) -> bool:
    """Disable (or enable again) the Firebase account uid, so it can (not) sign in.

    Returns False when Firebase has no such account; raises FirebaseUnavailable when it fails.
    """
    action = "disable" if disabled else "enable"
    return _change_user(action, lambda: auth.update_user(uid, disabled=disabled, app=get_app()), uid)


def firebase_user_delete(uid: str) -> bool:
    """Delete the Firebase account uid. Returns False when it was already gone."""
    return _change_user("delete", lambda: auth.delete_user(uid, app=get_app()), uid)
