"""Writes for accounts: users synced from Firebase sign-ins, user type, emergency contacts.

Closing an account and purging it 30 days later touch every app: marketplace.account_lifecycle.
"""

from __future__ import annotations

import logging
import unicodedata
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext, gettext_lazy

from accounts.models import User, UserType
from core.errors import Conflict, InvalidInput, PermissionDenied
from core.languages import Language, site_language

logger = logging.getLogger(__name__)

EMAIL_TAKEN_MESSAGE = gettext_lazy(
    "This email already belongs to another Kindly account. Please contact support to recover that account."
)
SWITCHABLE_TYPES = (UserType.CLIENT, UserType.PROVIDER)


NAME_MAX_LENGTH = 150


def clean_name(value: str) -> str:
    """A name as shown: trimmed, inner runs of spaces made one; a name made only of spaces or
    invisible characters is no name ("")."""
    text = " ".join(value.split())
    if all(unicodedata.category(ch) in ("Cf", "Cc", "Zs") for ch in text):
        return ""
    return text[:NAME_MAX_LENGTH].strip()


def _split_name(display_name: str) -> tuple[str, str]:
    first, _, last = clean_name(display_name).partition(" ")
    return clean_name(first), clean_name(last)


def user_sync_from_claims(
    *, claims: dict[str, Any], first_name: str = "", last_name: str = "", language: str = ""
) -> User:
    """Create or update the local user for verified Firebase claims (keyed by uid).

    Email and picture follow Firebase on every sign-in. Names come from first_name/last_name
    when given (sent at sign-up), else from the token's display name for a user who has none;
    names made only of spaces count as not given. A different local user already holding the
    email (a Firebase account recreated under a new uid) is a Conflict: the uid is the primary
    key everything else points at, so it cannot be re-keyed silently.

    `language` (the sign-up card's choice, else the browser's) is the new account's language; a
    later sign-in never changes it (the person changes it on /settings).
    """
    uid = claims["uid"]
    email = claims.get("email")
    if not isinstance(email, str) or not email:
        raise InvalidInput(
            gettext("Your account has no email address."), errors={"email": [gettext("An email address is required.")]}
        )
    email = User.objects.normalize_email(email)
    picture = claims.get("picture") if isinstance(claims.get("picture"), str) else ""
    first_name, last_name = clean_name(first_name), clean_name(last_name)
    if not (first_name or last_name):
        # Sign-in, or a sign-up whose names were blank: the token's display name ("First Last").
        first_name, last_name = _split_name(claims.get("name") if isinstance(claims.get("name"), str) else "")
        from_token = True
    else:
        from_token = False

    with transaction.atomic():
        if User.objects.filter(email__iexact=email).exclude(pk=uid).exists():
            raise Conflict(EMAIL_TAKEN_MESSAGE, errors={"email": [EMAIL_TAKEN_MESSAGE]})
        user = User.objects.select_for_update().filter(pk=uid).first()
        if user is None:
            try:
                with transaction.atomic():
                    return User.objects.create_user(
                        id=uid,
                        email=email,
                        first_name=first_name,
                        last_name=last_name,
                        profile_image_url=picture[:1000],
                        language=site_language(language),
                    )
            except IntegrityError:
                # A concurrent first sign-in of the same uid won; update that row below.
                user = User.objects.select_for_update().filter(pk=uid).first()
                if user is None:
                    raise Conflict(EMAIL_TAKEN_MESSAGE, errors={"email": [EMAIL_TAKEN_MESSAGE]}) from None
        changed: list[str] = []

        def put(field: str, value: str) -> None:
            if getattr(user, field) != value:
                setattr(user, field, value)
                changed.append(field)

        put("email", email)
        if picture:
            put("profile_image_url", picture[:1000])
        if not from_token or not (clean_name(user.first_name) or clean_name(user.last_name)):
            # Typed names always win; the token's only fill in a user who has none (or only blanks).
            put("first_name", first_name)
            put("last_name", last_name)
        if changed:
            user.save(update_fields=[*changed, "updated_at"])
        return user


def user_type_switch(*, user: User, user_type: str) -> User:
    """Switch a client to provider or back. Admins cannot switch (403); other values are 400."""
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.user_type == UserType.ADMIN:
            raise PermissionDenied(gettext("Admins cannot switch user type."))
        if user_type not in SWITCHABLE_TYPES:
            raise InvalidInput(
                gettext("userType must be client or provider."),
                errors={"userType": [gettext("userType must be client or provider.")]},
            )
        if locked.user_type != user_type:
            locked.user_type = user_type
            locked.save(update_fields=["user_type", "updated_at"])
        return locked


def user_language_set(*, user: User, language: str) -> User:
    """The language Kindly speaks to the person in (pages, emails, texts). 400 for one Kindly has not."""
    if language not in Language.values:
        message = gettext("Choose English or Español.")
        raise InvalidInput(message, errors={"language": [message]})
    with transaction.atomic():
        locked = User.objects.select_for_update().get(pk=user.pk)
        if locked.language != language:
            locked.language = language
            locked.save(update_fields=["language", "updated_at"])
        return locked


def user_make_admin(*, uid: str, email: str, first_name: str, last_name: str) -> User:
    """Create or promote the local account of uid to admin (manage.py create_admin)."""
    with transaction.atomic():
        user = User.objects.select_for_update().filter(pk=uid).first()
        if user is None:
            return User.objects.create_user(
                id=uid, email=email, first_name=first_name, last_name=last_name, user_type=UserType.ADMIN
            )
        user.email = User.objects.normalize_email(email)
        user.user_type = UserType.ADMIN
        user.is_active = True
        user.save(update_fields=["email", "user_type", "is_active", "updated_at"])
        return user


# Emergency contacts are written by circles.services (they belong to a care recipient).


# Shown when a closed account tries to sign in or use a session (closing: marketplace.account_lifecycle).
ACCOUNT_CLOSED_MESSAGE = gettext_lazy(
    "This Kindly account has been closed and can no longer be used to sign in. Contact Kindly support if you need help."
)
