"""System checks for sign-in configuration."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security)
def check_auth_emulator_needs_debug(app_configs=None, **kwargs) -> list[Error]:
    """The Auth emulator's tokens carry no signature: never trust them outside development.

    The test settings opt out with ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG (tests run with DEBUG off
    against an emulator of their own).
    """
    host = settings.FIREBASE_AUTH_EMULATOR_HOST or os.environ.get("FIREBASE_AUTH_EMULATOR_HOST", "")
    if host and not settings.DEBUG and not getattr(settings, "ALLOW_AUTH_EMULATOR_WITHOUT_DEBUG", False):
        return [
            Error(
                f"FIREBASE_AUTH_EMULATOR_HOST is set ({host}) while DEBUG is off.",
                hint="The Auth emulator skips token signatures, so anyone could sign in as anyone. "
                "Unset FIREBASE_AUTH_EMULATOR_HOST outside development.",
                id="accounts.E001",
            )
        ]
    return []
