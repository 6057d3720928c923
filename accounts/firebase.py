"""The one place that talks to Firebase Authentication through firebase-admin.

In development and tests FIREBASE_AUTH_EMULATOR_HOST points firebase-admin at the Auth emulator;
in production FIREBASE_CREDENTIALS names a service-account file.
"""

from __future__ import annotations

import os
import threading

import firebase_admin
from django.conf import settings
from firebase_admin import auth, credentials

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
